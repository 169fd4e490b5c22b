import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { addTaskThread, readTaskReview, taskReviewPath, updateTaskReview } from '../../../src/core/executing/review/taskReviewFile';
import { clearChangedMarks, fileDigest, markReviewed, reviewedStates } from '../../../src/core/executing/review/taskReviewMarks';
import { hunksFor, parseZeroContextDiff, threadFixItems } from '../../../src/core/executing/review/taskReviewRound';
import { renderFixInstructions } from '../../../src/core/executing/dispatch/fixInstructions';
import { taskReviewSummary } from '../../../src/core/executing/review/taskReviewSummary';
import { buildDashboardModel } from '../../../src/core/views/dashboardModel';
import { SPEC, harness, implementerDone, implementerFixed, PASS, REPORT_PASS, type Harness } from './helpers/executingFixture';

const made: Harness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));

const WORKTREE = '.worktree/2026-11-25-due-dates';
const NOW = '2031-01-02T03:04:05.000Z';

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

const specOf = (h: Harness) => new LoomRepository(h.repo.root).load().get(SPEC)!;
const where = (h: Harness) => ({ dir: h.repo.path(SPEC), specDir: SPEC });

async function ranT1(): Promise<{ h: Harness; wt: string }> {
  const h = harness({ worktree: WORKTREE });
  made.push(h);
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  return { h, wt: h.repo.path(WORKTREE) };
}

test('the thread store: task-reviews/TN.json written atomically under the run lock, read back; a corrupt file is named and never overwritten', () => {
  const h = harness();
  made.push(h);
  const spec = where(h);
  assert.deepEqual(readTaskReview(spec, 'T1'), { version: 1, task: 'T1', threads: [], reviewed: [] });
  const th = updateTaskReview(spec, 'T1', (r) => addTaskThread(r, { file: 'src/due.js', line: 3, endLine: 4, quote: 'a\nb' }, { author: 'ana', body: 'why a regex?' }, NOW));
  const back = readTaskReview(spec, 'T1');
  assert.equal(back.threads.length, 1);
  assert.deepEqual({ ...back.threads[0], comments: back.threads[0].comments.map((c) => c.body) }, { ...th, comments: ['why a regex?'] });
  assert.equal(back.threads[0].status, 'open');
  const file = join(spec.dir, taskReviewPath('T1'));
  writeFileSync(file, '{ "version": 1, ');
  assert.throws(() => readTaskReview(spec, 'T1'), /specs\/2026-11-25\+due-dates\/task-reviews\/T1\.json is not valid JSON/);
  assert.throws(() => updateTaskReview(spec, 'T1', () => undefined), /task-reviews\/T1\.json is not valid JSON/);
  assert.equal(readFileSync(file, 'utf8'), '{ "version": 1, ', 'a file that does not parse is left as it is');
});

test('the fix prompt section carries each thread with its file, its lines and the comment', () => {
  const review = { version: 1 as const, task: 'T1', threads: [], reviewed: [] };
  addTaskThread(review, { file: 'src/due.js', line: 1, endLine: 1, quote: 'exports.parseDueDate = …' }, { author: 'ana', body: 'use Date.parse' }, NOW);
  addTaskThread(review, { file: 'tests/due.test.js', line: 2, endLine: 3, quote: "test('x')\ntest('y')" }, { author: 'ana', body: 'test the 31st of February' }, NOW);
  const section = renderFixInstructions(threadFixItems(review.threads, 'en'), 'en');
  assert.match(section, /## Fix instructions/);
  assert.match(section, /Problem: the person commented on src\/due\.js:1 of your change: use Date\.parse/);
  assert.match(section, /File: src\/due\.js\n- Location: line 1/);
  assert.match(section, /File: tests\/due\.test\.js\n- Location: lines 2-3/);
  assert.match(section, /test the 31st of February/);
  assert.match(section, /they read:\n {4}test\('x'\)\n {4}test\('y'\)/, 'the lines as they read when the comment was made');
  assert.match(renderFixInstructions(threadFixItems(review.threads, 'zh'), 'zh'), /第 2-3 行/);
});

test("the reply keeps the hunks on the thread's lines, or the whole file's when none touches them", () => {
  const hunks = parseZeroContextDiff('diff --git a/x b/x\n@@ -2 +2 @@\n-old\n+new\n@@ -10,0 +11,2 @@\n+a\n+b\n');
  assert.deepEqual(hunksFor(hunks, 2, 2), ['@@ -2 +2 @@', '-old', '+new']);
  assert.deepEqual(hunksFor(hunks, 10, 10), ['@@ -10,0 +11,2 @@', '+a', '+b']);
  assert.equal(hunksFor(hunks, 5, 6).length, 6);
});

test('Mark as Reviewed holds while the file has the digest it was marked with, and clears when the file changes again', () => {
  const root = join(process.env.TMPDIR ?? '/tmp', `loom-marks-${process.pid}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'src'), { recursive: true });
  after(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(join(root, 'src/a.js'), 'one\n');
  const review = { version: 1 as const, task: 'T1', threads: [], reviewed: [] };
  const digest = (f: string) => fileDigest(root, f);
  markReviewed(review, { file: 'src/a.js', sha256: digest('src/a.js'), at: NOW, by: 'ana' });
  assert.deepEqual(
    reviewedStates(review, ['src/a.js', 'src/b.js'], digest).map((s) => [s.file, s.reviewed]),
    [
      ['src/a.js', true],
      ['src/b.js', false],
    ],
  );
  writeFileSync(join(root, 'src/a.js'), 'two\n');
  const [a] = reviewedStates(review, ['src/a.js'], digest);
  assert.equal(a.reviewed, false);
  assert.equal(!a.reviewed && a.changedSince?.by, 'ana', 'it says it changed since it was reviewed');
  assert.deepEqual(clearChangedMarks(review, digest), ['src/a.js']);
  assert.deepEqual(review.reviewed, []);
  rmSync(join(root, 'src/a.js'));
  markReviewed(review, { file: 'src/a.js', sha256: digest('src/a.js'), at: NOW, by: 'ana' });
  assert.equal(reviewedStates(review, ['src/a.js'], digest)[0].reviewed, true, 'a deleted file can be marked too');
});

test('Send to the Implementer: the open threads go to T1 as one fix round whose prompt carries them; when it is done Loom replies on each with what changed and resolves it', async () => {
  const { h, wt } = await ranT1();
  const spec = where(h);
  const before = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  updateTaskReview(spec, 'T1', (r) => {
    addTaskThread(r, { file: 'src/due.js', line: 1, endLine: 1, quote: readFileSync(`${wt}/src/due.js`, 'utf8').split('\n')[0] }, { author: 'ana', body: 'say why a date is invalid' }, NOW);
    const done = addTaskThread(r, { file: 'tests/due.test.js', line: 2, endLine: 2, quote: '' }, { author: 'ana', body: 'fine' }, NOW);
    done.status = 'resolved';
  });
  const answer = await request(specOf(h), { type: 'sendThreads', task: 'T1' }, { now: NOW });
  assert.equal(answer.kind, 'changed');
  assert.equal(answer.kind === 'changed' && answer.intent === 'sendThreads' && answer.threads, 1, 'only the open thread goes');
  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.deepEqual([t1.status, t1.metadata.mode, t1.retry_count], ['pending', 'fix', before.retry_count], 'a fix round, its retry count kept (the limit and breaker of Run Tasks)');
  assert.equal(t1.metadata.fix_items.length, 1);
  assert.equal(readTaskReview(spec, 'T1').threads[0].sent?.checkpoints, 1);

  h.models.script('implementer', ...implementerFixed('T1'));
  h.models.script('reviewer', PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await h.reload().run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  const prompts = h.models.promptsOf('implementer');
  const fix = prompts[prompts.length - 1];
  assert.match(fix, /src\/due\.js:1 of your change: say why a date is invalid/);
  assert.match(fix, /Location: line 1/);
  assert.doesNotMatch(fix, /: fine/, 'a resolved thread is not sent');

  const after = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(after.status, 'done');
  assert.equal(after.metadata.checkpoints.length, 2);
  const [sent, resolved] = readTaskReview(spec, 'T1').threads;
  assert.equal(sent.status, 'resolved');
  assert.equal(sent.comments.length, 2);
  const reply = sent.comments[1];
  assert.equal(reply.author, 'Loom');
  assert.match(reply.body, new RegExp(`Fixed in ${after.metadata.checkpoints[1].commit.slice(0, 8)} by the fix round of T1`));
  assert.match(reply.body, /Implementer: Fixed\./);
  assert.match(reply.body, /```diff\n@@ -1,0 \+2 @@\n\+\/\/ fixed\n```/);
  assert.equal(resolved.comments.length, 1, 'a thread not sent gets no reply');
  assert.equal(git(wt, 'status', '--porcelain'), '');
});

test('Send to the Implementer says why where git cannot: no open thread, a rewound task, a feature whose worktree is gone', async () => {
  const { h, wt } = await ranT1();
  const spec = where(h);
  await assert.rejects(request(specOf(h), { type: 'sendThreads', task: 'T2' }), /T2 has no open comment thread on its change to send/);
  updateTaskReview(spec, 'T2', (r) => addTaskThread(r, { file: 'src/format.js', line: 1, endLine: 1, quote: '' }, { author: 'ana', body: 'shorter' }, NOW));
  const asked = await request(specOf(h), { type: 'rewind', task: 'T2' });
  assert.equal(asked.kind, 'needs-confirmation');
  if (asked.kind !== 'needs-confirmation') return;
  assert.equal((await request(specOf(h), { type: 'rewind', task: 'T2' }, { confirm: asked.step })).kind, 'changed');
  await assert.rejects(
    request(specOf(h), { type: 'sendThreads', task: 'T2' }),
    /T2 has no checkpoint any more \(it was rewound or never ran\): its open thread stays in specs\/2026-11-25\+due-dates\/task-reviews\/T2\.json/,
  );
  updateTaskReview(spec, 'T1', (r) => addTaskThread(r, { file: 'src/due.js', line: 1, endLine: 1, quote: '' }, { author: 'ana', body: 'x' }, NOW));
  git(h.repo.root, 'worktree', 'remove', '--force', wt);
  await assert.rejects(request(specOf(h), { type: 'sendThreads', task: 'T1' }), /T1 cannot get a fix round: the feature worktree of .* is gone \(the feature was merged or its worktree removed\)/);
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).status, 'done', 'nothing moved');
});

test("the dashboard's task row says what of T1's change was reviewed and clears a mark once its file changes again; it survives a reload of the spec", async () => {
  const { h, wt } = await ranT1();
  const spec = where(h);
  updateTaskReview(spec, 'T1', (r) => markReviewed(r, { file: 'src/due.js', sha256: fileDigest(wt, 'src/due.js'), at: NOW, by: 'ana' }));
  const t1 = () => buildDashboardModel(specOf(h)).tasks.find((t) => t.id === 'T1')!;
  assert.deepEqual(t1().review, { files: 2, reviewed: 1, changed: [], openThreads: 0 });
  assert.deepEqual(taskReviewSummary(specOf(h).snapshot, 'T2'), undefined, 'a task without a review file says nothing');
  writeFileSync(`${wt}/src/due.js`, `${readFileSync(`${wt}/src/due.js`, 'utf8')}// by hand\n`);
  assert.deepEqual(t1().review, { files: 2, reviewed: 0, changed: ['src/due.js'], openThreads: 0 });
  writeFileSync(join(spec.dir, taskReviewPath('T1')), '[');
  assert.match(t1().review?.error ?? '', /task-reviews\/T1\.json is not valid JSON/);
});
