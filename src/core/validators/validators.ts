import { planningArtifacts, PLANNING_ARTIFACTS } from './planningArtifacts';
import { requirementTaskClosure, REQUIREMENT_TASK_CLOSURE } from './requirementTaskClosure';
import { taskStateClosure, TASK_STATE_CLOSURE } from './taskStateClosure';
import type { Validator } from './validatorResult';

/**
 * The deterministic validators the core implements, by the name workflow.yaml uses. A validator
 * loom knows but the core does not implement yet is reported as "not checked yet" and needs the
 * user's confirmation.
 */
export const VALIDATORS: ReadonlyMap<string, Validator> = new Map<string, Validator>([
  [PLANNING_ARTIFACTS, planningArtifacts],
  [TASK_STATE_CLOSURE, taskStateClosure],
  [REQUIREMENT_TASK_CLOSURE, requirementTaskClosure],
]);

/**
 * Every validator loom's `run --advance` knows (pipeline-engine.js ADVANCE_VALIDATORS), with the
 * stage it checks: at any other stage loom lets it pass without running it. A name loom does not
 * know stops advancing ("Unknown validator").
 */
export const LOOM_VALIDATOR_STAGES: ReadonlyMap<string, string> = new Map([
  [PLANNING_ARTIFACTS, 'planning'],
  [TASK_STATE_CLOSURE, 'executing'],
  [REQUIREMENT_TASK_CLOSURE, 'executing'],
  ['verification-artifacts', 'verification'],
  ['detail-expansion-pass', 'detail-expansion'],
  ['artifact-analysis-pass', 'analyze-artifacts'],
  ['convergence-pass', 'converge'],
]);

/** Loom checks these when leaving `executing`, declared or not. */
export const IMPLICIT_VALIDATORS: ReadonlyMap<string, readonly string[]> = new Map([
  ['executing', [TASK_STATE_CLOSURE, REQUIREMENT_TASK_CLOSURE]],
]);
