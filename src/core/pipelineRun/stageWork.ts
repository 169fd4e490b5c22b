import { commandForStage, type AuthoringCommand, type AuthoringCommandName } from '../authoring/stageCommands';
import { FAILED_STAGE } from '../files/vocabulary';
import { stageOf, type PipelineDefinition } from '../pipeline/pipelineDefinition';

/**
 * What a run does at a stage, read from the stage's data (its role, its `@loom` drafting command,
 * its gate), never from its id: the drafting with the model, or the stage's runner.
 */
export type StageWork =
  /** The `@loom` prompts draft the stage's files (brainstorming, detail-expansion, planning, code-review-request). */
  | { kind: 'draft'; command: AuthoringCommand<AuthoringCommandName> }
  /** The stage's validators write their reports (analyze-artifacts, converge): Check Stage. */
  | { kind: 'check' }
  | { kind: 'worktree' }
  | { kind: 'tasks' }
  | { kind: 'verify' }
  /** The review feedback answered by the implementer in fix mode (the `answerReview` intent). */
  | { kind: 'reviewResponse' }
  /** The memory update and the branch handed on: the last stage. */
  | { kind: 'sync' }
  /** A stage a person passes: the run stops there. */
  | { kind: 'reviewGate' }
  /** No work of its own (approved): the move is all. */
  | { kind: 'move' }
  /** The spec failed, or its stage is unknown: only a person recovers it. */
  | { kind: 'unknown' };

export function stageWork(def: PipelineDefinition, stage: string | null): StageWork {
  if (stage === null || stage === FAILED_STAGE) return { kind: 'unknown' };
  const s = stageOf(def, stage);
  if (!s) return { kind: 'unknown' };
  if (s.role === 'reviewGate') return { kind: 'reviewGate' };
  const command = commandForStage(stage);
  if (command?.name === 'respond') return { kind: 'reviewResponse' };
  if (command) return { kind: 'draft', command };
  switch (s.role) {
    case 'worktree':
      return { kind: 'worktree' };
    case 'tasks':
      return { kind: 'tasks' };
    case 'verification':
      return { kind: 'verify' };
    case 'sync':
      return { kind: 'sync' };
    case 'analysis':
    case 'convergence':
      return { kind: 'check' };
    default:
      return { kind: 'move' };
  }
}
