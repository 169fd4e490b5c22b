import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createActor } from 'xstate';
import type { PipelineState } from '../../../src/core/files/pipelineState';
import { GUARDS } from '../../../src/core/pipeline/guards';
import { GuardVerdicts } from '../../../src/core/pipeline/guardVerdicts';
import { createPipelineMachine, type PipelineEmitted, type PipelineEvent, type StateStorePort } from '../../../src/core/pipeline/pipelineMachine';
import { buildPipelineDefinition } from '../../../src/core/pipeline/pipelineDefinition';
import { bundledPipelineSchema } from '../../../src/core/pipeline/pipelineSchema';
import { newPipelineState } from '../../../src/core/pipeline/stateRecord';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';

/**
 * Each rule of the actor is a named guard: swapped through `machine.provide`, the machine takes
 * or refuses the intent on that guard's word alone (every other guard holding), and writes only
 * when it takes it.
 */

const def = buildPipelineDefinition(bundledPipelineSchema(), undefined, 'feature');
const NOW = '2026-12-04T10:00:00.000Z';
const ALL = [...Object.keys(GUARDS), 'chosen', 'tasksCanRun', 'runConfirmed', 'worktreeIdle', 'stepsMayChange', 'stepsConfirmed', 'startable', 'taskStateValid', 'handoffValid', 'hasStateRecord'];

function actorAt(stage: string, failing: string, writeState = true) {
  const r = new TempRepo();
  if (writeState) r.write(`${SPEC}/pipeline.state.json`, state(stage));
  r.write(`${SPEC}/tasks/T1.md`, '---\nid: T1\nowns: [src/a.ts]\n---\n# T1\n');
  const facts = loadSpec(r.root, r.path(SPEC));
  const written: string[] = [];
  const store: StateStorePort = {
    writeState: (_f, s: PipelineState) => void written.push(`state:${s.current_stage}`),
    updateState: () => undefined,
    writeTaskState: (_f, t) => void written.push(`task:${t.task_id}`),
    writeHandoff: (_f, name, h) => (written.push(`handoff:${name}`), h),
    refreshHandoff: (_f, name, h) => (written.push(`handoff:${name}`), h),
    writeReport: (_f, files) => void written.push(...files.map((f) => `report:${f.file}`)),
    read: (f) => f,
  };
  const guards = Object.fromEntries(ALL.map((name) => [name, () => name !== failing]));
  const machine = createPipelineMachine(def).provide({ guards: guards as never, actors: { executingRun: createPipelineMachine(def) as never } });
  const context = { facts, verdicts: new GuardVerdicts(facts), state: facts.state, freshState: (s: string, now: string) => newPipelineState(facts.specDir, def.type, s, now), store };
  const actor = createActor(machine, { snapshot: machine.resolveState({ value: stage, context }), input: context }).start();
  const answers: PipelineEmitted[] = [];
  actor.on('answer', (e) => void answers.push(e));
  return { actor, answers, written, dispose: () => (actor.stop(), r.dispose()) };
}

const cases: { guard: string; stage: string; event: PipelineEvent; writes: string; noState?: boolean }[] = [
  { guard: 'chosen', stage: 'planning', event: { type: 'ADVANCE', confirm: true, now: NOW }, writes: 'state:analyze-artifacts' },
  { guard: 'threadsAnswered', stage: 'planning', event: { type: 'ADVANCE', confirm: true, now: NOW }, writes: 'state:analyze-artifacts' },
  { guard: 'handoffsFresh', stage: 'planning', event: { type: 'ADVANCE', confirm: true, now: NOW }, writes: 'state:analyze-artifacts' },
  { guard: 'stepsMayChange', stage: 'planning', event: { type: 'ADJUST_STEPS', current: [], remaining: [{ id: 'executing' }] as never, confirm: true, now: NOW }, writes: 'state:planning' },
  { guard: 'stepsConfirmed', stage: 'planning', event: { type: 'ADJUST_STEPS', current: [], remaining: [{ id: 'executing' }] as never, confirm: true, now: NOW }, writes: 'state:planning' },
  { guard: 'hasStateRecord', stage: 'planning', event: { type: 'ADJUST_STEPS', current: [], remaining: [{ id: 'executing' }] as never, confirm: true, now: NOW }, writes: 'state:planning' },
  { guard: 'taskStateValid', stage: 'executing', event: { type: 'SET_TASK_STATE', task: 'T1', status: 'done', now: NOW }, writes: 'task:T1' },
  { guard: 'handoffValid', stage: 'planning', event: { type: 'WRITE_HANDOFF', handoff: { stage: 'planning' }, now: NOW }, writes: 'handoff:planning' },
  { guard: 'startable', stage: 'brainstorming', event: { type: 'START_PIPELINE', steps: [{ id: 'executing' }], why: [], confirm: true, now: NOW }, writes: 'state:executing', noState: true },
];

for (const c of cases) {
  test(`${c.guard}: the intent is taken only when the guard holds`, () => {
    const held = actorAt(c.stage, '', !c.noState);
    held.actor.send(c.event);
    assert.deepEqual(held.written, [c.writes], `${c.guard} holding`);
    assert.equal(held.answers.at(-1)?.answer?.kind, 'changed');
    held.dispose();

    const refused = actorAt(c.stage, c.guard, !c.noState);
    refused.actor.send(c.event);
    assert.deepEqual(refused.written, [], `${c.guard} failing: nothing written`);
    assert.notEqual(refused.answers.at(-1)?.answer?.kind, 'changed', `${c.guard} failing`);
    refused.dispose();
  });
}

test('tasksCanRun and runConfirmed: Run Tasks starts only when both hold', () => {
  for (const failing of ['tasksCanRun', 'runConfirmed', '']) {
    const a = actorAt('executing', failing);
    a.actor.send({ type: 'RUN_TASKS', input: {} as never, confirm: true });
    const running = JSON.stringify(a.actor.getSnapshot().value) === JSON.stringify({ executing: 'running' });
    assert.equal(running, failing === '', failing || 'both hold');
    a.dispose();
  }
});

test('worktreeIdle: a second Create Worktree while one is being made is refused', () => {
  const a = actorAt('git-worktree', 'worktreeIdle');
  a.actor.send({ type: 'CREATE_WORKTREE', location: '', now: NOW, id: 'w1' });
  assert.deepEqual([a.answers.at(-1)?.id, a.answers.at(-1)?.answer?.kind, (a.answers.at(-1)?.answer as { code?: string })?.code], ['w1', 'refused', 'worktree-busy']);
  a.dispose();
});
