'use strict';
/** In Restricted Mode only the read-only language-model tools are offered, and no MCP server. */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { EXTENSION_ID, loom, specPath, waitFor } = require('../helpers');

const token = () => new vscode.CancellationTokenSource().token;

suite('language-model tools in Restricted Mode', () => {
  let api;
  suiteSetup(async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
    api = await loom();
  });

  test('the tools that move a spec are hidden from the models and have no implementation; the read-only ones run', async () => {
    const contributed = require(path.join(vscode.extensions.getExtension(EXTENSION_ID).extensionPath, 'package.json')).contributes.languageModelTools;
    assert.deepStrictEqual(
      contributed.filter((t) => t.when === 'isWorkspaceTrusted').map((t) => t.name),
      ['loom_advance', 'loom_approve_gate'],
    );
    assert.ok(contributed.filter((t) => t.when !== 'isWorkspaceTrusted').every((t) => t.when === undefined));
    // vscode.lm.tools lists every contributed tool, the disabled ones too (VS Code 1.139): what
    // shows the writers are not offered is that VS Code has nothing to run for them.
    await waitFor('the read-only tools', () => vscode.lm.tools.some((t) => t.name === 'loom_validate'));
    const file = path.join(specPath('2026-11-25+search'), 'pipeline.state.json');
    const before = fs.readFileSync(file, 'utf8');
    await assert.rejects(
      Promise.resolve(vscode.lm.invokeTool('loom_advance', { input: { specDir: 'specs/2026-11-25+search' }, toolInvocationToken: undefined }, token())),
      /does not have an implementation registered/,
    );
    assert.strictEqual(fs.readFileSync(file, 'utf8'), before);
  });

  test('#loomStatus answers through vscode.lm.invokeTool', async () => {
    const result = await vscode.lm.invokeTool('loom_status', { input: { specDir: 'specs/2026-11-25+search' }, toolInvocationToken: undefined }, token());
    assert.match(result.content[0].value, /^search is at brainstorming\./);
  });

  test('no MCP server is offered, and the advance tool, called anyway, writes nothing', async () => {
    assert.deepStrictEqual(await api.mcpServers.provideMcpServerDefinitions(token()), []);
    const file = path.join(specPath('2026-11-25+search'), 'pipeline.state.json');
    const before = fs.readFileSync(file, 'utf8');
    const result = await api.lmTools.tools.get('loom_advance').invoke({ input: { specDir: 'specs/2026-11-25+search' }, toolInvocationToken: undefined }, token());
    assert.match(result.content[0].value, /not trusted.*read-only.*nothing is written/i);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), before);
  });
});
