import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { taskMachine } from '../../../../src/core/executing/machine/taskMachine';
import { blocked, done, fail, HANG, machineHarness, needsContext, pass, reaches, settled, timeout, tracedActor, until, type MachineHarness } from '../helpers/machineHarness';

/** Each transition of one task's statechart, its dispatches, diffs and test runs scripted. */
const made: MachineHarness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));
const track = (h: MachineHarness) => (made.push(h), h);

function start(h: MachineHarness, task = 'T1', extra = {}) {
  const traced = tracedActor(taskMachine().provide({ actors: h.steps.taskActors() }), h.taskInput(task, extra));
  traced.actor.start();
  return traced;
}

const FIRST_PASS = [
  'pending',
  'starting',
  'takingBase',
  'resuming',
  'implementing',
  'inspecting',
  'reviewing',
  'closing',
  'checkingClosure',
  'testing',
  'checkingProblems',
  'closed',
  'finishing',
  'done',
];

test('pending → implementing → reviewing → closing → done: the task state is written at each step, the evidence recorded', async () => {
  const h = track(machineHarness());
  h.steps.script(h.steps.implementer, 'T1', done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', pass);
  const { actor, path } = start(h);
  const end = await settled(actor);
  assert.deepEqual(path, FIRST_PASS);
  assert.deepEqual(end.output, { task: 'T1', outcome: { kind: 'done' } });
  const t1 = h.json('task-states/T1.state.json');
  assert.equal(t1.status, 'done');
  assert.equal(t1.last_reviewer_result, 'PASS');
  assert.equal(t1.agent_session_id, 'impl-T1');
  assert.deepEqual(
    h.events.filter((e) => e.type === 'task-status').map((e) => e.type === 'task-status' && e.status),
    ['executing', 'reviewing', 'reviewing', 'done'],
  );
  assert.deepEqual(h.json('handoffs/T1.json').task_id ?? h.json('handoffs/T1.json').task, 'T1');
  const behaviors = h.json('traceability.json').requirements['REQ-001'].behaviors;
  assert.match(behaviors['REQ-001-B01'].evidence.join(), /^evidence\/T1-tests-.*\.log$/);
});

test('reviewing → fixing ⟲: a FAIL counts a retry and sends the fix items to the implementer in fix mode', async () => {
  const h = track(machineHarness());
  h.steps.script(h.steps.implementer, 'T1', done('T1'), done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', fail('months above 12 pass'), pass);
  const { actor, path } = start(h);
  await settled(actor);
  assert.deepEqual(path.slice(4, 9), ['implementing', 'inspecting', 'reviewing', 'retrying', 'fixing']);
  assert.deepEqual(
    h.steps.callsOf('implementer').map((c) => c.mode),
    ['first', 'fix'],
  );
  const t1 = h.json('task-states/T1.state.json');
  assert.equal(t1.status, 'done');
  assert.equal(t1.retry_count, 1);
});

test('a failing test run after PASS goes back to fixing; a deleted test file fails the attempt before the review', async () => {
  const h = track(machineHarness());
  h.steps.script(h.steps.implementer, 'T1', done('T1'), done('T1'), done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', pass, pass);
  h.steps.exitCodes = [1, 0];
  const owned = {
    text: '',
    files: [
      { path: 'src/due.js', change: 'modified' as const },
      { path: 'tests/due.test.js', change: 'modified' as const },
    ],
  };
  // Inspected and closed once, then the first fix deletes a test file.
  h.steps.diffs = [owned, owned, { text: '', files: [{ path: 'tests/old.test.js', change: 'deleted' as const }] }];
  const { actor, path } = start(h);
  const end = await settled(actor);
  assert.deepEqual(path.slice(8, 12), ['checkingClosure', 'testing', 'retrying', 'fixing']);
  assert.deepEqual(path.slice(12, 15), ['inspecting', 'retrying', 'fixing']);
  assert.equal(end.status, 'done');
  assert.equal(h.steps.callsOf('reviewer').length, 2, 'the attempt that deleted a test was not reviewed');
  assert.equal(h.json('task-states/T1.state.json').status, 'done');
  assert.equal(h.json('task-states/T1.state.json').retry_count, 2);
});

test('past max_retries → breaker: the report is sent, an unoffered choice is ignored, A ends the task waiting to be re-planned', async () => {
  const h = track(machineHarness({ maxRetries: 1 }));
  h.steps.script(h.steps.implementer, 'T1', done('T1'), done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', fail('still wrong'), fail('still wrong'));
  const { actor } = start(h);
  await reaches(actor, { breaker: 'choosing' } as never);
  const asked = h.events.find((e) => e.type === 'breaker-choice');
  assert.ok(asked && asked.type === 'breaker-choice');
  assert.deepEqual(asked.report.reason, { kind: 'retries', retryCount: 2, maxRetries: 1 });
  assert.equal(h.json('task-states/T1.state.json').status, 'failed');

  actor.send({ type: 'BREAKER_CHOICE', task: 'T2', choice: 'A' });
  actor.send({ type: 'BREAKER_CHOICE', task: 'T1', choice: 'D' as never });
  assert.ok(actor.getSnapshot().matches({ breaker: 'choosing' }), "another task's choice, or one not offered, changes nothing");
  actor.send({ type: 'BREAKER_CHOICE', task: 'T1', choice: 'A' });
  const end = await settled(actor);
  assert.equal(end.output?.outcome.kind, 'replan');
  const t1 = h.json('task-states/T1.state.json');
  assert.equal(t1.metadata.breaker.choice, 'A');
  assert.match(t1.blocker, /choice A/);
  assert.equal(h.json('pipeline.state.json').metadata.circuit_breaker.choice, 'A');
});

test('breaker, choice B: waits for MANUAL_FIX_DONE, then reviews again with a fresh retry budget', async () => {
  const h = track(machineHarness({ maxRetries: 0 }));
  h.steps.script(h.steps.implementer, 'T1', done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', fail('wrong'), pass);
  const { actor, path } = start(h);
  await reaches(actor, { breaker: 'choosing' } as never);
  actor.send({ type: 'BREAKER_CHOICE', task: 'T1', choice: 'B' });
  await reaches(actor, { breaker: 'manualFix' } as never);
  assert.ok(h.events.some((e) => e.type === 'manual-fix' && e.task === 'T1'));
  assert.match(h.json('task-states/T1.state.json').blocker, /waiting for your manual fix/);
  actor.send({ type: 'MANUAL_FIX_DONE', task: 'T1' });
  const end = await settled(actor);
  assert.equal(end.output?.outcome.kind, 'done');
  assert.ok(path.includes('restoring'), 'the task restores itself from the state the fix wrote');
  assert.equal(h.steps.callsOf('implementer').length, 1, 'the user fixed it; no implementer was dispatched again');
  assert.equal(h.json('task-states/T1.state.json').retry_count, 0);
});

test('breaker, choice C: the task and its dependents are skipped', async () => {
  const h = track(machineHarness({ maxRetries: 0 }));
  h.steps.script(h.steps.implementer, 'T1', done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', fail('wrong'));
  const { actor } = start(h);
  await reaches(actor, { breaker: 'choosing' } as never);
  actor.send({ type: 'BREAKER_CHOICE', task: 'T1', choice: 'C' });
  const end = await settled(actor);
  assert.equal(end.output?.outcome.kind, 'skipped');
  assert.match(h.json('task-states/T2.state.json').blocker, /depends on T1/);
});

test('timed-out: the breaker opens at once, without a retry', async () => {
  const h = track(machineHarness());
  h.steps.script(h.steps.implementer, 'T1', timeout(30));
  const { actor, path } = start(h);
  await reaches(actor, { breaker: 'choosing' } as never);
  assert.ok(path.includes('timedOut'));
  const t1 = h.json('task-states/T1.state.json');
  assert.equal(t1.status, 'failed');
  assert.equal(t1.retry_count, 0);
  assert.deepEqual(t1.metadata.breaker.reason, { kind: 'timeout', role: 'implementer', minutes: 30 });
  actor.stop();
});

test('needs-context: the question is reported, an answer re-dispatches without a retry, a dismissal ends the task', async () => {
  const h = track(machineHarness());
  h.steps.script(h.steps.implementer, 'T1', needsContext('which locale?'), done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', pass);
  const { actor } = start(h);
  await reaches(actor, 'needsContext');
  assert.ok(h.events.some((e) => e.type === 'needs-context' && e.question === 'which locale?'));
  assert.match(h.json('task-states/T1.state.json').blocker, /waiting for context: which locale/);
  actor.send({ type: 'CONTEXT_PROVIDED', task: 'T1', context: 'en-GB' });
  assert.equal((await settled(actor)).output?.outcome.kind, 'done');
  assert.equal(h.json('task-states/T1.state.json').retry_count, 0);

  const h2 = track(machineHarness());
  h2.steps.script(h2.steps.implementer, 'T1', needsContext('which locale?'));
  const second = start(h2);
  await reaches(second.actor, 'needsContext');
  second.actor.send({ type: 'CONTEXT_DECLINED', task: 'T1' });
  assert.deepEqual((await settled(second.actor)).output?.outcome, { kind: 'needs-context', question: 'which locale?' });
});

test('blocked: the reason is recorded and the task ends without a retry', async () => {
  const h = track(machineHarness());
  h.steps.script(h.steps.implementer, 'T1', blocked('needs a forbidden dependency'));
  const { actor } = start(h);
  assert.deepEqual((await settled(actor)).output?.outcome, { kind: 'blocked', reason: 'needs a forbidden dependency' });
  const t1 = h.json('task-states/T1.state.json');
  assert.equal(t1.status, 'blocked');
  assert.equal(t1.retry_count, 0);
});

test('crash mid-implementation, then restore: dispatched once more, in first-time mode, with the retry count kept; a done task never again', async () => {
  const h = track(machineHarness());
  h.steps.script(h.steps.implementer, 'T1', done('T1'), HANG);
  h.steps.script(h.steps.reviewer, 'T1', fail('wrong'));
  const crashed = start(h);
  await waitForCalls(h, 'implementer', 2);
  const inFlight = h.steps.callsOf('implementer')[1];
  assert.equal(inFlight.mode, 'fix');
  crashed.actor.stop(); // the window reloads
  assert.equal(inFlight.signal.aborted, true, 'stopping the actor cancels its dispatch');
  const before = h.json('task-states/T1.state.json');
  assert.equal(before.status, 'executing');
  assert.equal(before.retry_count, 1);

  h.steps.script(h.steps.implementer, 'T1', done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', pass);
  const restored = start(h);
  assert.equal((await settled(restored.actor)).output?.outcome.kind, 'done');
  const after = h.steps.callsOf('implementer').slice(2);
  assert.deepEqual(
    after.map((c) => c.mode),
    ['first'],
    're-dispatched once, in first-time mode',
  );
  assert.equal(h.json('task-states/T1.state.json').retry_count, 1);
  assert.ok(h.events.some((e) => e.type === 'task-started' && e.resumedAt === 'implement'));

  const again = start(h);
  assert.equal((await settled(again.actor)).output?.outcome.kind, 'done');
  assert.deepEqual(again.path, ['done']);
  assert.equal(h.steps.callsOf('implementer').length, 3, 'a done task is never dispatched again');
});

test('a task caught in review resumes at its review; a re-planned task (its file edited) starts afresh', async () => {
  const h = track(machineHarness({ maxRetries: 0 }));
  h.steps.script(h.steps.implementer, 'T1', done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', HANG);
  const crashed = start(h);
  await waitForCalls(h, 'reviewer', 1);
  crashed.actor.stop();
  h.steps.script(h.steps.reviewer, 'T1', fail('wrong'));
  const resumed = start(h);
  await reaches(resumed.actor, { breaker: 'choosing' } as never);
  assert.equal(h.steps.callsOf('implementer').length, 1, 'no implementer before the resumed review');
  resumed.actor.stop();

  h.repo.write('specs/2026-11-25+due-dates/tasks/T1.md', h.repo.read('specs/2026-11-25+due-dates/tasks/T1.md').replace('Add parseDueDate', 'Add a stricter parseDueDate'));
  h.steps.script(h.steps.implementer, 'T1', done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', pass);
  const replanned = start(h);
  assert.equal((await settled(replanned.actor)).output?.outcome.kind, 'done');
  assert.deepEqual(
    h.steps.callsOf('implementer').map((c) => c.mode),
    ['first', 'first'],
  );
  assert.equal(h.json('task-states/T1.state.json').retry_count, 0);
});

const waitForCalls = (h: MachineHarness, step: 'implementer' | 'reviewer', n: number) => until(() => h.steps.callsOf(step).length >= n, `the ${step} is called ${n} times`);
