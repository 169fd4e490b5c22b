/**
 * Answers queued ahead for the executing loop's questions and Override Finding's reason. Only the
 * integration tests get one (through the extension's API in `ExtensionMode.Test`): the input box,
 * the manual-fix notification and the skip confirmation cannot be typed into or clicked from a
 * test. The answer then goes exactly where one given in the UI would.
 */
export interface PresetAnswers {
  /** NEEDS_CONTEXT: the text typed into the input box ('' dismisses it). */
  context: string;
  /** Choice B: true presses Continue. */
  manualFix: true;
  /** Choice C: true confirms the skip, false cancels it. */
  confirmSkip: boolean;
  /** Loom: Override Finding: the reason typed into the input box ('' submits an empty one). */
  overrideReason: string;
  /** Run Tasks' consent: true presses Run Tasks, false cancels. */
  consent: boolean;
}

export class PromptPresets {
  private readonly queues = new Map<keyof PresetAnswers, unknown[]>();
  /** What was shown with each question a queued answer took (the consent's message and detail), for the tests to read. */
  readonly shown: Array<{ kind: keyof PresetAnswers; text: string }> = [];

  /** Queues the answer to the next question of this kind. */
  answerNext<K extends keyof PresetAnswers>(kind: K, answer: PresetAnswers[K]): void {
    const q = this.queues.get(kind) ?? [];
    q.push(answer);
    this.queues.set(kind, q);
  }

  /** The queued answer, removed; undefined when none is queued (the user is asked). */
  take<K extends keyof PresetAnswers>(kind: K): PresetAnswers[K] | undefined {
    return this.queues.get(kind)?.shift() as PresetAnswers[K] | undefined;
  }

  clear(): void {
    this.queues.clear();
    this.shown.length = 0;
  }
}
