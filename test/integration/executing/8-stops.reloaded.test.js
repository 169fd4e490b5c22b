'use strict';
/**
 * The second window on the executing suite's workspace and profile, as a reload makes it: the
 * stop the first window's Run Tasks left (7-runTasksStops.test.js) is read back from the
 * extension's storage, and the tree row, the status bar and the dashboard still say it, with the
 * same "since" (issue 44, item 5).
 */
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');
const { loom, settle, waitFor } = require('../helpers');

const description = async (api, dir) => String((await api.tree.getTreeItem(api.tree.specNode(dir))).description);
const dashboardModel = (view) => [...view.posted].reverse().find((m) => m.type === 'init' || m.type === 'update')?.model;

suite('Executing, after a reload: the stop is still shown', () => {
  test('the tree row, the status bar and the dashboard say the stop and its time as before the reload', async () => {
    const left = JSON.parse(fs.readFileSync(process.env.LOOM_TEST_STATE, 'utf8'));
    const api = await loom();
    await settle(api);
    const row = await waitFor(
      'the row of halting to say the stop',
      async () => {
        const d = await description(api, left.dir);
        return d.startsWith(left.row) ? d : undefined;
      },
      15000,
    );
    assert.ok(row.startsWith(left.row), row);
    const waiting = api.runs.waiting(left.dir);
    assert.ok(waiting, 'the run still waits for the person');
    assert.strictEqual(waiting.at, left.at);
    assert.strictEqual(waiting.reason, 'model-unavailable');

    const status = await waitFor('the status bar', () => (/halting needs you/.test(api.runs.status.text) ? api.runs.status : undefined));
    assert.strictEqual(status.text, '$(bell) Loom: halting needs you · executing');
    assert.match(status.accessibilityInformation.label, new RegExp(`since ${left.row.replace(/^waiting for you since /, '')}`));

    await vscode.commands.executeCommand('loom.openDashboard', { specDir: left.dir });
    const view = await waitFor('the dashboard', () => api.webviews.get('dashboard', left.dir));
    const run = await waitFor('the dashboard’s run', () => dashboardModel(view)?.run, 15000);
    assert.strictEqual(run.reason, 'model-unavailable');
    assert.strictEqual(run.since, left.at);
  });
});
