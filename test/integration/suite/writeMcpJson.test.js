'use strict';
// Loom: Write .mcp.json in a real VS Code. After smoke.test.js (files run in name order): running a
// command activates Loom, and the smoke suite checks first that nothing here activates it with the window.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const EXTENSION_ID = 'loom-vscode.loom-vscode';

suite('agent host: the repository’s .mcp.json', () => {
  test('Loom: Write .mcp.json writes the server the plugin starts into the folder’s .mcp.json', async () => {
    const folder = vscode.workspace.workspaceFolders[0].uri.fsPath;
    const file = path.join(folder, '.mcp.json');
    assert.ok(!fs.existsSync(file), 'the fixture has no .mcp.json');
    try {
      const outcome = await vscode.commands.executeCommand('loom.writeMcpJson', { folder });
      assert.strictEqual(outcome.status, 'done');
      assert.strictEqual(outcome.outcome, 'written');
      const ext = vscode.extensions.getExtension(EXTENSION_ID);
      const plugin = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'plugin', '.mcp.json'), 'utf8'));
      assert.deepStrictEqual(JSON.parse(fs.readFileSync(file, 'utf8')), plugin);
      assert.strictEqual((await vscode.commands.executeCommand('loom.writeMcpJson', { folder })).outcome, 'unchanged');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
