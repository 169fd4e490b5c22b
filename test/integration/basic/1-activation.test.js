'use strict';
const assert = require('assert');
const vscode = require('vscode');
const { EXTENSION_ID, loom, specPath } = require('../helpers');

suite('activation', () => {
  test('activates in a workspace with loom specs and reads every spec', async () => {
    const api = await loom();
    assert.ok(vscode.extensions.getExtension(EXTENSION_ID).isActive);
    const names = api.registry
      .entries()
      .map((e) => e.spec.snapshot.name)
      .sort();
    assert.deepStrictEqual(names, [
      '2026-11-10+payments',
      '2026-11-15+broken',
      '2026-11-18+legacy',
      '2026-11-19+approval',
      '2026-11-20+user-login',
      '2026-11-21+review',
      '2026-11-25+search',
      '2026-11-26+export',
    ]);
  });

  test('while the window starts, reads only the newest rows: the rest once the view asks for them, a command needs them, or 3 s after activation', async () => {
    // Activated before the tests begin (workspaceContains): what its timings say of that start.
    const api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    await api.registry.start();
    const { neededAt, rowsAt } = api.registry.timings;
    const asked = api.tree.firstAskedAt;
    const afterActivation = neededAt - api.timings.activatedAt;
    // The sample has fewer specs than the newest rows: the end of their reading waited for the ask.
    assert.ok(rowsAt >= neededAt, `every row was read ${(neededAt - rowsAt).toFixed(0)} ms before anyone needed them`);
    assert.ok(
      (asked !== undefined && neededAt >= asked) || afterActivation >= 2900,
      `the specs were needed ${afterActivation.toFixed(0)} ms after activation, ${asked === undefined ? 'the view never asked' : `${(neededAt - asked).toFixed(0)} ms after the view asked`}`,
    );
  });

  test('in a window opened on a loom repository, activate() returns before the extension has loaded; it starts on the next turn', async () => {
    const api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    const t = api.timings;
    assert.strictEqual(t.deferred, true, 'workspaceContains: the start is deferred');
    assert.ok(t.extensionStartedAt >= t.activatedAt, `started ${(t.extensionStartedAt - t.activatedAt).toFixed(1)} ms after activate() returned`);
    assert.ok(t.extensionActivatedAt >= t.extensionLoadedAt && t.extensionLoadedAt >= t.extensionStartedAt);
  });

  test('registers every command in the Loom category', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const id of [
      'loom.advance',
      'loom.approve',
      'loom.markFailed',
      'loom.recover',
      'loom.newFeature',
      'loom.openDashboard',
      'loom.showTraceability',
      'loom.refresh',
      'loom.showLog',
      'loom.filter',
      'loom.clearFilter',
    ]) {
      assert.ok(all.includes(id), `${id} is not registered`);
    }
  });

  test("keeps one XState actor per spec, restored from loom's state files", async () => {
    const api = await loom();
    const entry = api.registry.entry(specPath('2026-11-20+user-login'));
    const actor = entry.spec.actor;
    // The stage that runs tasks waits for Run Tasks: its run is the executing statechart, its child.
    assert.deepStrictEqual(actor.getSnapshot().value, { executing: 'idle' });
    assert.strictEqual(actor.getSnapshot().status, 'active');
    assert.strictEqual(api.registry.entry(specPath('2026-11-18+legacy')).spec.actor.getSnapshot().value, 'failed');
  });
});
