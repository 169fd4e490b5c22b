import { createActor, toPromise } from 'xstate';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { loadSpec } from '../specdir/loadSpec';
import { executingMachine } from './machine/executingMachine';
import { ExecutingRefusedError, type ExecutingResult, type ExecutingRunInput } from './machine/runTypes';
import { superviseRun } from './machine/runSupervision';
import type { UserPrompts } from './ports';
import { checkExecutingPreconditions } from './preconditions';

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
    return superviseRun(snapshot, { prompts, signal, clock: input.clock, onEvent: input.onEvent }, ({ onEvent, work }) => {
      const actor = createActor(executingMachine(), { input: { ...input, onEvent, work } });
      const ended = toPromise(actor);
      actor.start();
      return {
        answer: (e) => actor.send(e),
        stop: () => actor.send({ type: 'STOP' }),
        ended: ended.finally(() => actor.stop()),
      };
    });
  }
}
