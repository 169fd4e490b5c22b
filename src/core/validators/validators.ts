import { planningArtifacts, PLANNING_ARTIFACTS } from './planningArtifacts';
import { requirementTaskClosure, REQUIREMENT_TASK_CLOSURE } from './requirementTaskClosure';
import { taskStateClosure, TASK_STATE_CLOSURE } from './taskStateClosure';
import type { Validator } from './validatorResult';

/**
 * The deterministic validators the core implements, by the name workflow.yaml uses. A declared
 * validator missing here is reported as "not checked yet" and needs the user's confirmation.
 */
export const VALIDATORS: ReadonlyMap<string, Validator> = new Map<string, Validator>([
  [PLANNING_ARTIFACTS, planningArtifacts],
  [TASK_STATE_CLOSURE, taskStateClosure],
  [REQUIREMENT_TASK_CLOSURE, requirementTaskClosure],
]);
