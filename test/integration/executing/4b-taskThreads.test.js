'use strict';
/**
 * Comments on a task's change (issue 49, item 1) in a real VS Code, through the scripted model,
 * on the batching spec 4-checkpoints.test.js leaves (T2 done with its checkpoint): a comment on a
 * line of T2's change in Review Changes, sent to the implementer as a fix round whose prompt
 * carries it, answered and resolved by Loom when the round is done; then a file of T2 marked as
 * reviewed, which the second window (9-taskReview.reloaded.test.js) reads back after the reload.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { git, loom, waitFor } = require('../helpers');

const WS = process.env.LOOM_TEST_WORKSPACE;
const SPEC = path.join(WS, 'specs', '2026-11-29+batching');
const readJson = (p) => JSON.parse(fs.readFileSync(p, 'utf8'));
const review = () => readJson(path.join(SPEC, 'task-reviews', 'T2.json'));
const dashboardModel = (view) => [...view.posted].reverse().find((m) => m.type === 'init' || m.type === 'update')?.model;
const COMMENT = 'say which batch this is';

suite("Executing: comments on a task's change, Send to the Implementer, Mark as Reviewed", () => {
  let api;
  let worktree;

  suiteSetup(async () => {
    api = await loom();
    worktree = git(WS, 'worktree', 'list', '--porcelain')
      .split('\n')
      .find((l) => l.startsWith('worktree ') && l.includes('batching'))
      .slice('worktree '.length);
    await vscode.workspace.getConfiguration('loom').update('executing.mode', 'subagent', vscode.ConfigurationTarget.Workspace);
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('loom').update('executing.mode', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test("a comment on a line of T2's change goes to its implementer as a fix round; Loom replies with what changed and resolves it", async () => {
    const opened = await vscode.commands.executeCommand('loom.reviewChanges', { specDir: SPEC, taskId: 'T2' });
    assert.strictEqual(opened.status, 'done', JSON.stringify(opened));
    const tab = await waitFor('the multi-diff tab', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => /changes of T2/.test(t.label)), 10000);
    const diff = tab.input.textDiffs.find((d) => d.modified.path.endsWith('src/batching2.js'));
    assert.ok(diff, tab.input.textDiffs.map((d) => d.modified.toString()).join(', '));
    const after = await vscode.workspace.openTextDocument(diff.modified);
    // The comment widget's Add Comment: VS Code gives the command an empty thread on the lines and the text.
    const draft = api.taskThreads.controller.createCommentThread(diff.modified, new vscode.Range(0, 0, 0, 0), []);
    const added = await vscode.commands.executeCommand('loom.addTaskComment', { thread: draft, text: COMMENT });
    assert.strictEqual(added.status, 'done', JSON.stringify(added));
    const [stored] = review().threads;
    assert.deepStrictEqual([stored.file, stored.line, stored.end_line, stored.status, stored.quote], ['src/batching2.js', 1, 1, 'open', after.lineAt(0).text]);
    const shown = await waitFor('the thread in the diff', () => api.taskThreads.threadsOf(SPEC, 'T2')[0]);
    assert.strictEqual(shown.thread.uri.toString(), diff.modified.toString(), 'drawn on the side after the task');

    const sent = await vscode.commands.executeCommand('loom.sendToImplementer', shown.thread);
    assert.strictEqual(sent.status, 'done', JSON.stringify(sent));
    const t2 = readJson(path.join(SPEC, 'task-states', 'T2.state.json'));
    assert.deepStrictEqual([t2.status, t2.metadata.mode], ['pending', 'fix']);

    const run = await vscode.commands.executeCommand('loom.runTasks', { specDir: SPEC, confirm: true });
    assert.strictEqual(run.status, 'done', JSON.stringify(run));
    assert.strictEqual(run.outcome, 'completed', run.message);
    const requests = await vscode.commands.executeCommand('loomTest.requests');
    const fix = requests.filter((r) => r.role === 'implementer' && r.task === 'T2' && r.comments);
    assert.ok(fix.length > 0, 'the fix prompt carries the thread');
    assert.deepStrictEqual(fix[0].comments, [`src/batching2.js:1 ${COMMENT}`]);

    const done = readJson(path.join(SPEC, 'task-states', 'T2.state.json'));
    assert.strictEqual(done.status, 'done');
    const [answered] = review().threads;
    assert.strictEqual(answered.status, 'resolved');
    assert.strictEqual(answered.comments.length, 2);
    assert.strictEqual(answered.comments[1].author, 'Loom');
    assert.match(answered.comments[1].body, new RegExp(`Fixed in ${done.metadata.checkpoints.at(-1).commit.slice(0, 8)} by the fix round of T2`));
    assert.match(answered.comments[1].body, /\+\/\/ as the comment asked/);
    const redrawn = await waitFor('the thread resolved in the editor', () => {
      const s = api.taskThreads.threadsOf(SPEC, 'T2')[0];
      return s && s.thread.state === vscode.CommentThreadState.Resolved && s.thread.comments.length === 2 ? s : undefined;
    });
    assert.match(redrawn.thread.uri.query, new RegExp(`commit=${done.metadata.checkpoints.at(-1).commit}`), 'on the file as the fix round left it');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Mark as Reviewed: a file of T2 is marked, and the tree row and the dashboard say so', async () => {
    const marked = await vscode.commands.executeCommand('loom.markReviewed', { specDir: SPEC, taskId: 'T2', file: 'src/batching2.js' });
    assert.strictEqual(marked.status, 'done', JSON.stringify(marked));
    const [mark] = review().reviewed;
    assert.strictEqual(mark.file, 'src/batching2.js');
    assert.strictEqual(mark.sha256.length, 64);
    const row = await waitFor('the task row', async () => {
      const d = String((await api.tree.getTreeItem({ kind: 'task', dir: SPEC, task: 'T2' })).description);
      return /1\/2 reviewed/.test(d) ? d : undefined;
    });
    assert.match(row, /1\/2 reviewed/);
    await vscode.commands.executeCommand('loom.openDashboard', { specDir: SPEC });
    const view = await waitFor('the dashboard', () => api.webviews.get('dashboard', SPEC));
    const t2 = await waitFor('T2 reviewed in the dashboard', () => dashboardModel(view)?.tasks.find((t) => t.id === 'T2' && t.review?.reviewed === 1));
    assert.deepStrictEqual(t2.review, { files: 2, reviewed: 1, changed: [], openThreads: 0 });
    assert.ok(fs.existsSync(worktree));
  });
});
