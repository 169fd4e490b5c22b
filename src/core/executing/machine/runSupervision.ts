import type { SpecLocation } from '../../store/runLock';
import type { ExecutingEventListener } from '../events';
import { systemClock, type Clock, type UserPrompts } from '../ports';
import { acquireSpecLease } from '../runLease';
import { InFlightWork } from './inFlightWork';
import type { UserAnswerEvent } from './runEvents';
import type { ExecutingResult } from './runTypes';
import { UserPromptsBridge } from './userPromptsBridge';

/** A run once started: how to answer it, how to stop it, and when it ends. */
export interface StartedRun {
  answer(event: UserAnswerEvent): void;
  stop(): void;
  ended: Promise<ExecutingResult>;
}

/**
 * The protocol around one run of the executing statechart, whoever invokes it (the spec's actor
 * in VS Code, the headless ExecutingLoop): the spec's run lease held for the whole run; the
 * machine's questions answered through `prompts`; the caller's signal sent as Stop, which also
 * dismisses an open question; and the lease let go only once the aborted work has settled, so
 * that two runs never overlap on the files.
 */
export async function superviseRun(
  spec: SpecLocation,
  options: { prompts: UserPrompts; signal: AbortSignal; clock?: Clock; onEvent?: ExecutingEventListener },
  start: (io: { onEvent: ExecutingEventListener; work: InFlightWork }) => StartedRun,
): Promise<ExecutingResult> {
  const { prompts, signal } = options;
  const release = acquireSpecLease(spec, (options.clock ?? systemClock).now().toISOString());
  const work = new InFlightWork();
  const asking = new AbortController();
  let run: StartedRun | undefined;
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
