'use strict';
/**
 * The second window, after the reload: T2's file marked as reviewed in the first window
 * (4b-taskThreads.test.js) is still reviewed, read back from task-reviews/T2.json; its resolved
 * thread is drawn again; and when the file changes again the mark clears, in the tree and the dashboard.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { git, loom, settle, waitFor } = require('../helpers');

const WS = process.env.LOOM_TEST_WORKSPACE;
const SPEC = path.join(WS, 'specs', '2026-11-29+batching');
const description = async (api) => String((await api.tree.getTreeItem({ kind: 'task', dir: SPEC, task: 'T2' })).description);
const dashboardModel = (view) => [...view.posted].reverse().find((m) => m.type === 'init' || m.type === 'update')?.model;

suite("Executing, after a reload: a task's change reviewed", () => {
  test('Mark as Reviewed survives the reload, and clears when the file changes again', async () => {
    const api = await loom();
    await settle(api);
    assert.match(await waitFor('the row to say the review', async () => ((await description(api)).includes('reviewed') ? description(api) : undefined), 15000), /1\/2 reviewed/);
    const thread = await waitFor('the resolved thread drawn again', () => api.taskThreads.threadsOf(SPEC, 'T2')[0], 15000);
    assert.strictEqual(thread.thread.state, vscode.CommentThreadState.Resolved);

    const worktree = git(WS, 'worktree', 'list', '--porcelain')
      .split('\n')
      .find((l) => l.startsWith('worktree ') && l.includes('batching'))
      .slice('worktree '.length);
    fs.appendFileSync(path.join(worktree, 'src', 'batching2.js'), '// changed again\n');
    await vscode.commands.executeCommand('loom.refresh');
    const row = await waitFor('the mark to clear', async () => ((await description(api)).includes('0/2 reviewed') ? description(api) : undefined), 15000);
    assert.match(row, /0\/2 reviewed/);
    const tip = (await api.tree.getTreeItem({ kind: 'task', dir: SPEC, task: 'T2' })).tooltip.value;
    assert.match(tip, /`src\/batching2\.js`: ↻ changed since reviewed/);

    await vscode.commands.executeCommand('loom.openDashboard', { specDir: SPEC });
    const view = await waitFor('the dashboard', () => api.webviews.get('dashboard', SPEC));
    const t2 = await waitFor('T2 in the dashboard', () => dashboardModel(view)?.tasks.find((t) => t.id === 'T2' && t.review));
    assert.deepStrictEqual(t2.review, { files: 2, reviewed: 0, changed: ['src/batching2.js'], openThreads: 0 });
  });
});
