import { LoomError } from '../../errors';
import type { ExecutingEvent } from '../events';
import type { UserPrompts } from '../ports';
import type { UserAnswerEvent } from './runEvents';

/**
 * Answers the questions the executing machine reports through `onEvent` with the host's
 * UserPrompts (quick picks, input boxes) and sends the answers back as events. A choice the
 * breaker did not offer, or a prompt that fails, ends the run with that error.
 */
export class InvalidBreakerChoiceError extends LoomError {}

export class UserPromptsBridge {
  /** The first failure of a prompt; the run rejects with it. */
  failure?: unknown;

  constructor(
    private readonly prompts: UserPrompts,
    private readonly send: (event: UserAnswerEvent) => void,
    private readonly stop: () => void,
    private readonly signal: AbortSignal,
  ) {}

  handle(event: ExecutingEvent): void {
    const asked = this.answer(event);
    if (!asked) return;
    asked.then(
      (answer) => {
        if (!this.signal.aborted) this.send(answer);
      },
      (err) => {
        if (this.signal.aborted) return;
        this.failure ??= err;
        this.stop();
      },
    );
  }

  private answer(event: ExecutingEvent): Promise<UserAnswerEvent> | undefined {
    const { prompts, signal } = this;
    switch (event.type) {
      case 'breaker-choice':
        return (async (): Promise<UserAnswerEvent> => {
          const { report } = event;
          for (;;) {
            const choice = await prompts.chooseBreakerAction(report, signal);
            if (!report.choices.includes(choice)) throw new InvalidBreakerChoiceError(`${choice} is not one of the offered choices (${report.choices.join(', ')})`);
            // Choice C stops the dependents too: the user confirms that first, or chooses again.
            if (choice !== 'C' || (await prompts.confirmSkip(report.task, report.dependents, signal))) return { type: 'BREAKER_CHOICE', task: event.task, choice };
          }
        })();
      case 'manual-fix':
        return prompts.waitForManualFix(event.task, signal).then((): UserAnswerEvent => ({ type: 'MANUAL_FIX_DONE', task: event.task }));
      case 'needs-context':
        return prompts
          .askForContext(event.task, event.question, signal)
          .then((answer): UserAnswerEvent => (answer?.trim() ? { type: 'CONTEXT_PROVIDED', task: event.task, context: answer } : { type: 'CONTEXT_DECLINED', task: event.task }));
      default:
        return undefined;
    }
  }
}
