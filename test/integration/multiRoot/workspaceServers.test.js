'use strict';
/**
 * One MCP server per workspace folder with loom files, and VS Code told when the folders change:
 * a folder added with a `specs/` folder gets its server, an empty one none, and a folder removed
 * takes its server with it. After multiRoot.test.js, which counts the folders.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, waitFor } = require('../helpers');

const token = () => new vscode.CancellationTokenSource().token;
const cwdOf = (server) => server.args[server.args.indexOf('--cwd') + 1];

suite('MCP servers of a multi-root workspace', () => {
  let api;
  let extra;
  suiteSetup(async () => {
    api = await loom();
    // Beside alpha and beta, in the suite's copy of the workspace.
    extra = path.join(path.dirname(vscode.workspace.workspaceFolders[0].uri.fsPath), 'gamma');
    fs.mkdirSync(extra, { recursive: true });
  });

  suiteTeardown(() => fs.rmSync(extra, { recursive: true, force: true }));

  test('one server per folder, labelled with its folder', async () => {
    const servers = await api.mcpServers.provideMcpServerDefinitions(token());
    assert.deepStrictEqual(
      servers.map((s) => [s.label, cwdOf(s), s.cwd.fsPath]),
      vscode.workspace.workspaceFolders.map((f) => [`Loom (${f.name})`, f.uri.fsPath, f.uri.fsPath]),
    );
  });

  test('a folder that gains loom files gets its server, and VS Code is told; one removed takes it away', async () => {
    let changes = 0;
    const listener = api.mcpServers.onDidChangeMcpServerDefinitions(() => changes++);
    try {
      const count = vscode.workspace.workspaceFolders.length;
      assert.ok(vscode.workspace.updateWorkspaceFolders(count, 0, { uri: vscode.Uri.file(extra), name: 'gamma' }));
      await waitFor('the third folder', () => vscode.workspace.workspaceFolders.length === count + 1, 10000);
      assert.strictEqual((await api.mcpServers.provideMcpServerDefinitions(token())).length, count, 'no loom files in gamma yet: no server');

      fs.mkdirSync(path.join(extra, 'specs', '2026-12-01+gamma-feature'), { recursive: true });
      fs.writeFileSync(path.join(extra, 'specs', '2026-12-01+gamma-feature', 'spec.md'), '# gamma\n');
      await waitFor('the change event for gamma', () => changes > 0, 15000);
      const servers = await api.mcpServers.provideMcpServerDefinitions(token());
      assert.deepStrictEqual(servers.map((s) => s.label).at(-1), 'Loom (gamma)');
      assert.strictEqual(cwdOf(servers.at(-1)), extra);

      const before = changes;
      assert.ok(vscode.workspace.updateWorkspaceFolders(count, 1));
      await waitFor('the change event for the removed folder', () => changes > before, 10000);
      assert.strictEqual((await api.mcpServers.provideMcpServerDefinitions(token())).length, count);
    } finally {
      listener.dispose();
    }
  });
});
