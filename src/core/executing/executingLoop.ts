import { createActor, toPromise } from 'xstate';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { loadSpec } from '../specdir/loadSpec';
import type { ExecutingEvent } from './events';
import { executingMachine } from './machine/executingMachine';
import { InFlightWork } from './machine/inFlightWork';
import { ExecutingRefusedError, type ExecutingResult, type ExecutingRunInput } from './machine/runTypes';
import { UserPromptsBridge } from './machine/userPromptsBridge';
import { systemClock, type UserPrompts } from './ports';
import { checkExecutingPreconditions } from './preconditions';
import { acquireSpecLease } from './runLease';

export { ExecutingRefusedError, type ExecutingOutcome, type ExecutingResult, type ExecutingSettings } from './machine/runTypes';

/**
 * One run of the executing stage for callers that want a promise: an actor of executingMachine
 * (the statechart is the authority), with the spec's run lease held around it, the caller's
 * AbortSignal sent as STOP, and the host's UserPrompts answering the questions the machine asks.
 */
export interface ExecutingLoopOptions extends ExecutingRunInput {
  prompts: UserPrompts;
}

export class ExecutingLoop {
  constructor(private readonly options: ExecutingLoopOptions) {}

  /** The preconditions alone, for the host to show before offering to start. */
  check(): { ok: boolean; diagnostics: Diagnostic[] } {
    const snapshot = loadSpec(this.options.repoRoot, this.options.specDir);
    const pre = checkExecutingPreconditions(snapshot, this.options.definition, this.options.worktree);
    return { ok: pre.ok, diagnostics: pre.diagnostics };
  }

  async run(signal: AbortSignal): Promise<ExecutingResult> {
    const { prompts, ...input } = this.options;
    const snapshot = loadSpec(input.repoRoot, input.specDir);
    const pre = checkExecutingPreconditions(snapshot, input.definition, input.worktree);
    if (!pre.ok) throw new ExecutingRefusedError(pre.diagnostics);
    const release = acquireSpecLease(snapshot, (input.clock ?? systemClock).now().toISOString());
    const work = new InFlightWork();
    // Open questions are dismissed when the run ends, however it ends.
    const asking = new AbortController();
    const stopAsking = () => asking.abort();
    signal.addEventListener('abort', stopAsking, { once: true });
    let bridge: UserPromptsBridge | undefined;
    const onEvent = (e: ExecutingEvent) => {
      input.onEvent?.(e);
      bridge?.handle(e);
    };
    try {
      const actor = createActor(executingMachine, { input: { ...input, onEvent, work } });
      bridge = new UserPromptsBridge(
        prompts,
        (e) => actor.send(e),
        () => actor.send({ type: 'STOP' }),
        asking.signal,
      );
      const stop = () => actor.send({ type: 'STOP' });
      signal.addEventListener('abort', stop, { once: true });
      try {
        const done = toPromise(actor);
        actor.start();
        if (signal.aborted) stop();
        const result = await done;
        if (bridge.failure !== undefined) throw bridge.failure;
        return result;
      } finally {
        signal.removeEventListener('abort', stop);
        actor.stop();
      }
    } finally {
      signal.removeEventListener('abort', stopAsking);
      asking.abort();
      await work.settled();
      release();
    }
  }
}
