import * as vscode from 'vscode';
import { describeBreakerChoice, renderBreakerReport, type BreakerChoice, type CircuitBreakerReport, type UserPrompts } from '../../core/port/executing';
import { delay } from '../events';
import { tokenFromSignal } from '../lm/cancellation';
import type { PromptPresets } from './promptPresets';
import { displayLanguage, t } from '../../core/port/messages';

/** Rejects with the abort reason once the signal aborts; the question is then withdrawn. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

interface PendingBreaker {
  task: string;
  answer(choice: BreakerChoice): void;
}

/**
 * The executing loop's questions, asked through input boxes, quick picks and notifications. A
 * pending circuit-breaker choice can also be answered from outside (the dashboard's buttons run
 * `loom.executing.breakerChoice`): whichever answers first wins, and the quick pick closes.
 */
export class HostUserPrompts implements UserPrompts {
  private pending?: PendingBreaker;

  constructor(
    private readonly feature: string,
    private readonly presets?: PromptPresets,
  ) {}

  /** Answers the open breaker question of `task`; false when none is open for it. */
  answerBreaker(task: string, choice: BreakerChoice): boolean {
    const p = this.pending;
    if (!p || p.task !== task) return false;
    p.answer(choice);
    return true;
  }

  get pendingBreakerTask(): string | undefined {
    return this.pending?.task;
  }

  async askForContext(task: string, question: string, signal: AbortSignal): Promise<string | undefined> {
    const preset = this.presets?.take('context');
    if (preset !== undefined) return preset.trim() ? preset.trim() : undefined;
    const bridge = tokenFromSignal(signal);
    try {
      const answer = await vscode.window.showInputBox(
        {
          title: t('host.executing.needsContext', { feature: this.feature, task }),
          prompt: question,
          placeHolder: t('host.executing.yourAnswerSentImplementerTask'),
          ignoreFocusOut: true,
        },
        bridge.token,
      );
      return answer?.trim() ? answer.trim() : undefined;
    } finally {
      bridge.dispose();
    }
  }

  chooseBreakerAction(report: CircuitBreakerReport, signal: AbortSignal): Promise<BreakerChoice> {
    const l = displayLanguage();
    const text = renderBreakerReport(report, l);
    const summary = text
      .split('\n')
      .filter((line) => line.trim() && !/^\[[ABC]\]/.test(line) && !line.startsWith('##'))
      .join('  ');
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { choice: BreakerChoice }>();
    pick.title = t('host.executing.circuitBreakerOpenAt', { feature: this.feature, task: report.task, title: report.title });
    pick.placeholder = t('host.executing.loomWillNotContinueOwn');
    pick.ignoreFocusOut = true;
    pick.items = report.choices.map((c) => ({
      label: `[${c}] ${describeBreakerChoice(c, l)}`,
      description: c === 'C' && report.dependents.length ? t('host.executing.alsoHoldsBack', { dependents: report.dependents.join(', ') }) : undefined,
      detail: summary,
      choice: c,
    }));
    return new Promise<BreakerChoice>((resolve, reject) => {
      let settled = false;
      const finish = (f: () => void) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        if (this.pending === entry) this.pending = undefined;
        f();
        pick.dispose();
      };
      const onAbort = () => finish(() => reject(signal.reason));
      const entry: PendingBreaker = { task: report.task, answer: (c) => finish(() => resolve(c)) };
      this.pending = entry;
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0]?.choice;
        if (chosen) entry.answer(chosen);
      });
      // Hiding the pick does not answer it: the loop waits, and the dashboard can still answer.
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      pick.show();
    });
  }

  async confirmSkip(task: string, dependents: readonly string[], signal: AbortSignal): Promise<boolean> {
    const preset = this.presets?.take('confirmSkip');
    if (preset !== undefined) return preset;
    const skip = t('host.executing.skip', { task });
    const detail = dependents.length ? t('host.executing.theseTasksDependWillNot', { task, dependents: dependents.join(', ') }) : t('host.executing.noOtherTaskDepends', { task });
    const choice = await untilAborted(Promise.resolve(vscode.window.showWarningMessage(t('host.executing.skip2', { task, feature: this.feature }), { modal: true, detail }, skip)), signal);
    return choice === skip;
  }

  async waitForManualFix(task: string, signal: AbortSignal): Promise<void> {
    if (this.presets?.take('manualFix')) return;
    const cont = t('host.executing.continue');
    // A dismissed notification is asked again: the loop only goes on when the user says so.
    for (;;) {
      const choice = await untilAborted(Promise.resolve(vscode.window.showInformationMessage(t('host.executing.fixHandWorktreeThenContinue', { feature: this.feature, task }), cont)), signal);
      if (choice === cont) return;
      await untilAborted(delay(1000), signal);
    }
  }
}
