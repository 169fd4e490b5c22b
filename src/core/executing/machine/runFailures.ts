import { isPermanentModelError, ModelRequestError, ModelUnavailableError } from '../dispatch/chatModel';
import { TokenBudgetExceededError } from '../transcripts/tokenLedger';
import { t, type Language } from '../../messages';
import type { LoopEnvironment } from './loopEnvironment';
import { readTaskRunRecord } from './taskRunRecord';
import type { RunStop } from './runTypes';

/**
 * What a failure inside a run means. The model (no model, a refusal) and the token budget end the
 * whole run with an outcome of their own, every task resumable; anything else a task's actor
 * throws (a bug, a file gone, git refusing where no rule expected it) stops that task alone: it
 * is blocked, named with the step it was at, its work kept where it is, and running the tasks
 * again resumes it from that step.
 */
export function runFailureStop(error: unknown): RunStop | undefined {
  if (error instanceof TokenBudgetExceededError) return { outcome: 'budget-exceeded', message: error.message };
  if (!isPermanentModelError(error)) return undefined;
  const why = error instanceof ModelUnavailableError ? error.message : t('run.modelRefused', { detail: (error as Error).message });
  return { outcome: 'model-unavailable', message: t('run.stoppedResumable', { why }) };
}

export const isRunFailure = (error: unknown) => runFailureStop(error) !== undefined;

/** A failure that is the run's, not the task's: the model's (a broken stream too, once asked again) or the budget. */
export const isUnexpectedTaskFailure = (error: unknown) => !isRunFailure(error) && !(error instanceof ModelRequestError);

/** The step a task's state says it was at, as a person reads it. */
function stepWords(step: string, language: Language): string {
  return t(`task.step.${step}` as 'task.step.implement', {}, language);
}

/**
 * A task whose actor failed unexpectedly: its state is marked blocked with the reason (its run
 * record, and so its step, kept), and the reason names the task, the step and what clears it.
 */
export function blockOnUnexpected(env: LoopEnvironment, task: string, error: unknown): string {
  const language = env.inputs.language;
  const detail = error instanceof Error ? error.message : String(error);
  let reason = t('task.unexpectedStop', { task, step: stepWords('implement', language), detail }, language);
  try {
    const onDisk = env.store.taskState(task);
    const step = readTaskRunRecord(onDisk).step ?? (onDisk?.status === 'reviewing' ? 'review' : 'implement');
    reason = t('task.unexpectedStop', { task, step: stepWords(step, language), detail }, language);
    if (onDisk && onDisk.status !== 'done') {
      const state = env.store.writeTask({ ...onDisk, status: 'blocked', blocker: reason });
      env.emit({ type: 'task-status', task, status: 'blocked', retryCount: state.retry_count });
    }
  } catch (e) {
    env.logger.warn(`${task}: its state could not be marked blocked (${(e as Error).message})`);
  }
  env.logger.error(`${reason}${error instanceof Error && error.stack ? `\n${error.stack}` : ''}`);
  return reason;
}
