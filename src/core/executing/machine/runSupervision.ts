import { SpecLockedError } from '../../errors';
import type { SpecLocation } from '../../store/runLock';
import type { ExecutingEventListener } from '../events';
import { systemClock, type Clock, type UserPrompts } from '../ports';
import { acquireSpecLease } from '../runLease';
import { InFlightWork } from './inFlightWork';
import type { UserAnswerEvent } from './runEvents';
import type { ExecutingResult } from './runTypes';
import { UserPromptsBridge } from './userPromptsBridge';

/** A run once started: how to answer it, how to stop it, and when it ends. */
export interface StartedRun<R = ExecutingResult> {
  answer(event: UserAnswerEvent): void;
  stop(): void;
  ended: Promise<R>;
}

/**
 * The protocol around one run of the executing statechart, invoked by the spec's actor: the
 * spec's run lease is taken first (no other process, and no other reader of the spec in this
 * window, drives it meanwhile); then `start` sends Run Tasks to the actor, which decides
 * (undefined: it started no run, and the lease is let go). The machine's questions are answered
 * through `prompts`; the caller's signal is sent as Stop, which also dismisses an open question;
 * and the lease is let go only once the aborted work has settled, so that two runs never overlap
 * on the files. A lease held elsewhere is returned as `locked`, for the request to answer with.
 */
export async function superviseRun<R = ExecutingResult>(
  spec: SpecLocation,
  options: { prompts: UserPrompts; signal: AbortSignal; clock?: Clock; onEvent?: ExecutingEventListener },
  start: (io: { onEvent: ExecutingEventListener; work: InFlightWork }) => StartedRun<R> | undefined,
): Promise<R | { locked: SpecLockedError } | undefined> {
  const { prompts, signal } = options;
  let release: () => void;
  try {
    release = acquireSpecLease(spec, (options.clock ?? systemClock).now().toISOString());
  } catch (e) {
    if (e instanceof SpecLockedError) return { locked: e };
    throw e;
  }
  const work = new InFlightWork();
  const asking = new AbortController();
  let run: StartedRun<R> | undefined;
  const stop = () => {
    asking.abort();
    run?.stop();
  };
  // Made before the run starts: a question asked while it starts is not lost. Answers come later.
  const bridge = new UserPromptsBridge(
    prompts,
    (answer) => run?.answer(answer),
    () => run?.stop(),
    asking.signal,
  );
  try {
    run = start({
      work,
      onEvent: (e) => {
        options.onEvent?.(e);
        bridge.handle(e);
      },
    });
    if (!run) return undefined;
    signal.addEventListener('abort', stop, { once: true });
    if (signal.aborted) stop();
    const result = await run.ended;
    if (bridge.failure !== undefined) throw bridge.failure;
    return result;
  } finally {
    signal.removeEventListener('abort', stop);
    asking.abort();
    await work.settled();
    release();
  }
}
