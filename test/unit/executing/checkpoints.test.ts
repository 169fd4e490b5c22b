import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { changesOf, checkpointMessage, commitCheckpoint, historySince, restoreFile, rewindBranch, trailersOf } from '../../../src/core/git/checkpoints';
import { GitError } from '../../../src/core/git/gitCommand';
import { featureRepo as featureRepoIn, git, write } from './helpers/gitRepos';

const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A repository with one commit on main and the feature branch in its own worktree. */
const featureRepo = () => featureRepoIn(made, { 'src/app.js': 'module.exports = {};\n', 'README.md': '# app\n' }, 'app-feature', 'loom-cp-');

const SPEC = 'specs/2026-11-25+due-dates';

test('a checkpoint is one commit on the feature branch, T3: <title> with Loom-Spec and Loom-Task, and git status stays clean', async () => {
  const { root, wt } = featureRepo();
  const mainHead = git(root, 'rev-parse', 'HEAD').trim();
  const mainIndex = readFileSync(join(root, '.git', 'index'));
  write(wt, 'src/due.js', 'exports.parse = () => null;\n');
  write(wt, 'src/app.js', 'module.exports = { due: true };\n');
  const cp = await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T3', title: 'Parse due dates', files: ['src/due.js', 'src/app.js'] });
  assert.ok(cp);
  assert.equal(cp.branch, 'feature/2026-11-25-due-dates');
  assert.equal(git(wt, 'rev-parse', 'HEAD').trim(), cp.commit);
  assert.equal(git(wt, 'rev-parse', 'HEAD^').trim(), cp.parent);
  const message = git(wt, 'show', '-s', '--format=%B', 'HEAD');
  assert.equal(message.split('\n')[0], 'T3: Parse due dates');
  assert.equal(trailersOf(message).get('Loom-Spec'), SPEC);
  assert.equal(trailersOf(message).get('Loom-Task'), 'T3');
  assert.deepEqual(
    cp.files.sort((a, b) => a.path.localeCompare(b.path)),
    [
      { path: 'src/app.js', change: 'modified' },
      { path: 'src/due.js', change: 'added' },
    ],
  );
  assert.equal(git(wt, 'status', '--porcelain'), '', 'the worktree index follows the commit');
  // The main checkout: its branch, its index, its files are as they were.
  assert.equal(git(root, 'rev-parse', 'HEAD').trim(), mainHead);
  assert.deepEqual(readFileSync(join(root, '.git', 'index')), mainIndex);
  assert.equal(existsSync(join(root, 'src/due.js')), false);
  assert.equal(git(wt, 'stash', 'list'), '');
});

test('only the files named are committed; what the user staged or changed elsewhere stays as it was', async () => {
  const { wt } = featureRepo();
  write(wt, 'README.md', '# app, edited by the user\n');
  git(wt, 'add', 'README.md');
  write(wt, 'notes.txt', 'mine\n');
  write(wt, 'src/due.js', 'x\n');
  const cp = await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'Due', files: ['src/due.js'] });
  assert.deepEqual(
    cp!.files.map((f) => f.path),
    ['src/due.js'],
  );
  const status = git(wt, 'status', '--porcelain').split('\n').filter(Boolean).sort();
  assert.deepEqual(status, ['?? notes.txt', 'M  README.md'], 'the staged README and the untracked note are untouched');
});

test('no change, no commit; made again after a crash it finds its own commit', async () => {
  const { wt } = featureRepo();
  assert.equal(await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'Nothing', files: ['src/app.js'] }), undefined);
  write(wt, 'src/due.js', 'x\n');
  const first = await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'Due', files: ['src/due.js'] });
  const again = await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'Due', files: ['src/due.js'] });
  assert.equal(again?.commit, first?.commit);
  assert.equal(git(wt, 'rev-list', '--count', 'HEAD').trim(), '2');
});

test("a deleted file is removed in the checkpoint; a fix replaces the task's own commit while it is the head", async () => {
  const { wt } = featureRepo();
  rmSync(join(wt, 'README.md'));
  write(wt, 'src/due.js', 'v1\n');
  const first = (await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'Due', files: ['README.md', 'src/due.js'] }))!;
  assert.deepEqual(
    first.files.find((f) => f.path === 'README.md'),
    { path: 'README.md', change: 'deleted' },
  );
  write(wt, 'src/due.js', 'v2\n');
  const fixed = (await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'Due', files: ['README.md', 'src/due.js'], replaces: first }))!;
  assert.equal(fixed.parent, first.parent, 'one commit per task');
  assert.equal(git(wt, 'rev-list', '--count', 'HEAD').trim(), '2');
  assert.equal(git(wt, 'show', 'HEAD:src/due.js'), 'v2\n');
  // With another commit on top, the fix goes on top.
  write(wt, 'src/other.js', 'o\n');
  const other = (await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T2', title: 'Other', files: ['src/other.js'] }))!;
  write(wt, 'src/due.js', 'v3\n');
  const onTop = (await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'Due', files: ['src/due.js'], replaces: fixed }))!;
  assert.equal(onTop.parent, other.commit);
  assert.deepEqual(
    (await historySince(wt, first.parent)).map((c) => c.task),
    ['T1', 'T2', 'T1'],
  );
});

test('rewind moves the feature branch back and its files follow; uncommitted work elsewhere stays; the main checkout is untouched', async () => {
  const { root, wt } = featureRepo();
  const mainHead = git(root, 'rev-parse', 'HEAD').trim();
  write(wt, 'src/a.js', 'a\n');
  const t1 = (await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'A', files: ['src/a.js'] }))!;
  write(wt, 'src/b.js', 'b\n');
  await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T2', title: 'B', files: ['src/b.js'] });
  write(wt, 'notes.txt', 'mine\n');
  await rewindBranch(wt, t1.commit);
  assert.equal(git(wt, 'rev-parse', 'HEAD').trim(), t1.commit);
  assert.equal(existsSync(join(wt, 'src/b.js')), false);
  assert.equal(readFileSync(join(wt, 'notes.txt'), 'utf8'), 'mine\n');
  assert.equal(git(root, 'rev-parse', 'HEAD').trim(), mainHead);
  await assert.rejects(
    rewindBranch(
      wt,
      git(root, 'rev-parse', 'HEAD')
        .trim()
        .replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
    ),
    GitError,
  );
});

test('rewind refuses when an uncommitted change would be lost, and nothing moves', async () => {
  const { wt } = featureRepo();
  const start = git(wt, 'rev-parse', 'HEAD').trim();
  write(wt, 'src/a.js', 'a\n');
  await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'A', files: ['src/a.js'] });
  write(wt, 'src/a.js', 'edited by hand\n');
  const head = git(wt, 'rev-parse', 'HEAD').trim();
  await assert.rejects(rewindBranch(wt, start), /src\/a\.js/);
  assert.equal(git(wt, 'rev-parse', 'HEAD').trim(), head);
  assert.equal(readFileSync(join(wt, 'src/a.js'), 'utf8'), 'edited by hand\n');
});

test('a rejected file goes back to its state before the task: restored, or removed when the task added it', async () => {
  const { wt } = featureRepo();
  write(wt, 'src/app.js', 'changed\n');
  write(wt, 'src/new.js', 'new\n');
  const cp = (await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'A', files: ['src/app.js', 'src/new.js'] }))!;
  await restoreFile(wt, cp.parent, 'src/app.js');
  await restoreFile(wt, cp.parent, 'src/new.js');
  assert.equal(readFileSync(join(wt, 'src/app.js'), 'utf8'), 'module.exports = {};\n');
  assert.equal(existsSync(join(wt, 'src/new.js')), false);
  assert.deepEqual((await changesOf(wt, cp.commit)).map((f) => f.path).sort(), ['src/app.js', 'src/new.js']);
});

test('a repository without an identity still gets its checkpoint, by Loom', async () => {
  const { wt } = featureRepo();
  const home = mkdtempSync(join(tmpdir(), 'loom-home-'));
  made.push(home);
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM, EMAIL: process.env.EMAIL };
  try {
    Object.assign(process.env, { HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1' });
    delete process.env.EMAIL;
    write(wt, 'src/a.js', 'a\n');
    const cp = await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'A', files: ['src/a.js'] });
    assert.ok(cp);
    assert.match(git(wt, 'show', '-s', '--format=%an <%ae>', 'HEAD'), /<.+@.+>/);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

test('the message: subject and trailers; a partial result says so', () => {
  assert.equal(checkpointMessage(SPEC, 'T3', '  Show   due dates '), `T3: Show due dates\n\nLoom-Spec: ${SPEC}\nLoom-Task: T3\n`);
  assert.match(checkpointMessage(SPEC, 'T3', 'X', true), /Loom-Result: partial\n$/);
  assert.equal(trailersOf('T3: x').size, 0);
});

test('made again after a crash between its commit and the index update, it finds its commit and git status is clean', async () => {
  const { wt } = featureRepo();
  write(wt, 'src/due.js', 'x\n');
  const first = (await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'Due', files: ['src/due.js'] }))!;
  // As the index was when the process died: the branch moved, the index did not.
  git(wt, 'reset', '-q', first.parent, '--', 'src/due.js');
  assert.notEqual(git(wt, 'status', '--porcelain'), '');
  const again = await commitCheckpoint({ worktree: wt, spec: SPEC, task: 'T1', title: 'Due', files: ['src/due.js'] });
  assert.equal(again?.commit, first.commit);
  assert.equal(git(wt, 'status', '--porcelain'), '');
});
