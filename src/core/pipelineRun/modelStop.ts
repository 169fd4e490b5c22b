import { ModelRequestError, ModelUnavailableError } from '../executing/dispatch/chatModel';
import { isTransientModelError } from '../executing/dispatch/transientModelError';
import { t } from '../messages';
import type { RunStop } from './runStop';
import { stopped } from './tasksStop';

/**
 * Why a drafting request (a stage's, the reconcile step's) that threw stops the run: the person
 * stopped it (a provider may end the stream quietly on cancel, so the signal is asked first), no
 * model, a model still failing after its retries for a passing reason (not a refusal: it could not
 * be reached), a model that refused. Undefined for any other error: a fault of the run, thrown on.
 */
export function modelStop(e: unknown, signal: AbortSignal, stage: string): Omit<RunStop, 'stages'> | undefined {
  if (signal.aborted) return stopped('stopped', stage, t('run.pipeline.stopped', { stage }));
  if (e instanceof ModelUnavailableError) return stopped('model-unavailable', stage, t('run.pipeline.noModel', { stage, reason: e.reason ?? e.message }));
  if (isTransientModelError(e)) return stopped('model-error', stage, t('run.pipeline.modelError', { stage, detail: (e as Error).message }));
  if (e instanceof ModelRequestError) return stopped('model-refused', stage, t('run.pipeline.modelRefused', { code: e.code, detail: e.message }));
  return undefined;
}
