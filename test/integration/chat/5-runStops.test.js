'use strict';
/**
 * Where a stopped run leaves the person (issue 44, item 5, defects 5 and 7), in a real VS Code:
 * a spec whose brainstorming files a person wrote, with only the approval missing (the sample's
 * `tags`), is said to be ready for approval — no model asked, no "implementer" — by a
 * notification with its one action, the status bar and the tree row ("waiting for you since
 * 14:02"); and every view lets the stop go once pipeline.state.json no longer says what it said
 * (a checkout that rewrote it, a state that does not parse), and shows it again when it does.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, settle, waitFor, writeUntil } = require('../helpers');

const FIXTURE = process.env.LOOM_TEST_AUTHORING_FIXTURE;
const fixture = (name) => fs.readFileSync(path.join(FIXTURE, name), 'utf8');

/** The tree row's description of the spec. */
const description = async (api, dir) => String((await api.tree.getTreeItem(api.tree.specNode(dir))).description);
/** The dashboard's model as last posted. */
const dashboardModel = (view) => [...view.posted].reverse().find((m) => m.type === 'init' || m.type === 'update')?.model;
const WAITING = /^waiting for you since (\d\d:\d\d|\d{4}-\d\d-\d\d \d\d:\d\d) · brainstorming/;

suite('Loom: where a stopped run leaves you', () => {
  let api;
  let dir;
  let stateFile;
  let original;

  suiteSetup(async () => {
    api = await loom();
    await vscode.workspace.getConfiguration('loom').update('models.vendor', 'loom-test', vscode.ConfigurationTarget.Workspace);
    const created = await vscode.commands.executeCommand('loom.newFeature', { name: 'stop-notices' });
    assert.strictEqual(created.status, 'done');
    dir = created.specDir;
    // Written by a person, as in the sample's tags: brainstorming's outputs there, only the approval missing.
    fs.writeFileSync(path.join(dir, 'spec.md'), fixture('spec.md'));
    fs.writeFileSync(path.join(dir, 'requirements.json'), fixture('requirements.brainstorm.json'));
    stateFile = path.join(dir, 'pipeline.state.json');
    await settle(api);
  });

  suiteTeardown(async () => {
    if (original) fs.writeFileSync(stateFile, original);
    await vscode.workspace.getConfiguration('loom').update('models.vendor', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('ready for approval: one notification with its one action, the status bar and the tree row say so; no model is asked', async () => {
    const requests = (await vscode.commands.executeCommand('loomTest.requests')).length;
    const shown = [];
    const { window } = vscode;
    const original_ = { warning: window.showWarningMessage, info: window.showInformationMessage };
    window.showWarningMessage = async (message, ...items) => void shown.push(['warning', message, ...items]);
    window.showInformationMessage = async (message, ...items) => void shown.push(['info', message, ...items]);
    let run;
    try {
      run = await vscode.commands.executeCommand('loom.runPipeline', { specDir: dir, mode: 'autopilot' });
    } finally {
      Object.assign(window, { showWarningMessage: original_.warning, showInformationMessage: original_.info });
    }
    assert.deepStrictEqual([run.status, run.outcome, run.to], ['done', 'approval-gate', 'brainstorming'], run.message);
    assert.strictEqual((await vscode.commands.executeCommand('loomTest.requests')).length, requests, 'no model was asked');
    assert.strictEqual(shown.length, 1, JSON.stringify(shown));
    const [kind, message, ...actions] = shown[0];
    assert.strictEqual(kind, 'warning');
    assert.match(message, /^stop-notices needs you at brainstorming: brainstorming is ready for your approval: its files are written \(spec\.md, requirements\.json\)/);
    assert.doesNotMatch(message, /implementer|language model|Work: draft/);
    assert.deepStrictEqual(actions, ['Approve and Continue']);

    const status = await waitFor('the status bar to say the spec waits', () => (/needs you/.test(api.runs.status.text) ? api.runs.status : undefined));
    assert.strictEqual(status.text, '$(bell) Loom: stop-notices needs you · brainstorming');
    assert.strictEqual(status.command.command, 'loom.continuePipeline');
    assert.deepStrictEqual(status.command.arguments, [{ specDir: dir }]);
    assert.match(status.tooltip.value, /ready for your approval/);

    assert.match(await description(api, dir), WAITING);

    await vscode.commands.executeCommand('loom.openDashboard', { specDir: dir });
    const view = await waitFor('the dashboard', () => api.webviews.get('dashboard', dir));
    const model = await waitFor('the dashboard’s model', () => dashboardModel(view), 15000);
    assert.strictEqual(model.run.reason, 'approval-gate');
    assert.strictEqual(model.run.stage, 'brainstorming');
    assert.strictEqual(model.run.action, 'Approve and Continue');
    assert.ok(model.run.since && Date.parse(model.run.since) > Date.now() - 120000, model.run.since);
    original = fs.readFileSync(stateFile, 'utf8');
  });

  test('the views follow pipeline.state.json: a checkout that rewrote it or a state that does not parse ends the stop; back as it was, it is there again', async () => {
    const view = api.webviews.get('dashboard', dir);
    const state = JSON.parse(original);
    // As `git checkout` of another commit leaves it: the same spec, another state.
    await writeUntil(
      'the row to drop the stop',
      stateFile,
      `${JSON.stringify({ ...state, updated_at: '2026-11-28T06:10:00.000Z' }, null, 2)}\n`,
      async () => !WAITING.test(await description(api, dir)),
    );
    await waitFor('the status bar to drop the stop', () => !/stop-notices/.test(api.runs.status.text) || !api.runs.status.text.includes('needs you'));
    await waitFor('the dashboard to drop the stop', () => dashboardModel(view)?.run === undefined, 15000);

    await writeUntil('the row to say the stop again', stateFile, original, async () => WAITING.test(await description(api, dir)));
    await waitFor('the dashboard to show the stop again', () => dashboardModel(view)?.run?.reason === 'approval-gate', 15000);

    // A state that no longer parses: the stage is unknown, and nothing says "Needs you at brainstorming" above it.
    await writeUntil('the row to drop the stop', stateFile, '{ "current_stage": "brainst', async () => !WAITING.test(await description(api, dir)));
    const corrupt = await waitFor('the dashboard of an unknown stage', () => (dashboardModel(view)?.stage === null ? dashboardModel(view) : undefined), 15000);
    assert.strictEqual(corrupt.run, undefined);
    assert.ok(!api.runs.status.text.includes('stop-notices'), api.runs.status.text);

    await writeUntil('the state read again', stateFile, original, async () => WAITING.test(await description(api, dir)));
  });

  test('a rate limit from the provider is asked again after a pause, and the run goes on', async () => {
    const approved = await vscode.commands.executeCommand('loom.approve', { specDir: dir, confirm: true });
    assert.strictEqual(approved.status, 'done', approved.message);
    assert.ok(!WAITING.test(await description(api, dir)), 'approved: the stop is over');
    const before = (await vscode.commands.executeCommand('loomTest.requests')).length;
    await vscode.commands.executeCommand('loomTest.setMode', 'rate-limited:1');
    const started = Date.now();
    let run;
    try {
      run = await vscode.commands.executeCommand('loom.runPipeline', { specDir: dir, mode: 'autopilot' });
    } finally {
      await vscode.commands.executeCommand('loomTest.setMode', 'pass');
    }
    // The expansion was drafted on the second try and written; its requirements.json made brainstorming's approval stale.
    assert.deepStrictEqual([run.outcome, run.to], ['stale-approval', 'detail-expansion'], run.message);
    const asked = (await vscode.commands.executeCommand('loomTest.requests')).slice(before).map((r) => [r.command, r.mode]);
    assert.deepStrictEqual(asked, [
      ['expand', 'rate-limited'],
      ['expand', 'pass'],
    ]);
    assert.ok(Date.now() - started >= 2000, 'the second try came after the first pause (2 s)');
    assert.strictEqual(fs.readFileSync(path.join(dir, 'requirements.json'), 'utf8'), fixture('requirements.expanded.json'));
    original = undefined;
  });
});
