'use strict';
// The skills and agents Loom contributes (contributes.chatSkills / chatAgents) as VS Code itself
// lists them: `_listExtensionPromptFiles` is the workbench's own list of what extensions contribute.
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');

const EXTENSION_ID = 'loom-vscode.loom-vscode';

async function contributed() {
  const files = await vscode.commands.executeCommand('_listExtensionPromptFiles');
  return files.filter((f) => f.extensionId.toLowerCase() === EXTENSION_ID);
}

suite('agent host: skills and agents', () => {
  test('_listExtensionPromptFiles lists every contributed skill and agent of Loom', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    const { chatSkills, chatAgents } = ext.packageJSON.contributes;
    assert.ok(chatSkills.length >= 9 && chatAgents.length >= 3);
    const want = [...chatSkills.map((s) => `skill ${s.path}`), ...chatAgents.map((a) => `agent ${a.path}`)].map((x) => x.replace(' ./', ' ')).sort();
    // The workbench registers a contribution when it reads the extension's manifest; give it a moment.
    let got = [];
    for (let i = 0; i < 50; i++) {
      got = (await contributed()).map((f) => `${f.type} ${path.relative(ext.extensionPath, vscode.Uri.from(f.uri).fsPath).split(path.sep).join('/')}`).sort();
      if (got.length >= want.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepStrictEqual(got, want);
  });
});

// loom.agentHost.hooks: VS Code loads the hooks-only plugin the extension registers with
// chatPlugins (its `when` is the setting), and lists its hooks as it lists any plugin's.
suite('agent host: the hooks plugin', () => {
  const hooksOf = async () => {
    const files = await vscode.commands.executeCommand('_listExtensionPromptFiles');
    return files.filter((f) => f.type === 'hook' && vscode.Uri.from(f.uri).path.includes('/plugin/vscode-hooks/'));
  };
  async function waitFor(count) {
    let got = [];
    for (let i = 0; i < 75; i++) {
      got = await hooksOf();
      if (got.length === count) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    return got;
  }

  test('with loom.agentHost.hooks on, VS Code lists the plugin’s hooks; off, it does not', async () => {
    const config = vscode.workspace.getConfiguration('loom');
    assert.deepStrictEqual(await waitFor(0), [], 'off by default');
    await config.update('agentHost.hooks', true, vscode.ConfigurationTarget.Global);
    try {
      // VS Code lists the plugin's hooks file once for each of its events: SessionStart, Stop, SubagentStop.
      const on = await waitFor(3);
      assert.strictEqual(on.length, 3, JSON.stringify(on));
      for (const hook of on) assert.match(vscode.Uri.from(hook.uri).path, /\/plugin\/vscode-hooks\/hooks\.json$/);
    } finally {
      await config.update('agentHost.hooks', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.deepStrictEqual(await waitFor(0), []);
  });
});
