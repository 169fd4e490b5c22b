import { runDraftingTurn, type DraftingTurnInput, type DraftingTurnResult } from '../authoring/draftingTurn';
import { ModelRequestError, ModelUnavailableError } from '../executing/dispatch/chatModel';
import { isTransientModelError } from '../executing/dispatch/transientModelError';
import { t } from '../messages';
import type { RunStop } from './runStop';
import { stopped } from './tasksStop';

/** At most this many correction rounds, for every drafting of a run (a stage's, the reconcile step's). */
export const CORRECTION_ROUNDS = 2;

/**
 * A drafting turn of Run Pipeline (a stage's, the reconcile step's): each correction said where
 * the run's lines go, at most CORRECTION_ROUNDS of them, the person's Stop heard. A model that
 * cannot answer stops the run (modelStop), and so does a Stop pressed while it answered: its
 * cut-off reply is no answer (a provider may end the stream quietly on cancel).
 */
export async function runDraftingStep(
  turn: Omit<DraftingTurnInput, 'onEvent' | 'signal' | 'maxRepairs'>,
  signal: AbortSignal,
  stage: string,
  say: (line: string) => void,
): Promise<{ result: DraftingTurnResult } | { stop: Omit<RunStop, 'stages'> }> {
  let result: DraftingTurnResult;
  try {
    result = await runDraftingTurn({
      ...turn,
      onEvent: (e) => {
        if (e.type === 'repair') say(t('run.pipeline.repair', { count: e.problems.length, attempt: e.attempt }));
      },
      signal,
      maxRepairs: CORRECTION_ROUNDS,
    });
  } catch (e) {
    const stop = modelStop(e, signal, stage);
    if (stop) return { stop };
    throw e;
  }
  if (signal.aborted) return { stop: stopped('stopped', stage, t('run.pipeline.stopped', { stage })) };
  return { result };
}

/**
 * Why a drafting request that threw stops the run: the person stopped it (asked first), no
 * model, a model still failing after its retries for a passing reason (not a refusal: it could not
 * be reached), a model that refused. Undefined for any other error: a fault of the run, thrown on.
 */
function modelStop(e: unknown, signal: AbortSignal, stage: string): Omit<RunStop, 'stages'> | undefined {
  if (signal.aborted) return stopped('stopped', stage, t('run.pipeline.stopped', { stage }));
  if (e instanceof ModelUnavailableError) return stopped('model-unavailable', stage, t('run.pipeline.noModel', { stage, reason: e.reason ?? e.message }));
  if (isTransientModelError(e)) return stopped('model-error', stage, t('run.pipeline.modelError', { stage, detail: (e as Error).message }));
  if (e instanceof ModelRequestError) return stopped('model-refused', stage, t('run.pipeline.modelRefused', { code: e.code, detail: e.message }));
  return undefined;
}
