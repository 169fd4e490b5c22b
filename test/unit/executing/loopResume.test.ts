import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SpecLockedError, TransitionRefusedError } from '../../../src/core/errors';
import { acquireSpecLease, claimTask } from '../../../src/core/executing/runLease';
import { TempRepo } from '../../helpers/tempRepo';
import type { ChatMessage } from '../../../src/core/executing/dispatch/chatModel';
import type { ScriptedReply } from './helpers/scriptedChatModel';
import { SPEC, harness, implementerDone, PASS, REPORT_PASS, type Harness } from './helpers/executingFixture';

const made: Harness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));
const track = (h: Harness) => (made.push(h), h);

test('resume after a crash: finished tasks are never dispatched again, a task in review resumes at its review', async () => {
  const h = track(harness());
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  // The reviewer of T2 has no scripted reply: the model throws something no rule expects.
  h.models.script('reviewer', PASS);
  const stopped = await h.loop.run(new AbortController().signal);
  // The task is blocked, named with its step, and running the tasks again is what clears it.
  assert.equal(stopped.outcome, 'blocked');
  assert.equal(stopped.stoppedAt, 'T2');
  assert.equal(stopped.resumeWith, 'run-tasks');
  assert.match(stopped.message, /^T2 stopped at its review step: .*no reply left.*Run Tasks resumes it from that step/);
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).status, 'done');
  const t2 = h.repo.json(`${SPEC}/task-states/T2.state.json`);
  assert.equal(t2.status, 'blocked');
  assert.equal(t2.metadata.step, 'review');

  // A hard crash also leaves the lock behind, held by a process that is gone.
  writeFileSync(join(h.specDir, '.loom-run.lock'), '999999999\n2026-11-25T10:00:00.000Z\nabc');
  const before = h.models.requestsOf('implementer').length;
  h.models.script('reviewer', PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const resumed = await h.reload().run(new AbortController().signal);
  assert.equal(resumed.outcome, 'completed', resumed.message);
  assert.equal(h.models.requestsOf('implementer').length, before, 'no implementer was dispatched again');
  assert.ok(h.events.some((e) => e.type === 'task-started' && e.task === 'T2' && e.resumedAt === 'review'));
  // The resumed review still diffs from the task's real start.
  assert.match(h.models.promptsOf('reviewer').pop()!, /src\/format.js/);
});

test('one spec is never driven twice at once: a second run in this window, or a live lock of another process, is refused', async () => {
  const h = track(harness());
  const controller = new AbortController();
  h.models.script('implementer', { hang: true });
  const first = h.loop.run(controller.signal);
  await new Promise((r) => setTimeout(r, 50));
  // Another reader of the spec in this window: the tasks are running, and nothing starts.
  await assert.rejects(
    h.reload().run(new AbortController().signal),
    (e: unknown) => e instanceof TransitionRefusedError && e.details.codes?.[0] === 'tasks-running' && /are running \(pid \d+\)/.test(e.message),
  );
  controller.abort();
  assert.equal((await first).outcome, 'cancelled');

  // process.ppid is alive and is not us: its lock blocks.
  writeFileSync(join(h.specDir, '.loom-run.lock'), `${process.ppid}\n2026-11-25T10:00:00.000Z\ntoken`);
  await assert.rejects(
    h.reload().run(new AbortController().signal),
    (e: unknown) => e instanceof TransitionRefusedError && e.details.codes?.[0] === 'spec-locked' && e.message.includes(`pid ${process.ppid}`),
  );
  // Held by another process for a run of its own (its token says so): the tasks are running there.
  writeFileSync(join(h.specDir, '.loom-run.lock'), `${process.ppid}\n2026-11-25T10:00:00.000Z\nrun-0123`);
  await assert.rejects(
    h.reload().run(new AbortController().signal),
    (e: unknown) => e instanceof TransitionRefusedError && e.details.codes?.[0] === 'tasks-running' && e.message.includes(`pid ${process.ppid}`),
  );
});

test('one task is never dispatched twice at once within a process', () => {
  const release = claimTask('/specs/x', 'T1');
  assert.throws(() => claimTask('/specs/x', 'T1'), SpecLockedError);
  const other = claimTask('/specs/x', 'T2');
  release();
  claimTask('/specs/x', 'T1')();
  other();
});

test('refuses to start before the spec is at executing (its plan approved on the way), and names the reason', async () => {
  const h = track(harness({ stage: 'approved', history: [{ stage: 'planning', status: 'passed' }] }));
  await assert.rejects(h.loop.run(new AbortController().signal), (e: unknown) => {
    assert.ok(e instanceof TransitionRefusedError);
    assert.deepEqual(e.details.codes, ['not-at-task-stage']);
    assert.match(e.message, /is at approved: tasks run at executing/);
    return true;
  });
  assert.equal(h.models.requests.length, 0);
});

/** Picks each task's next reply from its own queue, by the task named in the conversation's first prompt. */
function perTask(queues: Record<string, ScriptedReply[]>): (messages: readonly ChatMessage[]) => ScriptedReply {
  return (messages) => {
    const first = messages.find((m) => m.role === 'user')!.content;
    const id = Object.keys(queues).find((t) => first.includes(`task ${t} (`))!;
    const next = queues[id].shift();
    if (!next) throw new Error(`no reply left for ${id}`);
    return next;
  };
}

test('subagent mode with 3 tasks: fresh sessions, and a parallel batch dispatched at once when the setting allows it', async () => {
  const h = track(harness({ threeTasks: true }, { parallel: true }));
  let t3Started!: () => void;
  const t3 = new Promise<void>((r) => (t3Started = r));
  h.models.onRequest = (role, messages) => {
    if (role === 'implementer' && messages.some((m) => m.role === 'user' && m.content.includes('task T3 ('))) t3Started();
  };
  // T1's first reply waits until T3 has been dispatched too: a serial loop would never get there.
  const [t1Tools, t1Final] = implementerDone('T1');
  const impl = perTask({ T1: [{ until: t3, ms: 5000, then: t1Tools }, t1Final], T2: implementerDone('T2'), T3: implementerDone('T3') });
  h.models.script('implementer', ...Array(6).fill(impl));
  h.models.script('reviewer', PASS, PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  assert.equal(result.mode, 'subagent');
  assert.deepEqual(
    result.triggers.find((t) => t.kind === 'task-count'),
    { kind: 'task-count', count: 3 },
  );
  const order = h.models.requests.map((r) => `${r.role}:${(r.messages[0] as { content: string }).content.match(/task (T\d)/)?.[1]}`);
  assert.ok(order.indexOf('implementer:T2') > Math.max(order.lastIndexOf('reviewer:T1'), order.lastIndexOf('reviewer:T3')), `T2 waits for its batch: ${order.join(' ')}`);
  for (const r of h.models.requestsOf('implementer')) assert.equal(r.messages.filter((m) => m.role === 'user').length, 1, 'a fresh subagent per dispatch');
});

test('serial by default: the same batch runs one task after the other', async () => {
  const h = track(harness({ threeTasks: true }));
  const impl = perTask({ T1: implementerDone('T1'), T2: implementerDone('T2'), T3: implementerDone('T3') });
  h.models.script('implementer', ...Array(6).fill(impl));
  h.models.script('reviewer', PASS, PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  const order = h.models.requests.map((r) => `${r.role}:${(r.messages[0] as { content: string }).content.match(/task (T\d)/)?.[1]}`);
  assert.ok(order.indexOf('implementer:T3') > order.indexOf('reviewer:T1'));
});

test('loom.executing.mode direct: three tasks (a subagent trigger) still run in one direct session, and the state says so', async () => {
  const h = track(harness({ threeTasks: true }, { mode: 'direct' }));
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'), ...implementerDone('T3'));
  h.models.script('reviewer', PASS, PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  assert.equal(result.mode, 'direct');
  assert.deepEqual(result.triggers, [{ kind: 'task-count', count: 3 }]);
  const chosen = h.repo.json(`${SPEC}/pipeline.state.json`).metadata.executing_mode;
  assert.equal(chosen.mode, 'direct');
  // One session: later implementer requests carry the earlier conversation.
  const implementer = h.models.requestsOf('implementer');
  assert.ok(implementer[implementer.length - 1].messages.filter((m) => m.role === 'user').length > 1, 'the session carries on');
});

test('a stale upstream handoff is refreshed and flagged before a downstream task, which then gets at least a standard model', async () => {
  const h = track(harness());
  h.models.script('implementer', ...implementerDone('T1'), { text: 'BLOCKED: waiting for design' });
  h.models.script('reviewer', PASS);
  assert.equal((await h.loop.run(new AbortController().signal)).outcome, 'blocked');
  assert.deepEqual(
    h.models.selections.filter((s) => s.role === 'implementer').map((s) => s.tier),
    ['fast', 'standard'],
  );
  const oldPrint = h.repo.json(`${SPEC}/handoffs/T1.json`).artifact_fingerprints['src/due.js'];

  h.repo.write('src/due.js', '// changed by hand after T1\n');
  h.repo.write(`${SPEC}/tasks/T2.md`, h.repo.read(`${SPEC}/tasks/T2.md`).replace('complexity: medium', 'complexity: low'));
  h.models.script('implementer', ...implementerDone('T2'));
  h.models.script('reviewer', PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await h.reload().run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  const t2Prompt = h.models.promptsOf('implementer').filter((p) => p.includes('task T2 ('))[1];
  assert.match(
    t2Prompt,
    /- T1 \(done\): T1 implemented\.\n {2}artifacts: src\/due.js, tests\/due.test.js\n {2}exports: parseDueDate \(src\/due.js\)[^\n]*\n {2}note: changed after that task finished, check the source: src\/due.js/,
  );
  const refreshed = h.repo.json(`${SPEC}/handoffs/T1.json`);
  assert.notEqual(refreshed.artifact_fingerprints['src/due.js'], oldPrint);
  assert.equal(refreshed.artifact_fingerprints['src/due.js'], h.repo.sha256('src/due.js'));
  assert.equal(h.models.selections.filter((s) => s.role === 'implementer').pop()!.tier, 'standard', 'a low task with a stale handoff');
  assert.equal(h.models.selections.find((s) => s.role === 'reviewer')!.tier, 'strongest');
});

test('a task whose review passed but whose evidence could not be recorded resumes after the review, not before it', async () => {
  const h = track(harness({}, { trusted: false }));
  h.models.script('implementer', ...implementerDone('T1'));
  h.models.script('reviewer', PASS);
  assert.equal((await h.loop.run(new AbortController().signal)).outcome, 'blocked');
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).last_reviewer_result, 'PASS');

  h.models.script('implementer', ...implementerDone('T2'));
  h.models.script('reviewer', PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const resumed = await h.reload({ trusted: true }).run(new AbortController().signal);
  assert.equal(resumed.outcome, 'completed', resumed.message);
  assert.equal(h.models.requestsOf('reviewer').length, 2, 'T1 was not reviewed a second time');
  assert.ok(h.events.some((e) => e.type === 'task-started' && e.task === 'T1' && e.resumedAt === 'close'));
});

const WORKTREE = '.worktree/2026-11-25-due-dates';

const gitIn = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

// A wait, not a timing: generous, as the shared CI machines can be slow; on failure it says what it saw.
async function until(what: string, check: () => boolean, ms = 120_000, dbg?: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`waited in vain for ${what}${dbg ? ': ' + dbg() : ''}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The issue's stranded batch (#44): T1 and T3 in one parallel batch, each in a worktree of its
 * own; T1 has its checkpoint on its own branch and waits for its merge while T3's implementer
 * works, and the run ends there. Its state may be one written before the closure was recorded
 * (taskClosure.ts): the resumed run derives it again, and never reads it from memory.
 */
test('a task caught waiting for its merge resumes from disk: merged once, its handoff and ledger complete, no worktree or branch left', async () => {
  const h = track(harness({ threeTasks: true, worktree: WORKTREE }, { parallel: true }));
  const feature = h.repo.path(WORKTREE);
  const controller = new AbortController();
  h.models.script('implementer', ...Array(3).fill(perTask({ T1: implementerDone('T1'), T3: [{ hang: true }] })));
  h.models.script('reviewer', PASS);
  const first = h.loop.run(controller.signal);
  const t1 = () => (existsSync(h.repo.path(`${SPEC}/task-states/T1.state.json`)) ? h.repo.json(`${SPEC}/task-states/T1.state.json`) : undefined);
  await until(
    'T1 waiting for its merge',
    () => t1()?.metadata?.step === 'merge',
    undefined,
    () => `${JSON.stringify(t1())} after ${JSON.stringify(h.events).slice(0, 3000)}`,
  );
  controller.abort();
  assert.equal((await first).outcome, 'cancelled');

  const waiting = t1();
  assert.deepEqual(waiting.metadata.artifacts, ['src/due.js', 'tests/due.test.js'], 'the closure is recorded before the task waits for its merge');
  assert.ok(waiting.metadata.behavior_tests['REQ-001-B01'].length > 0);
  assert.match(waiting.metadata.evidence, /^evidence\/T1-tests-/);
  // As a state written before the closure was recorded.
  delete waiting.metadata.artifacts;
  delete waiting.metadata.behavior_tests;
  delete waiting.metadata.evidence;
  h.repo.write(`${SPEC}/task-states/T1.state.json`, waiting);

  h.models.script('implementer', ...Array(4).fill(perTask({ T2: implementerDone('T2'), T3: implementerDone('T3') })));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const t1Dispatches = h.models.promptsOf('implementer').filter((p) => p.includes('task T1 (')).length;
  const resumed = await h.reload().run(new AbortController().signal);
  assert.equal(resumed.outcome, 'completed', resumed.message);
  assert.equal(h.models.promptsOf('implementer').filter((p) => p.includes('task T1 (')).length, t1Dispatches, 'T1 was not dispatched again');

  const handoff = h.repo.json(`${SPEC}/handoffs/T1.json`);
  assert.deepEqual([...handoff.artifacts].sort(), ['src/due.js', 'tests/due.test.js']);
  const ledger = h.repo.json(`${SPEC}/traceability.json`).requirements['REQ-001'].behaviors['REQ-001-B01'];
  assert.deepEqual(ledger.tests, [`${WORKTREE}/tests/due.test.js#REQ-001-B01 parses a valid date`]);
  assert.ok(
    ledger.evidence.some((e: string) => /^evidence\/T1-tests-/.test(e)),
    JSON.stringify(ledger.evidence),
  );

  // One commit per task on the feature branch; no task worktree or branch left.
  const subjects = gitIn(feature, 'log', '--format=%s', 'HEAD').trim().split('\n');
  for (const task of ['T1', 'T2', 'T3']) assert.equal(subjects.filter((s) => s.startsWith(`${task}:`)).length, 1, `${task}: ${subjects.join(' | ')}`);
  assert.equal(gitIn(feature, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 2);
  assert.equal(gitIn(feature, 'branch', '--list', 'loom-task/*').trim(), '');
  assert.equal(existsSync(join(h.specDir, '.loom-run.lock')), false);
});

test("a task's claim goes with the run's lease, however the run ended", () => {
  const repo = new TempRepo('loom-lease-');
  try {
    const spec = { dir: repo.path('specs/x'), specDir: 'specs/x' };
    repo.write('specs/x/spec.md', '# x\n');
    const release = acquireSpecLease(spec, '2026-11-25T10:00:00.000Z');
    // A claim whose actor failed and so never gave it back.
    claimTask(spec.dir, 'T1');
    assert.throws(() => claimTask(spec.dir, 'T1'), /T1 is already being dispatched/);
    release();
    const again = acquireSpecLease(spec, '2026-11-25T10:00:01.000Z');
    claimTask(spec.dir, 'T1')();
    again();
  } finally {
    repo.dispose();
  }
});
