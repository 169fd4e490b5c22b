import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createActor } from 'xstate';
import { createPipelineMachine } from '../../../src/core/pipeline/pipelineMachine';
import { buildPipelineDefinition } from '../../../src/core/pipeline/pipelineDefinition';
import { bundledPipelineSchema } from '../../../src/core/pipeline/pipelineSchema';
import { loadSpec } from '../../../src/core/spec/loadSpec';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';

const def = buildPipelineDefinition(bundledPipelineSchema(), undefined, 'feature');
const NOW = '2026-11-29T12:00:00.000Z';

test('one state per stage plus failed, generated from the definition', () => {
  const machine = createPipelineMachine(def);
  assert.deepEqual(Object.keys(machine.config.states!), [...def.stages.map((s) => s.id), 'failed']);
});

test('a restored actor transitions only when its named guards hold, and sees file changes', () => {
  const r = new TempRepo();
  r.write(`${SPEC}/pipeline.state.json`, state('brainstorming'));
  r.write(`${SPEC}/spec.md`, '# s');
  const machine = createPipelineMachine(def);
  const snapshot = loadSpec(r.root, r.path(SPEC));
  const context = { snapshot, state: snapshot.state! };
  const actor = createActor(machine, { snapshot: machine.resolveState({ value: 'brainstorming', context }), input: context }).start();
  assert.equal(actor.getSnapshot().value, 'brainstorming');

  actor.send({ type: 'ADVANCE', confirm: true, now: NOW });
  assert.equal(actor.getSnapshot().value, 'brainstorming', 'requirements.json is missing');

  r.write(`${SPEC}/requirements.json`, { requirements: [] });
  actor.send({ type: 'SNAPSHOT_CHANGED', snapshot: loadSpec(r.root, r.path(SPEC)) });
  actor.send({ type: 'ADVANCE', now: NOW });
  assert.equal(actor.getSnapshot().value, 'brainstorming', 'an interactive stage is never left without confirmation');

  actor.send({ type: 'ADVANCE', to: 'planning', confirm: true, now: NOW });
  assert.equal(actor.getSnapshot().value, 'brainstorming', 'planning is not reachable from brainstorming');

  actor.send({ type: 'ADVANCE', confirm: true, now: NOW });
  assert.equal(actor.getSnapshot().value, 'detail-expansion');
  assert.equal(actor.getSnapshot().context.state.current_stage, 'detail-expansion');
  assert.deepEqual(actor.getSnapshot().context.lastChange, { from: 'brainstorming', to: 'detail-expansion', kind: 'forward' });

  actor.send({ type: 'FAIL', reason: 'gave up', now: NOW });
  assert.equal(actor.getSnapshot().value, 'failed');
  assert.equal(actor.getSnapshot().context.state.failure_reason, 'gave up');
  actor.send({ type: 'RECOVER', to: 'brainstorming', now: NOW });
  assert.equal(actor.getSnapshot().value, 'brainstorming');
  // Loom records recovery_from: 'failed' and keeps failure_reason.
  assert.equal(actor.getSnapshot().context.state.stage_history.at(-1)!.recovery_from, 'failed');
  assert.equal(actor.getSnapshot().context.state.failure_reason, 'gave up');
  actor.stop();
  r.dispose();
});
