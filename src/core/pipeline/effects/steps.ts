import { resolve } from 'node:path';
import { PIPELINE_STATE_FILE, type PipelineState } from '../../files/pipelineState';
import type { WorkflowStep } from '../../files/workflow';
import { t } from '../../messages';
import { stageOnDisk, type PipelineContext, type PipelineEvent } from '../machineTypes';
import { stageOf, type PipelineDefinition } from '../pipelineDefinition';
import { answerWith, type Sender } from './answered';

/** The steps from now on (loom's engine.adjust): those entered stay, in order; the rest are `remaining`. */
export function stepsChange(def: PipelineDefinition, context: PipelineContext, event: Extract<PipelineEvent, { type: 'ADJUST_STEPS' }>) {
  const stage = stageOnDisk(def, context.facts);
  const entered = new Set([...(context.state?.stage_history ?? []).map((h) => h.stage), ...(stage ? [stage] : [])]);
  const kept = [...event.current.filter((s) => entered.has(s.id)), ...event.remaining.filter((s) => !entered.has(s.id))];
  // The list's order is the way forward (loom's getSteps order): a `next` the old list named would skip the new steps.
  const merged: WorkflowStep[] = kept.map((s, i) => ({ ...s, next: kept[i + 1]?.id ?? null }));
  const ahead = event.current.slice(event.current.findIndex((s) => s.id === stage) + 1);
  const dropped = ahead.filter((s) => !entered.has(s.id) && !event.remaining.some((r) => r.id === s.id));
  // A stage a person must pass: leaving it out needs the person, not an agent's word.
  const needsPerson = (step: WorkflowStep) => step.gate === 'human-approval' || (stageOf(def, step.id)?.confirmation ?? false);
  return {
    merged,
    dropped: dropped.map((s) => s.id),
    droppedGates: dropped.filter(needsPerson).map((s) => s.id),
    problem: event.remaining.length === 0 ? t('port.adjustNothing', { specDir: context.facts.specDir }) : undefined,
  };
}

/** The steps from now on, recorded as `dynamic_steps`; the spec stays where it is. */
export function adjustSteps(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender): void {
  if (event.type !== 'ADJUST_STEPS') return;
  answerWith(self, event.id, () => {
    const { merged } = stepsChange(def, context, event);
    const here = stageOnDisk(def, context.facts);
    const state: PipelineState = { ...context.state!, dynamic_steps: merged, updated_at: event.now };
    context.store.writeState(context.facts, state, event.now);
    return { answer: { kind: 'changed', intent: 'adjustSteps', from: here, to: here, state, steps: merged }, state };
  });
}

/** The first state record of a spec on the steps chosen for it, as loom's `run --auto` writes it. */
export function startPipeline(context: PipelineContext, event: PipelineEvent, self: Sender): void {
  if (event.type !== 'START_PIPELINE') return;
  answerWith(self, event.id, () => {
    const first = event.steps[0].id;
    const state: PipelineState = { ...context.freshState(first, event.now), spec_dir: context.facts.dir, current_stage_started_at: event.now, dynamic_steps: [...event.steps] };
    context.store.writeState(context.facts, state, event.now);
    return { answer: { kind: 'changed', intent: 'startPipeline', from: null, to: first, state }, state };
  });
}

/**
 * A new spec's first state, as loom's init writes it (PipelineStateStore.init): at the stage
 * given, `spec_dir` absolute, progress.md from it. Refused where the spec has a state already.
 */
export function initState(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender): void {
  if (event.type !== 'INIT_STATE') return;
  answerWith(self, event.id, () => {
    const facts = context.facts;
    if (facts.stateCondition !== 'missing') {
      const file = `${facts.specDir}/${PIPELINE_STATE_FILE}`;
      return {
        answer: {
          kind: 'refused',
          code: 'state-exists',
          codes: ['state-exists'],
          message: t('port.stateExists', { file }),
          reasons: [],
          remedies: [],
          stage: stageOnDisk(def, facts),
          file: PIPELINE_STATE_FILE,
        },
      };
    }
    const state: PipelineState = { ...context.freshState(event.stage, event.now), spec_dir: resolve(facts.dir) };
    context.store.writeState(facts, state, event.now);
    return { answer: { kind: 'changed', intent: 'initState', from: null, to: event.stage, state }, state };
  });
}
