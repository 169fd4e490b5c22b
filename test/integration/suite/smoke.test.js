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
});
