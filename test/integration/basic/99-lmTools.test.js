'use strict';
/**
 * Loom's tools for VS Code's agents: the MCP server definition for the workspace folder, the
 * language-model tools in vscode.lm.tools, and #loomStatus / #loomAdvance through
 * vscode.lm.invokeTool on a spec of its own (copied in, removed at the end), with the tree
 * following the actor. Last of the suite: the other files count the workspace's specs.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { EXTENSION_ID, folderPath, loom, readJson, settle, specPath, specRow, waitFor } = require('../helpers');

const SPEC = '2026-11-30+agent-tools';
const SPEC_DIR = `specs/${SPEC}`;
/** A second copy, for the gate. */
const GATE = '2026-11-30+agent-gate';
const TOOLS = ['loom_status', 'loom_advance', 'loom_approve_gate', 'loom_trace', 'loom_tasks', 'loom_validate'];
const token = () => new vscode.CancellationTokenSource().token;

/** A tool's text result: its sentence, and the JSON after it. */
function read(result) {
  const text = result.content.map((p) => p.value).join('');
  const at = text.indexOf('\n\n');
  return { text, summary: at < 0 ? text : text.slice(0, at), data: at < 0 ? undefined : JSON.parse(text.slice(at + 2)) };
}

const invoke = async (name, input) => read(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token()));

suite('language-model tools and the MCP server', () => {
  let api;
  const extensionPath = () => vscode.extensions.getExtension(EXTENSION_ID).extensionPath;

  suiteSetup(async () => {
    api = await loom();
    fs.cpSync(path.join(extensionPath(), 'test', 'fixtures', 'lm-tools', 'specs', SPEC), specPath(SPEC), { recursive: true });
    fs.cpSync(specPath(SPEC), specPath(GATE), { recursive: true });
    const gateState = path.join(specPath(GATE), 'pipeline.state.json');
    fs.writeFileSync(gateState, fs.readFileSync(gateState, 'utf8').replace(SPEC, GATE));
    await waitFor('the agent-tools specs', () => [SPEC, GATE].every((s) => api.registry.entry(specPath(s))?.spec.stage === 'brainstorming'), 10000);
    await settle(api);
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('chat.tools.global').update('autoApprove', undefined, vscode.ConfigurationTarget.Global);
    for (const s of [SPEC, GATE]) fs.rmSync(specPath(s), { recursive: true, force: true });
    await waitFor('the agent-tools specs to go', () => !api.registry.entry(specPath(SPEC)) && !api.registry.entry(specPath(GATE)), 10000);
    await settle(api);
  });

  test('the definition provider offers `loom-vscode mcp` for the workspace folder, on the extension host’s Node', async () => {
    const contributed = require(path.join(extensionPath(), 'package.json')).contributes.mcpServerDefinitionProviders;
    assert.deepStrictEqual(
      contributed.map((p) => p.id),
      ['loom.mcpServers'],
    );
    const defs = await api.mcpServers.provideMcpServerDefinitions(token());
    assert.strictEqual(defs.length, 1, 'one folder with loom files, one server');
    const [server] = defs;
    assert.ok(server instanceof vscode.McpStdioServerDefinition);
    assert.strictEqual(server.label, 'Loom');
    assert.strictEqual(server.command, process.execPath);
    assert.deepStrictEqual(server.args, [path.join(extensionPath(), 'dist', 'cli.js'), 'mcp', '--cwd', folderPath(), '--lang', 'en']);
    assert.ok(fs.existsSync(server.args[0]), 'the bundled CLI is there');
    assert.strictEqual(server.env.ELECTRON_RUN_AS_NODE, '1', 'Electron runs as Node; Node ignores it');
    assert.strictEqual(server.cwd.fsPath, folderPath());
    assert.strictEqual(server.version, vscode.extensions.getExtension(EXTENSION_ID).packageJSON.version);
  });

  test('vscode.lm.tools lists every Loom tool, each referenceable with its input schema', async () => {
    const ours = await waitFor('Loom’s tools in vscode.lm.tools', () => {
      const found = vscode.lm.tools.filter((t) => t.tags.includes('loom'));
      return found.length === TOOLS.length && found;
    });
    assert.deepStrictEqual(ours.map((t) => t.name).sort(), [...TOOLS].sort());
    for (const t of ours) {
      assert.ok(t.description.length > 80, `${t.name} tells the model what it does`);
      assert.strictEqual(t.inputSchema.properties.specDir.type, 'string', `${t.name} takes specDir`);
    }
    // #loomStatus answers from the files it needs; `detail: "full"` adds every check and every file's problems.
    assert.deepStrictEqual(ours.find((t) => t.name === 'loom_status').inputSchema.properties.detail.enum, ['summary', 'full']);
    const contributed = require(path.join(extensionPath(), 'package.json')).contributes.languageModelTools;
    assert.deepStrictEqual(
      contributed.map((t) => [t.name, t.toolReferenceName, t.canBeReferencedInPrompt]),
      [
        ['loom_status', 'loomStatus', true],
        ['loom_advance', 'loomAdvance', true],
        ['loom_approve_gate', 'loomApproveGate', true],
        ['loom_trace', 'loomTrace', true],
        ['loom_tasks', 'loomTasks', true],
        ['loom_validate', 'loomValidate', true],
      ],
    );
  });

  test('#loomStatus says where the spec stands and what to do next', async () => {
    const { summary, data } = await invoke('loom_status', { specDir: SPEC_DIR });
    assert.strictEqual(summary, 'agent-tools is at brainstorming.');
    assert.deepStrictEqual([data.specDir, data.stage, data.stage_source], [SPEC_DIR, 'brainstorming', 'state']);
    assert.deepStrictEqual(
      data.next.map((n) => [n.to, n.kind, n.ready, n.interactive]),
      [['detail-expansion', 'forward', true, true]],
    );
    assert.match(data.what_next, /^Ready to move to detail-expansion once the user agrees: .*#loomAdvance/);
    const full = await invoke('loom_status', { specDir: SPEC_DIR, detail: 'full' });
    assert.deepStrictEqual(full.data.next, data.next, 'a ready move: every check was made either way');
  });

  test('a specDir outside the workspace names no spec, and nothing is read', async () => {
    const { text } = await invoke('loom_status', { specDir: '../../etc' });
    assert.match(text, /^\.\.\/\.\.\/etc is not a loom spec directory of this workspace; its specs are: .*specs\/2026-11-30\+agent-tools/);
  });

  test('#loomAdvance asks the person first, naming the spec, from → to and the outputs', async () => {
    const prepared = await api.lmTools.tools.get('loom_advance').prepareInvocation({ input: { specDir: SPEC_DIR } }, token());
    assert.strictEqual(prepared.confirmationMessages.title, 'Leave brainstorming of agent-tools and move it to detail-expansion?');
    const message = prepared.confirmationMessages.message.value;
    // The actor's question, worded once for every surface.
    assert.ok(message.includes('specs/2026-11-30+agent-tools: brainstorming → detail-expansion'), message);
    assert.match(message, /Outputs of brainstorming: spec\.md ✓, requirements\.json ✓/);
  });

  test('#loomAdvance through vscode.lm.invokeTool, once confirmed, moves the spec and the tree follows', async () => {
    // VS Code asks with a dialog outside a chat; global auto-approve answers it as the person would.
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
    await vscode.workspace.getConfiguration('chat.tools.global').update('autoApprove', true, vscode.ConfigurationTarget.Global);
    const { summary, data } = await invoke('loom_advance', { specDir: SPEC_DIR });
    assert.strictEqual(summary, 'agent-tools: brainstorming → detail-expansion');
    assert.deepStrictEqual([data.from, data.to, data.stage], ['brainstorming', 'detail-expansion', 'detail-expansion']);
    const state = readJson(path.join(specPath(SPEC), 'pipeline.state.json'));
    assert.strictEqual(state.current_stage, 'detail-expansion');
    const entry = state.stage_history.at(-1);
    assert.deepStrictEqual([entry.stage, entry.status, entry.approval], ['brainstorming', 'passed', 'user_confirmed']);
    await waitFor('the tree row to follow', async () => /^detail-expansion · /.test((await specRow(api, 'agent-tools')).description));
  });

  test('a step the pipeline refuses comes back as text with the reasons, and nothing is written', async () => {
    const file = path.join(specPath(SPEC), 'pipeline.state.json');
    const before = fs.readFileSync(file, 'utf8');
    const prepared = await api.lmTools.tools.get('loom_advance').prepareInvocation({ input: { specDir: SPEC_DIR } }, token());
    assert.strictEqual(prepared.confirmationMessages, undefined, 'nothing to ask while the step cannot be taken');
    const { summary, data } = await invoke('loom_advance', { specDir: SPEC_DIR });
    assert.match(summary, /^Refused, nothing was written: /);
    assert.ok(data.reasons.length > 0, JSON.stringify(data));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), before);
  });

  test('#loomApproveGate refuses a gate the person did not confirm, and writes nothing', async () => {
    const file = path.join(specPath(SPEC), 'pipeline.state.json');
    const before = fs.readFileSync(file, 'utf8');
    const { summary } = read(await api.lmTools.tools.get('loom_approve_gate').invoke({ input: { specDir: SPEC_DIR }, toolInvocationToken: undefined }, token()));
    assert.match(summary, /^Refused, nothing was written: specs\/2026-11-30\+agent-tools cannot move from detail-expansion to planning/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), before);
  });

  test('#loomApproveGate names the gate, and once confirmed passes it through vscode.lm.invokeTool', async () => {
    const prepared = await api.lmTools.tools.get('loom_approve_gate').prepareInvocation({ input: { specDir: `specs/${GATE}` } }, token());
    assert.strictEqual(prepared.confirmationMessages.title, 'Approve brainstorming of agent-gate and move it to detail-expansion?');
    // Auto-approve is still on from the advance test: it answers VS Code's confirmation.
    const { summary } = await invoke('loom_approve_gate', { specDir: `specs/${GATE}`, reason: 'the user read spec.md' });
    assert.strictEqual(summary, 'agent-gate: brainstorming approved → detail-expansion');
    const entry = readJson(path.join(specPath(GATE), 'pipeline.state.json')).stage_history.at(-1);
    assert.deepStrictEqual([entry.stage, entry.status, entry.approval], ['brainstorming', 'passed', 'user_confirmed']);
    await waitFor('the tree row to follow', async () => /^detail-expansion · /.test((await specRow(api, 'agent-gate')).description));
  });

  test('#loomTrace, #loomTasks and #loomValidate answer for the spec', async () => {
    const trace = await invoke('loom_trace', { specDir: SPEC_DIR });
    assert.match(trace.summary, /^agent-tools: \d+ of \d+ behaviors closed\.$/);
    assert.ok(trace.data.rows.length > 0);
    const tasks = await invoke('loom_tasks', { specDir: SPEC_DIR });
    assert.strictEqual(tasks.summary, 'agent-tools: 0 tasks in 0 batches.');
    const validate = await invoke('loom_validate', { specDir: SPEC_DIR });
    assert.strictEqual(typeof validate.data.total, 'number');
  });
});
