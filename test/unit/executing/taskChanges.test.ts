import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SPEC, harness, implementerDone, implementerFixed, PASS, REPORT_PASS, type Harness } from './helpers/executingFixture';

const made: Harness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));

const WORKTREE = '.worktree/2026-11-25-due-dates';

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

const specOf = (h: Harness) => new LoomRepository(h.repo.root).load().get(SPEC)!;

/** T1 and T2 run in the feature worktree: each done task is one checkpoint commit. */
async function ranTwoTasks(): Promise<{ h: Harness; wt: string; mainHead: string }> {
  const h = harness({ worktree: WORKTREE });
  made.push(h);
  const wt = h.repo.path(WORKTREE);
  const mainHead = git(h.repo.root, 'rev-parse', 'HEAD');
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  return { h, wt, mainHead };
}

test('each done task is a checkpoint: T1: <title> with Loom-Spec and Loom-Task on the feature branch, recorded in its task state; the main checkout is untouched', async () => {
  const { h, wt, mainHead } = await ranTwoTasks();
  const log = git(wt, 'log', '--format=%s|%(trailers:key=Loom-Spec,valueonly,separator=)|%(trailers:key=Loom-Task,valueonly,separator=)', '-2');
  assert.deepEqual(log.split('\n'), [`T2: Show due dates|${SPEC}|T2`, `T1: Parse due dates|${SPEC}|T1`]);
  for (const id of ['T1', 'T2']) {
    const state = h.repo.json(`${SPEC}/task-states/${id}.state.json`);
    assert.equal(state.status, 'done');
    const [cp] = state.metadata.checkpoints;
    assert.equal(git(wt, 'log', '-1', '--format=%s', cp.commit), `${id}: ${id === 'T1' ? 'Parse due dates' : 'Show due dates'}`);
  }
  assert.deepEqual(h.repo.json(`${SPEC}/task-states/T1.state.json`).metadata.checkpoints[0].files.sort(), ['src/due.js', 'tests/due.test.js']);
  assert.equal(git(wt, 'status', '--porcelain'), '', 'everything the tasks wrote is committed');
  assert.equal(git(h.repo.root, 'rev-parse', 'HEAD'), mainHead, 'the main checkout has no new commit');
  // A done task carries the evidence of its own test run (done means done).
  assert.ok(h.tests.runs.length >= 2);
});

test('Reject File: the file goes back to its state before the task, the task goes back to the implementer in fix mode with the words, and its next checkpoint carries the fix', async () => {
  const { h, wt } = await ranTwoTasks();
  // The time recorded is the request's, as every effect records its request's (before: the clock when git was done).
  const asked = '2031-01-02T03:04:05.000Z';
  const answer = await request(specOf(h), { type: 'rejectFile', task: 'T1', file: 'src/due.js', words: 'use Date.parse, not a regular expression' }, { now: asked });
  assert.equal(answer.kind, 'changed');
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).updated_at, asked);
  assert.equal(existsSync(`${wt}/src/due.js`), false, 'T1 added the file: rejecting it removes it');
  assert.equal(existsSync(`${wt}/tests/due.test.js`), true, 'the files not rejected stay');
  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(t1.status, 'pending');
  assert.equal(t1.metadata.mode, 'fix');
  assert.match(t1.metadata.fix_items[0].problem, /src\/due\.js: use Date\.parse, not a regular expression/);
  assert.equal(t1.metadata.checkpoints.length, 1, 'its checkpoint is kept');

  // The next run sends T1 to the implementer in fix mode, with the user's words.
  h.models.script('implementer', ...implementerFixed('T1'));
  h.models.script('reviewer', PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await h.reload().run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  const prompts = h.models.promptsOf('implementer');
  assert.match(prompts[prompts.length - 1], /use Date\.parse, not a regular expression/);
  const after = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(after.status, 'done');
  assert.equal(after.metadata.checkpoints.length, 2);
  assert.equal(git(wt, 'log', '-1', '--format=%s'), 'T1: Parse due dates');
  assert.match(readFileSync(`${wt}/src/due.js`, 'utf8'), /\/\/ fixed/);
  assert.equal(git(wt, 'status', '--porcelain'), '');
});

test('Reject File of a file the task did not change is refused with the files it did change; nothing moves', async () => {
  const { h, wt } = await ranTwoTasks();
  const head = git(wt, 'rev-parse', 'HEAD');
  await assert.rejects(request(specOf(h), { type: 'rejectFile', task: 'T1', file: 'src/format.js' }), /src\/format\.js is not among T1's changes \(src\/due\.js, tests\/due\.test\.js\)/);
  assert.equal(git(wt, 'rev-parse', 'HEAD'), head);
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).status, 'done');
});

test('Rewind to Before T2 asks first with the tasks and files, then moves the feature branch back: T2 pending, its evidence and tests taken back, T1 kept, the main checkout untouched', async () => {
  const { h, wt, mainHead } = await ranTwoTasks();
  const t2 = h.repo.json(`${SPEC}/task-states/T2.state.json`).metadata.checkpoints[0];
  const asked = await request(specOf(h), { type: 'rewind', task: 'T2' });
  assert.equal(asked.kind, 'needs-confirmation');
  if (asked.kind !== 'needs-confirmation') return;
  assert.equal(asked.question.title, 'Rewind due-dates to before T2?');
  assert.match(asked.question.lines.join('\n'), /pending.*: T2$/m);
  assert.match(asked.question.lines.join('\n'), /src\/format\.js, tests\/format\.test\.js/);
  assert.equal(asked.agentMayReport, false);
  assert.equal(git(wt, 'log', '-1', '--format=%s'), 'T2: Show due dates', 'nothing moved before the word');

  const answer = await request(specOf(h), { type: 'rewind', task: 'T2' }, { confirm: asked.step });
  assert.equal(answer.kind, 'changed');
  assert.equal(git(wt, 'rev-parse', 'HEAD'), t2.parent);
  assert.equal(existsSync(`${wt}/src/format.js`), false);
  assert.equal(existsSync(`${wt}/src/due.js`), true);
  const state = h.repo.json(`${SPEC}/task-states/T2.state.json`);
  assert.equal(state.status, 'pending');
  assert.deepEqual(state.metadata, {});
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).status, 'done');
  const b = h.repo.json(`${SPEC}/traceability.json`).requirements['REQ-002'].behaviors['REQ-002-B01'];
  assert.deepEqual([b.tests, b.evidence, b.tasks], [[], [], ['T2']], "T2's tests and evidence are taken back; the plan's mapping stays");
  assert.notDeepEqual(h.repo.json(`${SPEC}/traceability.json`).requirements['REQ-001'].behaviors['REQ-001-B01'].evidence, []);
  assert.equal(git(h.repo.root, 'rev-parse', 'HEAD'), mainHead);
});

test('Rewind of a task without a checkpoint is refused with why', async () => {
  const h = harness({ worktree: WORKTREE });
  made.push(h);
  await assert.rejects(request(specOf(h), { type: 'rewind', task: 'T1' }), /T1 has no checkpoint yet/);
});

test('while tasks run, Rewind and Reject File are refused (tasks-running) and nothing moves', async () => {
  const { h, wt } = await ranTwoTasks();
  const head = git(wt, 'rev-parse', 'HEAD');
  // A rejected file, then a run whose implementer never answers: the spec's tasks are running.
  assert.equal((await request(specOf(h), { type: 'rejectFile', task: 'T2', file: 'src/format.js', words: 'shorter' })).kind, 'changed');
  h.models.script('implementer', { hang: true });
  const stop = new AbortController();
  // The run and the requests go to the one actor of the spec, as in a window.
  const live = specOf(h);
  const run = { worktree: wt, models: h.models, prompts: h.prompts, transcripts: h.transcripts, testRunner: h.tests, settings: { trusted: true, testCommand: 'npm test' }, signal: stop.signal };
  const running = request(live, { type: 'runTasks', run }, { confirm: true });
  await new Promise((r) => setTimeout(r, 500));
  const rewind = await request(live, { type: 'rewind', task: 'T1' }, { confirm: true });
  assert.equal(rewind.kind, 'refused');
  assert.equal(rewind.kind === 'refused' && rewind.code, 'tasks-running');
  const reject = await request(live, { type: 'rejectFile', task: 'T1', file: 'src/due.js' });
  assert.equal(reject.kind === 'refused' && reject.code, 'tasks-running');
  assert.equal(git(wt, 'rev-parse', 'HEAD'), head);
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).status, 'done');
  stop.abort();
  const ended = await running;
  assert.equal(ended.kind === 'changed' && ended.result.outcome, 'cancelled');
});
