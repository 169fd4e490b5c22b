'use strict';
// Smoke test: the suite runs inside a real VS Code, with the fixture workspace open and
// the extension under development loaded.
const assert = require('assert');
const vscode = require('vscode');

const EXTENSION_ID = 'loom-vscode.loom-vscode';

suite('smoke', () => {
  test('runs inside VS Code', () => {
    assert.ok(vscode.version.startsWith('1.'), `unexpected vscode.version ${vscode.version}`);
  });

  test('has a workspace folder open', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.ok(folders.length > 0, 'no workspace folder is open');
    assert.strictEqual(folders[0].name, 'integration-workspace');
  });

  test('knows the extension under development', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not known to VS Code`);
  });

  test('in a folder without loom files, a command activates Loom and finds it started within activate()', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.strictEqual(ext.isActive, false, 'nothing here activates it with the window');
    await vscode.commands.executeCommand('loom.showLog');
    assert.strictEqual(ext.isActive, true);
    const t = ext.exports.timings;
    assert.strictEqual(t.deferred, false, 'a command, a chat request or a tool must find it ready');
    assert.ok(t.extensionActivatedAt <= t.activatedAt);
  });
});
