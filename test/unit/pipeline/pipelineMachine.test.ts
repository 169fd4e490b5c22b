import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWorkflow } from '../../../src/core/files/workflow';
import { createActor, setup } from 'xstate';
import type { PipelineState } from '../../../src/core/files/pipelineState';
import { GUARDS } from '../../../src/core/pipeline/guards';
import { GuardVerdicts } from '../../../src/core/pipeline/guardVerdicts';
import { createPipelineMachine, EXECUTING_RUN, stageOfValue, UNREADABLE, type PipelineEmitted, type PipelineEvent, type StateStorePort } from '../../../src/core/pipeline/pipelineMachine';
import { buildPipelineDefinition } from '../../../src/core/pipeline/pipelineDefinition';
import { bundledPipelineSchema } from '../../../src/core/pipeline/pipelineSchema';
import { newPipelineState } from '../../../src/core/pipeline/stateRecord';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import type { SpecSnapshot } from '../../../src/core/specdir/specSnapshot';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';

const def = buildPipelineDefinition(bundledPipelineSchema(), undefined, 'feature');
const NOW = '2026-11-29T12:00:00.000Z';

/** A store that keeps what the machine writes, in memory. */
function memoryStore(): StateStorePort & { written: PipelineState[] } {
  const written: PipelineState[] = [];
  return {
    written,
    writeState: (_facts, s) => void written.push(s),
    updateState: (facts, change) => {
      const s = change(facts);
      if (s) written.push(s);
      return s;
    },
    writeTaskState: () => undefined,
    writeHandoff: (_facts, _name, h) => h,
    refreshHandoff: (_facts, _name, h) => h,
    writeReport: () => undefined,
    read: (facts) => facts,
  };
}

/** The answers the actor emits, newest last: what every surface renders. */
function heard(actor: { on: (type: 'answer', fn: (e: PipelineEmitted) => void) => unknown }) {
  const all: PipelineEmitted[] = [];
  actor.on('answer', (e) => void all.push(e));
  return { last: () => all.at(-1)?.answer, error: () => all.at(-1)?.error };
}

function input(snapshot: SpecSnapshot, store: StateStorePort) {
  return {
    facts: snapshot,
    verdicts: new GuardVerdicts(snapshot),
    state: snapshot.state,
    freshState: (stage: string, now: string) => newPipelineState(snapshot.specDir, def.type, stage, now),
    store,
  };
}

test('one state per stage plus failed (and one for an unreadable state), generated from the definition', () => {
  const machine = createPipelineMachine(def);
  assert.deepEqual(Object.keys(machine.config.states!), [...def.stages.map((s) => s.id), 'failed', UNREADABLE]);
});

test('a restored actor transitions only when its named guards hold, and sees file changes', () => {
  const r = new TempRepo();
  r.write(`${SPEC}/pipeline.state.json`, state('brainstorming'));
  r.write(`${SPEC}/spec.md`, '# s');
  const machine = createPipelineMachine(def);
  const snapshot = loadSpec(r.root, r.path(SPEC));
  const store = memoryStore();
  const context = input(snapshot, store);
  const actor = createActor(machine, { snapshot: machine.resolveState({ value: 'brainstorming', context }), input: context }).start();
  const answers = heard(actor);
  assert.equal(actor.getSnapshot().value, 'brainstorming');

  actor.send({ type: 'ADVANCE', confirm: true, now: NOW });
  assert.equal(actor.getSnapshot().value, 'brainstorming', 'requirements.json is missing');
  const refused = answers.last();
  assert.equal(refused?.kind, 'refused');
  assert.ok(refused?.kind === 'refused' && refused.reasons.includes('requirements.json does not exist'), JSON.stringify(refused));

  r.write(`${SPEC}/requirements.json`, { requirements: [] });
  const fresh = loadSpec(r.root, r.path(SPEC));
  actor.send({ type: 'FILES_CHANGED', facts: fresh, verdicts: new GuardVerdicts(fresh), state: fresh.state });
  actor.send({ type: 'ADVANCE', now: NOW });
  assert.equal(actor.getSnapshot().value, 'brainstorming', 'an interactive stage is never left without confirmation');

  actor.send({ type: 'ADVANCE', to: 'planning', confirm: true, now: NOW });
  assert.equal(actor.getSnapshot().value, 'brainstorming', 'planning is not reachable from brainstorming');

  actor.send({ type: 'ADVANCE', confirm: true, now: NOW });
  assert.equal(actor.getSnapshot().value, 'detail-expansion');
  assert.equal(actor.getSnapshot().context.state!.current_stage, 'detail-expansion');
  const changed = answers.last();
  assert.deepEqual(changed?.kind === 'changed' && { from: changed.from, to: changed.to, intent: changed.intent }, { from: 'brainstorming', to: 'detail-expansion', intent: 'advance' });
  assert.equal(store.written.length, 1, 'the change is written through the store, once');

  actor.send({ type: 'FAIL', reason: 'gave up', now: NOW });
  assert.equal(actor.getSnapshot().value, 'failed');
  assert.equal(actor.getSnapshot().context.state!.failure_reason, 'gave up');
  actor.send({ type: 'RECOVER', to: 'brainstorming', now: NOW });
  assert.equal(actor.getSnapshot().value, 'brainstorming');
  // Loom records recovery_from: 'failed' and keeps failure_reason.
  assert.equal(actor.getSnapshot().context.state!.stage_history.at(-1)!.recovery_from, 'failed');
  assert.equal(actor.getSnapshot().context.state!.failure_reason, 'gave up');
  assert.equal(store.written.length, 3);
  actor.stop();
  r.dispose();
});

/** Every named guard holds (or fails) whatever the files say: the machine's own routing alone. */
function withGuards(result: boolean) {
  const guards = Object.fromEntries(Object.keys(GUARDS).map((name) => [name, () => result]));
  return createPipelineMachine(def).provide({ guards });
}

function actorAt(stage: string, machine = withGuards(true)) {
  const r = new TempRepo();
  r.write(`${SPEC}/pipeline.state.json`, state(stage));
  const snapshot = loadSpec(r.root, r.path(SPEC));
  const store = memoryStore();
  const context = input(snapshot, store);
  const actor = createActor(machine, { snapshot: machine.resolveState({ value: stage, context }), input: context }).start();
  return { actor, store, answers: heard(actor), dispose: () => (actor.stop(), r.dispose()) };
}

test('every transition of the definition is taken by its event when its guards hold, and written once', () => {
  for (const t of def.transitions) {
    const { actor, store, dispose } = actorAt(t.from);
    const event: PipelineEvent =
      t.kind === 'fail' ? { type: 'FAIL', reason: 'because', now: NOW } : t.kind === 'recover' ? { type: 'RECOVER', to: t.to, now: NOW } : { type: 'ADVANCE', to: t.to, confirm: true, now: NOW };
    actor.send(event);
    assert.equal(stageOfValue(actor.getSnapshot().value), t.to, `${t.from} → ${t.to} (${t.kind})`);
    assert.equal(store.written.length, 1, `${t.from} → ${t.to} writes once`);
    assert.equal(store.written[0].current_stage, t.to);
    const last = store.written[0].stage_history.at(-1)!;
    assert.equal(last.stage, t.from);
    assert.equal(last.status, t.kind === 'fail' ? 'failed' : t.kind === 'retry' ? 'retry' : 'passed', `${t.from} → ${t.to}`);
    dispose();
  }
});

test('no transition is taken when its guards do not hold; the machine says why and writes nothing', () => {
  // A transition without preconditions (failed → the first stage) always holds.
  for (const t of def.transitions.filter((x) => x.kind !== 'fail' && x.guards.length > 0)) {
    const { actor, store, answers, dispose } = actorAt(t.from, withGuards(false));
    actor.send(t.kind === 'recover' ? { type: 'RECOVER', to: t.to, now: NOW } : { type: 'ADVANCE', to: t.to, confirm: true, now: NOW });
    assert.equal(stageOfValue(actor.getSnapshot().value), t.from, `${t.from} ↛ ${t.to}`);
    assert.equal(answers.last()?.kind, 'refused');
    assert.equal(store.written.length, 0);
    dispose();
  }
});

test("Approve is Advance with the user's word, only at a stage with a gate", () => {
  // The sample's workflow declares human-approval gates; the bare schema has none.
  const { workflow } = parseWorkflow('workflow.yaml', readFileSync(join(__dirname, '../../../sample/.loom/workflow.yaml'), 'utf8'));
  const gatedDef = buildPipelineDefinition(bundledPipelineSchema(), workflow, 'feature');
  const gated = gatedDef.stages.find((s) => s.humanApproval)!;
  const plain = def.stages.find((s) => !s.confirmation && !s.terminal)!;
  {
    const guards = Object.fromEntries(Object.keys(GUARDS).map((name) => [name, () => true]));
    const { actor, store, dispose } = actorAt(gated.id, createPipelineMachine(gatedDef).provide({ guards }));
    actor.send({ type: 'APPROVE', confirm: true, now: NOW });
    assert.notEqual(actor.getSnapshot().value, gated.id);
    assert.equal(store.written[0].stage_history.at(-1)!.approval, 'user_confirmed');
    assert.ok(store.written[0].stage_history.at(-1)!.approval_fingerprints, 'a human-approval gate records fingerprints');
    dispose();
  }
  {
    const { actor, store, answers, dispose } = actorAt(plain.id);
    actor.send({ type: 'APPROVE', confirm: true, now: NOW });
    assert.equal(actor.getSnapshot().value, plain.id);
    const o = answers.last();
    assert.ok(o?.kind === 'refused' && /no gate to approve/.test(o.message), JSON.stringify(o));
    assert.equal(store.written.length, 0);
    dispose();
  }
});

test('Advance at the last stage completes the pipeline once; a failure needs a reason; the last stage cannot fail', () => {
  const last = def.stages.at(-1)!;
  const { actor, store, dispose } = actorAt(last.id);
  actor.send({ type: 'FAIL', reason: 'x', now: NOW });
  assert.equal(actor.getSnapshot().value, last.id);
  actor.send({ type: 'ADVANCE', confirm: true, now: NOW });
  assert.equal(actor.getSnapshot().value, last.id);
  assert.equal(store.written.length, 1);
  assert.equal(store.written[0].metadata.completed, true);
  assert.equal(store.written[0].stage_history.at(-1)!.terminal, true);
  dispose();

  const first = actorAt(def.initial);
  first.actor.send({ type: 'FAIL', reason: '  ', now: NOW });
  const o = first.answers.last();
  assert.ok(o?.kind === 'refused' && o.message === 'a failure needs a reason');
  assert.equal(first.store.written.length, 0);
  first.dispose();
});

test("FILES_CHANGED moves the machine to the stage on disk (loom's CLI advanced it), or to the unreadable state", () => {
  const r = new TempRepo();
  r.write(`${SPEC}/pipeline.state.json`, state('planning'));
  const machine = createPipelineMachine(def);
  const snapshot = loadSpec(r.root, r.path(SPEC));
  const context = input(snapshot, memoryStore());
  const actor = createActor(machine, { snapshot: machine.resolveState({ value: 'planning', context }), input: context }).start();
  const answers = heard(actor);
  const changed = () => {
    const s = loadSpec(r.root, r.path(SPEC));
    actor.send({ type: 'FILES_CHANGED', facts: s, verdicts: new GuardVerdicts(s), state: s.state });
  };
  r.write(`${SPEC}/pipeline.state.json`, state('approved'));
  changed();
  assert.equal(actor.getSnapshot().value, 'approved');
  r.write(`${SPEC}/pipeline.state.json`, '{ "current_stage": ');
  changed();
  assert.equal(actor.getSnapshot().value, UNREADABLE);
  actor.send({ type: 'ADVANCE', confirm: true, now: NOW });
  const o = answers.last();
  assert.ok(o?.kind === 'refused' && /is corrupt, so the current stage is unknown/.test(o.message), JSON.stringify(o));
  actor.stop();
  r.dispose();
});

test('a write the store refuses is an error outcome, not a crash of the actor', () => {
  const r = new TempRepo();
  r.write(`${SPEC}/pipeline.state.json`, state('approved'));
  const machine = withGuards(true);
  const snapshot = loadSpec(r.root, r.path(SPEC));
  const context = input(snapshot, {
    ...memoryStore(),
    writeState: () => {
      throw new Error('locked by pid 42');
    },
  });
  const actor = createActor(machine, { snapshot: machine.resolveState({ value: 'approved', context }), input: context }).start();
  const answers = heard(actor);
  actor.send({ type: 'ADVANCE', confirm: true, now: NOW });
  assert.equal((answers.error() as Error | undefined)?.message, 'locked by pid 42');
  assert.equal(actor.getSnapshot().status, 'active');
  actor.stop();
  r.dispose();
});

/** A stand-in for the executing statechart: waits for an answer or STOP, then ends with a result. */
const fakeRun = setup({ types: { events: {} as { type: 'STOP' } | { type: 'BREAKER_CHOICE'; task: string; choice: 'A' | 'B' | 'C' } } }).createMachine({
  initial: 'waiting',
  states: {
    waiting: { on: { STOP: 'cancelled', BREAKER_CHOICE: 'answered' } },
    cancelled: { type: 'final', output: { outcome: 'cancelled' } },
    answered: { type: 'final', output: { outcome: 'completed' } },
  },
  output: ({ event }) => (event as { output: unknown }).output as never,
});

test('the stage that runs tasks invokes the executing statechart as its child: answers and Stop go to it, Advance waits, leaving the stage stops it', () => {
  // Run Tasks' own guard holds too: the stage's preconditions are another test's.
  const guards = Object.fromEntries([...Object.keys(GUARDS), 'tasksCanRun'].map((name) => [name, () => true]));
  const machine = createPipelineMachine(def).provide({ guards, actors: { executingRun: fakeRun as never } });
  const { actor, store, answers, dispose } = actorAt('executing', machine);
  const run = () => actor.send({ type: 'RUN_TASKS', input: {} as never, confirm: true });

  run();
  assert.deepEqual(actor.getSnapshot().value, { executing: 'running' });
  assert.ok(actor.getSnapshot().children[EXECUTING_RUN], 'the run is a child actor of the pipeline actor');
  actor.send({ type: 'ADVANCE', confirm: true, now: NOW });
  assert.deepEqual(actor.getSnapshot().value, { executing: 'running' }, 'no advancing while the tasks run');
  const o = answers.last();
  assert.ok(o?.kind === 'refused' && o.codes.includes('tasks-running'));
  assert.equal(store.written.length, 0);

  actor.send({ type: 'TASK_ANSWER', answer: { type: 'BREAKER_CHOICE', task: 'T1', choice: 'A' } });
  assert.deepEqual(actor.getSnapshot().value, { executing: 'idle' });
  assert.deepEqual(actor.getSnapshot().context.lastRun, { result: { outcome: 'completed' } });

  run();
  actor.send({ type: 'STOP_TASKS' });
  assert.deepEqual(actor.getSnapshot().context.lastRun, { result: { outcome: 'cancelled' } });

  run();
  const child = actor.getSnapshot().children[EXECUTING_RUN]!;
  actor.send({ type: 'FAIL', reason: 'abandoned', now: NOW });
  assert.equal(actor.getSnapshot().value, 'failed');
  assert.equal(child.getSnapshot().status, 'stopped', 'leaving the stage stops the run');
  dispose();
});
