'use strict';
/**
 * One port, the same answer, in VS Code: Advance through the palette's command and through the
 * #loomAdvance language-model tool, on the same fixtures the unit suite puts the actor, the CLI
 * and the MCP server through (test/support/parityFixtures.js), gives the same outcome and the same
 * refusal code; the CLI and the MCP server, run here on this workspace, agree with them. The team's
 * rule comes from the workspace's settings and holds for the agent's tool as for the palette.
 */
const assert = require('assert');
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { EXTENSION_ID, folderPath, loom, settle, waitFor } = require('../helpers');

suite('one port: every surface gives the same answer', () => {
  let api;
  let cases;
  const extensionPath = () => vscode.extensions.getExtension(EXTENSION_ID).extensionPath;
  const fixtures = () => require(path.join(extensionPath(), 'test', 'support', 'parityFixtures.js'));
  const token = () => new vscode.CancellationTokenSource().token;

  suiteSetup(async () => {
    api = await loom();
    cases = fixtures().writeParitySpecs(folderPath(), process.ppid);
    // The team's rule, as the repository's .vscode/settings.json keeps it (VS Code reads the same file).
    await vscode.workspace.getConfiguration('loom').update('review.blockOnOpenThreads', true, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('loom.refresh');
    await waitFor('the parity specs', () => cases.every((c) => api.registry.entry(c.dir)), 15000);
    await settle(api);
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('loom').update('review.blockOnOpenThreads', undefined, vscode.ConfigurationTarget.Workspace);
    for (const c of cases) fs.rmSync(c.dir, { recursive: true, force: true });
    await waitFor('the parity specs to go', () => cases.every((c) => !api.registry.entry(c.dir)), 15000);
    await settle(api);
  });

  /** The palette's Advance as an outcome: a question is shown (and cancelled here), or its answer. */
  async function palette(c) {
    await vscode.workspace.getConfiguration('loom').update('confirmation', 'quickPick', vscode.ConfigurationTarget.Workspace);
    try {
      const pending = vscode.commands.executeCommand('loom.advance', { specDir: c.dir });
      let asked = false;
      const closer = setInterval(() => void vscode.commands.executeCommand('workbench.action.closeQuickOpen').then(() => (asked = true)), 400);
      const result = await pending;
      clearInterval(closer);
      if (result.status === 'cancelled') return { kind: 'needs-confirmation', asked };
      return result.status === 'done' ? { kind: 'changed', to: result.to } : { kind: 'refused', code: result.code };
    } finally {
      await vscode.workspace.getConfiguration('loom').update('confirmation', undefined, vscode.ConfigurationTarget.Workspace);
    }
  }

  /** #loomAdvance as an outcome: VS Code's confirmation prepared, else the tool's answer and its codes. */
  async function tool(c) {
    const advance = api.lmTools.tools.get('loom_advance');
    const prepared = await advance.prepareInvocation({ input: { specDir: c.specDir } }, token());
    if (prepared?.confirmationMessages) return { kind: 'needs-confirmation' };
    const result = await advance.invoke({ input: { specDir: c.specDir }, toolInvocationToken: undefined }, token());
    const text = result.content.map((p) => p.value).join('');
    const at = text.indexOf('\n\n');
    const data = at < 0 ? {} : JSON.parse(text.slice(at + 2));
    if (!text.startsWith('Refused')) return { kind: 'changed', to: data.to };
    return { kind: 'refused', code: data.codes?.[0] ?? 'transition-refused' };
  }

  /** The built CLI on this workspace, as a terminal runs it. */
  function cli(c) {
    const r = spawnSync(process.execPath, [path.join(extensionPath(), 'bin', 'loom-vscode.js'), 'advance', '--cwd', folderPath(), '--spec-dir', c.specDir, '--json', '--lang', 'en'], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      encoding: 'utf8',
    });
    const doc = r.stdout ? JSON.parse(r.stdout) : {};
    if (r.status === 0) return { kind: 'changed', to: doc.to };
    if (doc.codes?.includes('confirmation-required')) return { kind: 'needs-confirmation' };
    return { kind: 'refused', code: doc.codes?.[0] ?? doc.code };
  }

  test('the palette, #loomAdvance and the CLI answer each case as the actor does, and nothing is written', async function () {
    // Nine cases, each a process of the CLI and a question shown and closed: longer than one test's default on a busy machine.
    this.timeout(120000);
    for (const c of cases) {
      const before = fs.readFileSync(path.join(c.dir, 'pipeline.state.json'), 'utf8');
      const viaTool = await tool(c);
      const viaCli = cli(c);
      const viaPalette = await palette(c);
      assert.deepStrictEqual(viaTool, c.expect, `${c.name}: #loomAdvance`);
      assert.deepStrictEqual(viaCli, c.expect, `${c.name}: the CLI`);
      assert.deepStrictEqual({ kind: viaPalette.kind, ...(viaPalette.code ? { code: viaPalette.code } : {}) }, c.expect, `${c.name}: the palette`);
      assert.strictEqual(fs.readFileSync(path.join(c.dir, 'pipeline.state.json'), 'utf8'), before, `${c.name}: nothing written`);
    }
  });

  test("the team's rule off, the open thread is a warning in the one question every surface shows", async () => {
    const c = cases.find((x) => x.name === 'open-threads');
    await vscode.workspace.getConfiguration('loom').update('review.blockOnOpenThreads', undefined, vscode.ConfigurationTarget.Workspace);
    try {
      // The registry reads every spec again when the rule changes.
      await waitFor('the rule to be off', () => api.registry.entry(c.dir)?.spec.preview({ type: 'advance' }).kind === 'needs-confirmation', 15000);
      const prepared = await api.lmTools.tools.get('loom_advance').prepareInvocation({ input: { specDir: c.specDir } }, token());
      assert.match(prepared.confirmationMessages.message.value, /⚠ 1 comment thread on its outputs is still open: spec\.md:1\./);
      assert.deepStrictEqual(cli(c), { kind: 'needs-confirmation' });
    } finally {
      await vscode.workspace.getConfiguration('loom').update('review.blockOnOpenThreads', true, vscode.ConfigurationTarget.Workspace);
    }
  });
});
