import type { PipelineEvent } from '../pipeline/machineTypes';
import type { Intent, RequestOptions } from './intent';

/** The intents answered when their work ends, sent to the actor by the request itself. */
export type LongIntent = 'runTasks' | 'createWorktree' | 'verify' | 'answerReview';

/**
 * The event an intent is to the spec's actor (Run Tasks, Create Worktree and Verify are sent by
 * the request itself, with what only it holds: the run's ports, git's cancellation, the commands' runner).
 */
export function eventOf(intent: Exclude<Intent, { type: LongIntent }>, options: RequestOptions, id: string, now: string): PipelineEvent {
  const confirm = options.confirm !== undefined ? { confirm: options.confirm } : {};
  switch (intent.type) {
    case 'advance':
      return { type: 'ADVANCE', id, now, to: intent.to, compressionConfirmed: intent.compressionConfirmed === true, reason: intent.reason, ...confirm };
    case 'approve':
      return { type: 'APPROVE', id, now, compressionConfirmed: intent.compressionConfirmed === true, reason: intent.reason, ...confirm };
    case 'reapprove':
      return { type: 'REAPPROVE', id, now, stage: intent.stage, reason: intent.reason };
    case 'fail':
      return { type: 'FAIL', id, now, reason: intent.reason, validator: intent.validator };
    case 'recover':
      return { type: 'RECOVER', id, now, to: intent.to, reason: intent.reason };
    case 'stopTasks':
      return { type: 'STOP_TASKS', id };
    case 'adjustSteps':
      return { type: 'ADJUST_STEPS', id, now, current: intent.current ?? [], remaining: intent.remaining, ...confirm };
    case 'startPipeline':
      return { type: 'START_PIPELINE', id, now, steps: intent.steps, why: intent.why ?? [], ...confirm };
    case 'setTaskState':
      return { type: 'SET_TASK_STATE', id, now, task: intent.task, status: intent.status, blocker: intent.blocker };
    case 'writeHandoff':
      return { type: 'WRITE_HANDOFF', id, now, handoff: intent.handoff };
    case 'checkStage':
      return { type: 'CHECK_STAGE', id, now };
    case 'sync':
      return { type: 'SYNC', id, now };
    case 'rewind':
      return { type: 'TASK_CHANGE', id, now, change: { kind: 'rewind', task: intent.task }, signal: intent.signal, ...confirm };
    case 'rejectFile':
      return { type: 'TASK_CHANGE', id, now, change: { kind: 'rejectFile', task: intent.task, file: intent.file, words: intent.words }, signal: intent.signal };
  }
}
