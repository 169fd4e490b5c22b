'use strict';
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { loom, rows, specPath, waitFor } = require('../helpers');

suite('views, filter, status bar', () => {
  let api;
  suiteSetup(async () => {
    api = await loom();
  });

  test('the list filters by text and by stage', async () => {
    const unfiltered = (await rows(api)).map((g) => g.label);
    await vscode.commands.executeCommand('loom.filter', { text: 'user' });
    let groups = await rows(api);
    assert.deepStrictEqual(
      groups.map((g) => g.label),
      ['In progress'],
    );
    assert.deepStrictEqual(
      (await rows(api, groups[0].node)).map((s) => s.label),
      ['user-login'],
    );
    assert.match(api.view.treeView.message, /Filtered by: "user"/);

    await vscode.commands.executeCommand('loom.filter', { stage: 'failed' });
    groups = await rows(api);
    assert.deepStrictEqual(
      groups.map((g) => g.label),
      ['Failed'],
    );
    assert.deepStrictEqual(
      (await rows(api, groups[0].node)).map((s) => s.label),
      ['legacy'],
    );

    await vscode.commands.executeCommand('loom.filter', { text: 'no-such-spec' });
    assert.match((await rows(api))[0].label, /No spec matches/);

    await vscode.commands.executeCommand('loom.clearFilter');
    assert.deepStrictEqual(
      (await rows(api)).map((g) => g.label),
      unfiltered,
    );
    assert.strictEqual(api.view.treeView.message, undefined);
  });

  test("the status bar shows the active editor's spec and advances it on click", async () => {
    const file = path.join(specPath('2026-11-20+user-login'), 'spec.md');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    await waitFor('the status bar item', () => api.statusBar.activeSpecDir === specPath('2026-11-20+user-login'));
    assert.match(api.statusBar.item.text, /executing 6\/13/);
    assert.strictEqual(api.statusBar.item.command.command, 'loom.advance');
    assert.deepStrictEqual(api.statusBar.item.command.arguments, [{ specDir: specPath('2026-11-20+user-login') }]);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('commands without a spec argument act on the spec selected in the tree', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.loom');
    await api.view.reveal(specPath('2026-11-18+legacy'));
    await waitFor('the tree selection', () => api.view.selectedSpecDir === specPath('2026-11-18+legacy'));
    const result = await vscode.commands.executeCommand('loom.advance');
    assert.strictEqual(result.status, 'refused');
    assert.match(result.message, /^specs\/2026-11-18\+legacy has failed; recover it to a stage first/);
  });

  test("with the Loom view hidden, they act on the active editor's spec", async () => {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await waitFor('the view to be hidden', () => !api.view.treeView.visible);
    const file = path.join(specPath('2026-11-20+user-login'), 'plan.md');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    const result = await vscode.commands.executeCommand('loom.advance');
    assert.strictEqual(result.status, 'refused');
    assert.match(result.message, /user-login cannot move from executing to converge/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('Refresh reads everything again', async () => {
    const result = await vscode.commands.executeCommand('loom.refresh');
    assert.strictEqual(result.status, 'done');
    assert.ok(api.registry.entries().length >= 7);
  });
});
