import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { commitCheckpoint } from '../../../src/core/git/checkpoints';
import { featureRepo as featureRepoIn, git, write } from './helpers/gitRepos';
import { cleanTaskWorktrees, listTaskWorktrees, mergeTaskCommit, openTaskWorktree, putConflictInWorktree, removeTaskWorktree, taskWorktreePath } from '../../../src/core/git/taskWorktrees';

const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const SPEC = 'specs/2026-11-25+due-dates';

const featureRepo = () => featureRepoIn(made, { 'src/list.js': 'line 1\nline 2\nline 3\n', '.gitignore': 'node_modules/\n' }, 'wt/2026-11-25-due-dates', 'loom-tw-');

/** A task's work in its own worktree, committed on its branch. */
async function taskWork(wt: string, task: string, from: string, files: Record<string, string>) {
  const tw = await openTaskWorktree({ featureWorktree: wt, task, from, resume: false });
  for (const [p, c] of Object.entries(files)) write(tw.path, p, c);
  const cp = (await commitCheckpoint({ worktree: tw.path, spec: SPEC, task, title: `work of ${task}`, files: Object.keys(files) }))!;
  return { tw, cp };
}

test('a task worktree branches from the checkpoint, beside the feature worktree, and borrows its node_modules', async () => {
  const { wt } = featureRepo();
  mkdirSync(join(wt, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(wt, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  const from = git(wt, 'rev-parse', 'HEAD').trim();
  const tw = await openTaskWorktree({ featureWorktree: wt, task: 'T1', from, resume: false });
  assert.equal(tw.path, taskWorktreePath(wt, 'T1'));
  assert.equal(tw.path, `${wt}.tasks/T1`);
  assert.equal(tw.branch, 'loom-task/2026-11-25-due-dates/T1');
  assert.equal(git(tw.path, 'rev-parse', 'HEAD').trim(), from);
  assert.ok(lstatSync(join(tw.path, 'node_modules')).isSymbolicLink());
  write(tw.path, 'src/a.js', 'a\n');
  // Opened again (a reload): the same worktree, the work still there.
  const again = await openTaskWorktree({ featureWorktree: wt, task: 'T1', from, resume: true });
  assert.equal(readFileSync(join(again.path, 'src/a.js'), 'utf8'), 'a\n');
  await removeTaskWorktree({ featureWorktree: wt, task: 'T1' });
  assert.equal(existsSync(tw.path), false);
  assert.equal(existsSync(`${wt}.tasks`), false, 'the folder of task worktrees goes when empty');
  assert.ok(existsSync(join(wt, 'node_modules', 'dep', 'index.js')), 'removing the link left what it pointed to');
  assert.doesNotMatch(git(wt, 'branch', '--list'), /loom-task/);
});

test('three tasks of a batch merge into the feature branch one commit each, in order; the first fast-forwards', async () => {
  const { wt } = featureRepo();
  const from = git(wt, 'rev-parse', 'HEAD').trim();
  const works = [];
  for (const [task, file] of [
    ['T1', 'src/a.js'],
    ['T2', 'src/b.js'],
    ['T3', 'src/c.js'],
  ])
    works.push({ task, ...(await taskWork(wt, task, from, { [file]: `${task}\n` })) });
  for (const w of works) {
    const merged = await mergeTaskCommit({ featureWorktree: wt, taskCommit: w.cp.commit, from, spec: SPEC, task: w.task });
    assert.equal(merged.kind, 'merged', JSON.stringify(merged));
  }
  const log = git(wt, 'log', '--format=%s', `${from}..HEAD`).trim().split('\n').reverse();
  assert.deepEqual(log, ['T1: work of T1', 'T2: work of T2', 'T3: work of T3']);
  assert.equal(git(wt, 'rev-list', '--merges', '--count', `${from}..HEAD`).trim(), '0');
  for (const f of ['src/a.js', 'src/b.js', 'src/c.js']) assert.ok(existsSync(join(wt, f)), f);
  assert.equal(git(wt, 'status', '--porcelain'), '');
  // Merged again (a crash after the merge): the commit is found, nothing is added.
  const again = await mergeTaskCommit({ featureWorktree: wt, taskCommit: works[1].cp.commit, from, spec: SPEC, task: 'T2' });
  assert.equal(again.kind, 'merged');
  assert.equal(git(wt, 'rev-list', '--count', `${from}..HEAD`).trim(), '3');
});

test('a conflict names the files and changes nothing; choice B puts the merge, markers and all, in the task worktree', async () => {
  const { wt } = featureRepo();
  const from = git(wt, 'rev-parse', 'HEAD').trim();
  const one = await taskWork(wt, 'T1', from, { 'src/list.js': 'line 1\nline 2 by T1\nline 3\n' });
  const two = await taskWork(wt, 'T2', from, { 'src/list.js': 'line 1\nline 2 by T2\nline 3\n', 'src/b.js': 'b\n' });
  assert.equal((await mergeTaskCommit({ featureWorktree: wt, taskCommit: one.cp.commit, from, spec: SPEC, task: 'T1' })).kind, 'merged');
  const head = git(wt, 'rev-parse', 'HEAD').trim();
  const conflict = await mergeTaskCommit({ featureWorktree: wt, taskCommit: two.cp.commit, from, spec: SPEC, task: 'T2' });
  assert.equal(conflict.kind, 'conflict');
  if (conflict.kind !== 'conflict') return;
  assert.deepEqual(conflict.files, ['src/list.js']);
  assert.equal(git(wt, 'rev-parse', 'HEAD').trim(), head, 'the feature branch did not move');
  assert.equal(git(wt, 'status', '--porcelain'), '');
  await putConflictInWorktree({ taskWorktree: two.tw.path, head: conflict.head, tree: conflict.tree });
  assert.equal(git(two.tw.path, 'rev-parse', 'HEAD').trim(), head);
  assert.match(readFileSync(join(two.tw.path, 'src/list.js'), 'utf8'), /<<<<<<<[\s\S]*line 2 by T1[\s\S]*line 2 by T2[\s\S]*>>>>>>>/);
  assert.equal(readFileSync(join(two.tw.path, 'src/b.js'), 'utf8'), 'b\n');
  // Fixed by hand, committed on the task branch, it merges as a fast-forward.
  write(two.tw.path, 'src/list.js', 'line 1\nline 2 by T1 and T2\nline 3\n');
  const fixed = (await commitCheckpoint({ worktree: two.tw.path, spec: SPEC, task: 'T2', title: 'work of T2', files: ['src/list.js', 'src/b.js'] }))!;
  const merged = await mergeTaskCommit({ featureWorktree: wt, taskCommit: fixed.commit, from: head, spec: SPEC, task: 'T2' });
  assert.equal(merged.kind, 'merged');
  assert.equal(readFileSync(join(wt, 'src/list.js'), 'utf8'), 'line 1\nline 2 by T1 and T2\nline 3\n');
});

test('a merge that would overwrite an uncommitted change in the feature worktree is blocked, naming the file', async () => {
  const { wt } = featureRepo();
  const from = git(wt, 'rev-parse', 'HEAD').trim();
  const one = await taskWork(wt, 'T1', from, { 'src/list.js': 'by T1\n' });
  write(wt, 'src/list.js', 'by hand\n');
  const blocked = await mergeTaskCommit({ featureWorktree: wt, taskCommit: one.cp.commit, from, spec: SPEC, task: 'T1' });
  assert.equal(blocked.kind, 'blocked');
  if (blocked.kind === 'blocked') assert.deepEqual(blocked.files, ['src/list.js']);
  assert.equal(git(wt, 'rev-parse', 'HEAD').trim(), from);
  assert.equal(readFileSync(join(wt, 'src/list.js'), 'utf8'), 'by hand\n');
});

test('after a crash the worktrees of tasks with nothing to resume are removed, leftover folders too; the others stay', async () => {
  const { wt } = featureRepo();
  const from = git(wt, 'rev-parse', 'HEAD').trim();
  await openTaskWorktree({ featureWorktree: wt, task: 'T1', from, resume: false });
  await openTaskWorktree({ featureWorktree: wt, task: 'T2', from, resume: false });
  // A folder a crash left before git registered it.
  write(taskWorktreePath(wt, 'T3'), 'half.js', 'x\n');
  assert.deepEqual((await listTaskWorktrees(wt)).map((w) => w.task).sort(), ['T1', 'T2', 'T3']);
  const removed = await cleanTaskWorktrees(wt, new Set(['T2']));
  assert.deepEqual(removed.sort(), ['T1', 'T3']);
  assert.deepEqual(
    (await listTaskWorktrees(wt)).map((w) => w.task),
    ['T2'],
  );
  assert.equal(existsSync(taskWorktreePath(wt, 'T1')), false);
  // The task's folder and branch, not a bare T1: the random temporary folder's name can hold one (loom-tw-AET15V).
  assert.match(git(wt, 'worktree', 'list'), /\.tasks\/T2 .*\[loom-task\/[^\]]*\/T2\]/);
  assert.doesNotMatch(git(wt, 'worktree', 'list'), /\.tasks\/T1\b|\/T1\]/);
});

// The tasks of a parallel batch open and remove their worktrees at the same moment. Git's own
// worktree commands are not safe side by side in one repository: `worktree add` reads every other
// worktree's files (a half-made one: "failed to read .git/worktrees/T3/commondir") and `worktree
// prune` takes a half-made one for a stale entry. Seen in CI at load 20: a batch blocked on it.
test('twelve tasks opening and removing their worktrees at once each get their own, and nothing is left', async () => {
  const { wt } = featureRepo();
  const from = git(wt, 'rev-parse', 'HEAD').trim();
  const tasks = Array.from({ length: 12 }, (_, i) => `T${i + 1}`);
  for (let round = 0; round < 4; round++) {
    const opened = await Promise.all(tasks.map((task) => openTaskWorktree({ featureWorktree: wt, task, from, resume: false })));
    for (const tw of opened) assert.equal(git(tw.path, 'rev-parse', 'HEAD').trim(), from, `${tw.task} in round ${round + 1}`);
    await Promise.all(tasks.map((task) => removeTaskWorktree({ featureWorktree: wt, task })));
    assert.equal(existsSync(`${wt}.tasks`), false, `round ${round + 1} left task worktrees`);
    assert.doesNotMatch(git(wt, 'worktree', 'list'), /\.tasks/);
  }
});
