'use strict';
/**
 * loom.budget.credits in a real VS Code with the scripted model (a chat model provider, priced
 * through loom.credits.prices): a run whose spec has used 80 % of the budget shows the warning
 * notification before its drafting, with Open Dashboard and Open Settings; an @loom turn whose
 * estimate would pass the budget is not sent, and says how far the spec got and what the turn
 * would cost. The Loom view meanwhile opens the running spec to its stage and no other spec's
 * stages.
 */
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { loom, readJson, settle, waitFor } = require('../helpers');
const { authorRequests, chat } = require('./chat');

/** The scripted model's price per million tokens, in US cents (AI credits). */
const price = (perMillion) => ({ 'loom-test-scripted': { input: perMillion, output: perMillion } });

suite('loom.budget.credits', () => {
  let api;
  let dir;
  /** Another spec, whose row the person opened: its stages stay closed while the run goes. */
  let other;
  const config = () => vscode.workspace.getConfiguration('loom');
  const creditsUsed = () => readJson(path.join(dir, 'pipeline.state.json')).metadata.token_usage.credits.total;

  suiteSetup(async () => {
    api = await loom();
    await config().update('models.vendor', 'loom-test', vscode.ConfigurationTarget.Workspace);
    const created = await vscode.commands.executeCommand('loom.newFeature', { name: 'budget-watch' });
    assert.strictEqual(created.status, 'done');
    dir = created.specDir;
    const second = await vscode.commands.executeCommand('loom.newFeature', { name: 'budget-other' });
    assert.strictEqual(second.status, 'done');
    other = second.specDir;
    await settle(api);
  });

  suiteTeardown(async () => {
    for (const key of ['models.vendor', 'budget.credits', 'credits.prices']) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('a run past 80 % of the budget shows the warning notification before it drafts, once; other specs keep their stages closed', async () => {
    // A first turn at a high price: the spec has spent much, in its ledger.
    await config().update('credits.prices', price(100_000_000), vscode.ConfigurationTarget.Workspace);
    const asked = await chat(api, '@loom /brainstorm budget-watch: which approach would you take?');
    assert.match(asked.metadata.reply, /Three ways to do it/);
    const used = creditsUsed();
    assert.ok(used > 0, `the turn was priced (${used})`);
    // The run's drafting at 1 credit a token stays within a budget the spec has used 85 % of.
    await config().update('credits.prices', price(1_000_000), vscode.ConfigurationTarget.Workspace);
    await config().update('budget.credits', Math.ceil(used / 0.85), vscode.ConfigurationTarget.Workspace);

    await vscode.commands.executeCommand('workbench.view.extension.loom');
    await vscode.commands.executeCommand('workbench.actions.treeView.loom.specs.collapseAll');
    await waitFor('every row closed', () => !api.tree.expansion.isOpen(`spec:${dir}`));
    await api.view.reveal(other);
    await waitFor('the other spec’s row opened', () => api.tree.expansion.isOpen(`spec:${other}`));
    const shown = [];
    const { window } = vscode;
    const original = window.showWarningMessage;
    window.showWarningMessage = async (message, ...items) => void shown.push([message, ...items]);
    let run;
    try {
      run = await vscode.commands.executeCommand('loom.runPipeline', { specDir: dir, mode: 'autopilot' });
    } finally {
      window.showWarningMessage = original;
    }
    assert.strictEqual(run.status, 'done', run.message);
    assert.notStrictEqual(run.outcome, 'budget', run.message);
    const near = shown.filter(([m]) => /AI credits budget used/.test(m));
    assert.strictEqual(near.length, 1, JSON.stringify(shown));
    assert.match(near[0][0], /^budget-watch: [\d.]+ of the [\d.]+ AI credits budget used \((8\d|9\d) %\)\. The run stops before a step that would pass it\.$/);
    assert.deepStrictEqual(near[0].slice(1), ['Open Dashboard', 'Open Settings']);

    // The run brought its spec's stage into sight (the spec's row opened); the other spec's stages stayed closed.
    await waitFor('the run’s spec opened in the tree', () => api.tree.expansion.isOpen(`spec:${dir}`), 10000);
    for (const stage of api.registry.entry(other).overview.stages) {
      assert.strictEqual(api.tree.expansion.isOpen(`stage:${other}:${stage.id}`), false, stage.id);
      const item = await api.tree.getTreeItem({ kind: 'stage', dir: other, stage: stage.id });
      assert.notStrictEqual(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded, stage.id);
    }
  });

  test('an @loom turn whose estimate would pass the budget is not sent; it says how far the spec got and what the turn would cost', async () => {
    await config().update('budget.credits', Math.floor(creditsUsed()), vscode.ConfigurationTarget.Workspace);
    const before = (await authorRequests()).length;
    const turn = await chat(api, '@loom /brainstorm budget-watch: which approach would you take?');
    assert.strictEqual((await authorRequests()).length, before, 'nothing sent to the model');
    assert.match(
      turn.metadata.budgetStop,
      /^the credits budget would be passed: [\d.]+ of [\d.]+ credits used, and the next request is estimated at [\d.]+ credits; raise loom\.budget\.credits to continue/,
    );
    assert.strictEqual(turn.metadata.reply, undefined);
  });
});
