import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { hasRole } from '../pipeline/stageRoles';
import type { TransitionCheck } from '../pipeline/transitionCheck';
import { TASK_STATE_CLOSURE } from '../validators/taskStateClosure';

/**
 * Why a way on from the stage that runs tasks is blocked by tasks not yet done (task-state-closure,
 * or a task the reviewer has not passed), if it is: then running them helps first, and what they
 * write at the end (test-report.md, the stage's handoff) is not for the user to create by hand.
 */
export function unfinishedTasks(def: PipelineDefinition, from: string | null, check: TransitionCheck): string[] {
  if (!hasRole(def, from, 'tasks')) return [];
  return check.verdicts
    .filter(({ call, outcome }) => !outcome.ok && ((call.type === 'validatorPasses' && call.params.name === TASK_STATE_CLOSURE) || call.type === 'reviewerPassed'))
    .flatMap(({ outcome }) => outcome.reasons);
}
