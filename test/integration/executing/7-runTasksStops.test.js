'use strict';
/**
 * Run Tasks started on its own (the palette, the tree; not from Run Pipeline) says where it
 * stopped as Run Pipeline does (issue 44, item 5): with no model to run the tasks of `halting`,
 * its stop is kept, and the tree row ("waiting for you since 14:02"), the status bar and the
 * dashboard's run panel say so, with Open Settings as the one action. The stop and its time are
 * left for the second window (8-stops.reloaded.test.js): a reload must still show them.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { git, loom, waitFor } = require('../helpers');

const WS = process.env.LOOM_TEST_WORKSPACE;
const HALTING = path.join(WS, 'specs', '2026-11-29+halting');
const WAITING = /^waiting for you since (\d\d:\d\d|\d{4}-\d\d-\d\d \d\d:\d\d)/;
const description = async (api, dir) => String((await api.tree.getTreeItem(api.tree.specNode(dir))).description);
const dashboardModel = (view) => [...view.posted].reverse().find((m) => m.type === 'init' || m.type === 'update')?.model;

suite('Executing: where Run Tasks on its own stopped', () => {
  const config = () => vscode.workspace.getConfiguration('loom');
  let api;
  let vendor;

  suiteSetup(async () => {
    if (!fs.existsSync(path.join(WS, '.git'))) {
      git(WS, 'init', '-q', '-b', 'main');
      git(WS, 'add', '-A');
      git(WS, '-c', 'user.name=Loom Test', '-c', 'user.email=test@example.com', 'commit', '-qm', 'the fixture');
    }
    api = await loom();
    vendor = config().inspect('models.vendor').workspaceValue;
    const made = await vscode.commands.executeCommand('loom.createWorktree', { specDir: HALTING });
    assert.strictEqual(made.status, 'done', JSON.stringify(made));
  });

  suiteTeardown(() => config().update('models.vendor', vendor, vscode.ConfigurationTarget.Workspace));

  test('no model: the stop is kept and the tree row, the status bar and the dashboard say since when, with Open Settings', async () => {
    assert.doesNotMatch(await description(api, HALTING), WAITING);
    await config().update('models.vendor', 'nobody-has-this', vscode.ConfigurationTarget.Workspace);
    const before = fs.readFileSync(path.join(HALTING, 'pipeline.state.json'), 'utf8');
    const result = await vscode.commands.executeCommand('loom.runTasks', { specDir: HALTING });
    assert.strictEqual(result.status, 'refused', JSON.stringify(result));
    assert.strictEqual(result.code, 'no-model');
    assert.strictEqual(fs.readFileSync(path.join(HALTING, 'pipeline.state.json'), 'utf8'), before, 'nothing was written');

    const row = await waitFor('the row to say the run waits', async () => {
      const d = await description(api, HALTING);
      return WAITING.test(d) ? d : undefined;
    });
    const waiting = api.runs.waiting(HALTING);
    assert.ok(waiting, 'the run waits for the person');
    assert.strictEqual(waiting.reason, 'model-unavailable');
    assert.strictEqual(waiting.stage, 'executing');
    assert.match(waiting.message, /no language model can run the tasks/);

    const status = await waitFor('the status bar to say the spec waits', () => (/halting needs you/.test(api.runs.status.text) ? api.runs.status : undefined));
    assert.strictEqual(status.text, '$(bell) Loom: halting needs you · executing');
    assert.strictEqual(status.command.command, 'loom.continuePipeline');
    assert.deepStrictEqual(status.command.arguments, [{ specDir: HALTING }]);

    await vscode.commands.executeCommand('loom.openDashboard', { specDir: HALTING });
    const view = await waitFor('the dashboard', () => api.webviews.get('dashboard', HALTING));
    const run = await waitFor('the dashboard’s run', () => dashboardModel(view)?.run, 15000);
    assert.strictEqual(run.reason, 'model-unavailable');
    assert.strictEqual(run.since, waiting.at);
    assert.strictEqual(run.action, 'Open Settings');

    fs.writeFileSync(process.env.LOOM_TEST_STATE, JSON.stringify({ dir: HALTING, at: waiting.at, row: WAITING.exec(row)[0] }));
  });
});
