'use strict';
/**
 * Loom: Run Pipeline in a real VS Code with the scripted model (through vscode.lm): a feature
 * whose brainstorming was drafted in @loom runs in Autopilot; it stops at the human-approval
 * gate of brainstorming; approved, a second run drafts detail-expansion and planning itself,
 * writes what passes loom's checks, and stops at planning's gate. Never a gate passed by itself.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, readJson, settle, waitFor } = require('../helpers');
const { authorRequests, chat } = require('./chat');

const FIXTURE = process.env.LOOM_TEST_AUTHORING_FIXTURE;
const fixture = (name) => fs.readFileSync(path.join(FIXTURE, name), 'utf8');

suite('Loom: Run Pipeline', () => {
  let api;
  let dir;
  const stage = () => readJson(path.join(dir, 'pipeline.state.json')).current_stage;

  suiteSetup(async () => {
    api = await loom();
    await vscode.workspace.getConfiguration('loom').update('models.vendor', 'loom-test', vscode.ConfigurationTarget.Workspace);
    const created = await vscode.commands.executeCommand('loom.newFeature', { name: 'csv-export' });
    assert.strictEqual(created.status, 'done');
    dir = created.specDir;
    await settle(api);
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('loom').update('models.vendor', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('a model that only asks stops the run at brainstorming with its question; nothing is written', async () => {
    const before = fs.readFileSync(path.join(dir, 'spec.md'), 'utf8');
    const run = await vscode.commands.executeCommand('loom.runPipeline', { specDir: dir, mode: 'autopilot' });
    assert.deepStrictEqual([run.status, run.outcome, run.to], ['done', 'model-refused', 'brainstorming']);
    assert.match(run.message, /answer it in @loom \/brainstorm.*Three ways to do it/);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'spec.md'), 'utf8'), before);
    assert.strictEqual(stage(), 'brainstorming');
  });

  test('New Feature leaves the new spec in focus; with the Loom view hidden, @loom takes the active editor’s spec, not a row left selected there', async () => {
    assert.strictEqual(api.view.specInFocus()?.dir, dir, 'New Feature is done once its spec is selected and open');
    const notes = api.registry
      .entries()
      .map((e) => e.dir)
      .find((d) => d.endsWith('+notes'));
    await vscode.commands.executeCommand('workbench.view.extension.loom');
    await api.view.reveal(notes);
    await waitFor('the tree selection', () => api.view.selectedSpecDir === notes);
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await waitFor('the view to be hidden', () => !api.view.treeView.visible);
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(dir, 'spec.md')));
    const asked = await chat(api, '@loom /brainstorm which approach would you take?');
    assert.strictEqual(asked.metadata.dir, dir);
    assert.match(asked.metadata.reply, /Three ways to do it/);
    // In sight again, the tree selects the new feature, as New Feature left it.
    await vscode.commands.executeCommand('workbench.view.extension.loom');
    await api.view.reveal(dir);
    await waitFor('the tree selection', () => api.view.selectedSpecDir === dir);
  });

  test('drafted in @loom, the run stops at brainstorming’s human-approval gate without asking the model again', async () => {
    await chat(api, '@loom /brainstorm go with approach A');
    const written = await chat(api, '@loom /brainstorm write');
    assert.deepStrictEqual(written.metadata.wrote, ['spec.md', 'requirements.json']);
    const asked = (await authorRequests()).length;
    const run = await vscode.commands.executeCommand('loom.runPipeline', { specDir: dir, mode: 'autopilot' });
    assert.deepStrictEqual([run.outcome, run.to], ['approval-gate', 'brainstorming'], run.message);
    assert.match(run.message, /human-approval gate: approve it to move on to detail-expansion/);
    assert.strictEqual((await authorRequests()).length, asked, 'the fresh stage is not drafted again');
    assert.strictEqual(stage(), 'brainstorming');
  });

  test('approved, Autopilot drafts detail-expansion, stops for the approval its requirements.json made stale, then plans and stops at planning’s gate', async () => {
    const approved = await vscode.commands.executeCommand('loom.approve', { specDir: dir, confirm: true });
    assert.strictEqual(approved.status, 'done', approved.message);
    assert.strictEqual(stage(), 'detail-expansion');
    const expanded = await vscode.commands.executeCommand('loom.runPipeline', { specDir: dir, mode: 'autopilot' });
    assert.deepStrictEqual([expanded.outcome, expanded.to], ['stale-approval', 'detail-expansion'], expanded.message);
    assert.match(expanded.message, /approval of brainstorming is stale: requirements\.json changed since/);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'requirements.json'), 'utf8'), fixture('requirements.expanded.json'));
    const renewed = await vscode.commands.executeCommand('loom.reapprove', { specDir: dir, confirm: true });
    assert.strictEqual(renewed.status, 'done', renewed.message);
    // The tree marks the spec while its pipeline runs, and not once the run stopped.
    const marks = new Set();
    const description = async () => String((await api.tree.getTreeItem(api.tree.specNode(dir))).description);
    const watch = setInterval(() => void description().then((d) => marks.add(d)), 20);
    const run = await vscode.commands.executeCommand('loom.runPipeline', { specDir: dir, mode: 'autopilot' });
    clearInterval(watch);
    assert.ok(
      [...marks].some((d) => d.startsWith('pipeline running · ')),
      [...marks].join('\n'),
    );
    assert.ok(!(await description()).includes('pipeline running'), await description());
    assert.deepStrictEqual([run.outcome, run.to], ['approval-gate', 'planning'], run.message);
    assert.strictEqual(stage(), 'planning');
    assert.strictEqual(fs.readFileSync(path.join(dir, 'requirements.json'), 'utf8'), fixture('requirements.expanded.json'));
    assert.strictEqual(fs.readFileSync(path.join(dir, 'plan.md'), 'utf8'), fixture('plan.md'));
    assert.ok(fs.existsSync(path.join(dir, 'tasks', 'T2.md')));
    assert.strictEqual(readJson(path.join(dir, 'handoffs', 'planning.json')).status, 'done');
    const commands = (await authorRequests()).map((r) => r.command);
    assert.deepStrictEqual(commands.slice(-2), ['expand', 'plan']);
    // Nothing runs now: Stop says so.
    const stop = await vscode.commands.executeCommand('loom.stopPipeline', { specDir: dir });
    assert.strictEqual(stop.status, 'refused');
  });
});
