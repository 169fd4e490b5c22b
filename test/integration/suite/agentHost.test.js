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
