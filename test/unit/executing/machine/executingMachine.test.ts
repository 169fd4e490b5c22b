import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ModelUnavailableError } from '../../../../src/core/executing/dispatch/chatModel';
import { request } from '../../../../src/core/port/request';
import { LoomRepository } from '../../../../src/core/repository/loomRepository';
import { SPEC } from '../helpers/executingFixture';
import { FakePrompts } from '../helpers/fakes';
import { done, fail, HANG, machineHarness, pass, reaches, settled, timeout, tracedActor, until, type MachineHarness } from '../helpers/machineHarness';

/** The executing statechart as a whole: batches and the test reporter as children, STOP, and the questions as events. */
const made: MachineHarness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));
const track = (h: MachineHarness) => (made.push(h), h);

function start(h: MachineHarness) {
  const traced = tracedActor(h.steps.machine(), h.input);
  traced.actor.start();
  return traced;
}

test('running → batches → test reporter → handoff: completed, with the mode recorded and handoffs/executing.json written', async () => {
  const h = track(machineHarness());
  h.steps.script(h.steps.implementer, 'T1', done('T1'));
  h.steps.script(h.steps.implementer, 'T2', done('T2'));
  h.steps.script(h.steps.reviewer, 'T1', pass);
  h.steps.script(h.steps.reviewer, 'T2', pass);
  h.steps.reporter = [pass];
  const { actor, path } = start(h);
  const end = await settled(actor);
  assert.equal(end.status, 'done');
  assert.equal(end.output?.outcome, 'completed', end.output?.message);
  assert.deepEqual(end.output?.finished, ['T1', 'T2']);
  // Direct mode: one serial batch of both tasks.
  assert.deepEqual(path, ['running.checkingBudget', 'running.choosingBatch', 'running.batch', 'running.choosingBatch', 'running.reporting', 'running.handingOff', 'completed']);
  assert.equal(h.json('pipeline.state.json').metadata.executing_mode.mode, 'direct');
  assert.equal(h.json('handoffs/executing.json').status, 'done');
  assert.deepEqual(h.json('handoffs/executing.json').finished_tasks, ['T1', 'T2']);
  assert.deepEqual(
    h.steps.calls.map((c) => `${c.step}:${c.task}`),
    ['implementer:T1', 'reviewer:T1', 'tests:T1', 'implementer:T2', 'reviewer:T2', 'tests:T2', 'reporter:test-reporter'],
  );
});

test('STOP aborts the dispatch in flight and ends the run cancelled; the task stays resumable', async () => {
  const h = track(machineHarness());
  h.steps.script(h.steps.implementer, 'T1', HANG);
  const { actor } = start(h);
  await reaches(actor, { running: 'batch' } as never);
  await until(() => h.steps.calls.length > 0, 'the implementer is dispatched');
  const inFlight = h.steps.callsOf('implementer')[0];
  actor.send({ type: 'STOP' });
  const end = await settled(actor);
  assert.equal(end.output?.outcome, 'cancelled');
  assert.equal(inFlight.signal.aborted, true);
  assert.equal(h.json('task-states/T1.state.json').status, 'executing');
});

test("the user's answers are forwarded to the task that asked: a breaker choice reaches T1 through the batch", async () => {
  const h = track(machineHarness({ maxRetries: 0 }));
  h.steps.script(h.steps.implementer, 'T1', done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', fail('wrong'));
  const { actor } = start(h);
  await until(() => h.events.some((e) => e.type === 'breaker-choice'), 'a breaker-choice event');
  actor.send({ type: 'BREAKER_CHOICE', task: 'T1', choice: 'A' });
  const end = await settled(actor);
  assert.equal(end.output?.outcome, 'replan');
  assert.equal(end.output?.stoppedAt, 'T1');
  assert.equal(end.output?.breaker?.task, 'T1');
  assert.equal(h.steps.callsOf('implementer', 'T2').length, 0, 'no later task starts');
});

test('a parallel batch runs its tasks at once and settles their held breakers in task order', async () => {
  const h = track(machineHarness({ threeTasks: true, maxRetries: 0 }, { parallel: true }));
  h.steps.script(h.steps.implementer, 'T1', done('T1'));
  h.steps.script(h.steps.implementer, 'T3', timeout(30));
  h.steps.script(h.steps.reviewer, 'T1', fail('wrong'));
  const { actor } = start(h);
  await until(() => h.events.some((e) => e.type === 'breaker-choice'), 'a breaker-choice event');
  const asked = () => h.events.filter((e) => e.type === 'breaker-choice').map((e) => e.type === 'breaker-choice' && e.task);
  assert.deepEqual(asked(), ['T1'], 'one breaker at a time, the first task first');
  assert.equal(h.events.filter((e) => e.type === 'breaker').length, 2, 'both breakers opened before any was settled');
  actor.send({ type: 'BREAKER_CHOICE', task: 'T1', choice: 'C' });
  await until(() => asked().length === 2, 'the second breaker is asked');
  assert.deepEqual(asked(), ['T1', 'T3']);
  actor.send({ type: 'BREAKER_CHOICE', task: 'T3', choice: 'A' });
  const end = await settled(actor);
  assert.equal(end.output?.outcome, 'replan');
  assert.equal(end.output?.stoppedAt, 'T3');
  assert.deepEqual(end.output?.skipped, ['T1', 'T2']);
});

test('test reporter: FAIL → fixing → reporting → PASS; its breaker takes A or B', async () => {
  const h = track(machineHarness({ maxRetries: 1 }));
  h.steps.script(h.steps.implementer, 'T1', done('T1'));
  h.steps.script(h.steps.implementer, 'T2', done('T2'));
  h.steps.script(h.steps.reviewer, 'T1', pass);
  h.steps.script(h.steps.reviewer, 'T2', pass);
  h.steps.reporter = [fail('no integration test'), fail('still none'), pass];
  h.steps.reporterFixes = [done('test-reporter')];
  const { actor } = start(h);
  await until(() => h.events.some((e) => e.type === 'breaker-choice'), 'a breaker-choice event');
  const asked = h.events.find((e) => e.type === 'breaker-choice');
  assert.ok(asked && asked.type === 'breaker-choice' && asked.task === 'test-reporter');
  assert.deepEqual(asked.report.choices, ['A', 'B']);
  assert.deepEqual(
    h.steps.calls.filter((c) => c.task === 'test-reporter').map((c) => c.step),
    ['reporter', 'reporter-fix', 'reporter'],
  );
  actor.send({ type: 'BREAKER_CHOICE', task: 'test-reporter', choice: 'C' });
  actor.send({ type: 'BREAKER_CHOICE', task: 'test-reporter', choice: 'B' });
  await until(() => h.events.some((e) => e.type === 'manual-fix'), 'a manual-fix event');
  actor.send({ type: 'MANUAL_FIX_DONE', task: 'test-reporter' });
  const end = await settled(actor);
  assert.equal(end.output?.outcome, 'completed', end.output?.message);
  assert.equal(h.json('pipeline.state.json').metadata.test_reporter.last_verdict, 'PASS');
});

test("a permanent model error ends the run model-unavailable; a used-up budget stops it before any dispatch; a refusal is the machine's error", async () => {
  const h = track(machineHarness());
  h.steps.script(h.steps.implementer, 'T1', new ModelUnavailableError('no language model is available for the implementer (standard)'));
  const end = await settled(start(h).actor);
  assert.equal(end.output?.outcome, 'model-unavailable');
  assert.match(end.output!.message, /^no language model is available for the implementer \(standard\); the run resumes/);

  const h2 = track(machineHarness({}, { tokenBudget: 10 }));
  h2.repo.write('specs/2026-11-25+due-dates/pipeline.state.json', { ...h2.json('pipeline.state.json'), metadata: { token_usage: { total: { input: 50, output: 50 } } } });
  const stopped = await settled(start(h2).actor);
  assert.equal(stopped.output?.outcome, 'budget-exceeded');
  assert.equal(h2.steps.calls.length, 0);

  // Before anything runs, the spec's actor checks the stage (its guard tasksCanRun): the run never starts.
  const h3 = track(machineHarness({ stage: 'approved' }));
  const spec = new LoomRepository(h3.repo.root).load().get(SPEC)!;
  const refused = await request(spec, { type: 'runTasks', run: { ...h3.input, prompts: new FakePrompts(), signal: new AbortController().signal } }, { confirm: true });
  assert.ok(refused.kind === 'refused' && refused.code === 'not-at-task-stage', JSON.stringify(refused));
  assert.equal(h3.steps.calls.length, 0);
});
