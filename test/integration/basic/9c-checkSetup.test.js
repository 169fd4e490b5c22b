'use strict';
/**
 * Loom: Check Setup and the check Run Pipeline makes first (issue 49), in a workspace with no
 * chat model and no git repository: each missing item with its fix; Run Pipeline does not start
 * a run that would need a model, and says which and how to get one.
 */
const assert = require('assert');
const vscode = require('vscode');
const { loom, specPath } = require('../helpers');

suite('Check Setup', () => {
  suiteSetup(async () => {
    await loom();
  });

  test('each item, what was found and the fix of a missing one: no chat model, no git repository', async () => {
    const report = await vscode.commands.executeCommand('loom.checkSetup', { quiet: true });
    assert.strictEqual(report.status, 'done');
    const byId = new Map(report.items.map((i) => [i.id, i]));
    assert.strictEqual(byId.get('trust').status, 'ok');
    assert.deepStrictEqual([byId.get('model').status, byId.get('model').fixKind], ['missing', 'install-model']);
    assert.match(byId.get('model').fix, /^Install and sign in to a language model provider/);
    assert.ok(!byId.has('consent') && !byId.has('tiers'), 'nothing asked about a model that is not there');
    assert.deepStrictEqual([byId.get('git').status, byId.get('git').fixKind], ['missing', 'init-repository']);
    assert.ok(!byId.has('commit'));
    assert.strictEqual(byId.get('tools').status, 'ok', `Loom's own tools are registered: ${byId.get('tools').detail}`);
    assert.match(report.message, /things are missing: no chat model is available to Loom/);
  });

  test('Run Pipeline checks first: a run that would draft with a model does not start without one, and says how to get one', async () => {
    const run = await vscode.commands.executeCommand('loom.runPipeline', { specDir: specPath('2026-11-26+export'), mode: 'autopilot' });
    assert.deepStrictEqual([run.status, run.code], ['refused', 'setup-model'], JSON.stringify(run));
    assert.match(run.message, /^Loom did not start the run: no chat model is available to Loom\. Install and sign in to a language model provider/);
  });
});
