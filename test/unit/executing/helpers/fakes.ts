import type { BreakerChoice, CircuitBreakerReport } from '../../../../src/core/executing/machine/circuitBreaker';
import type { WorktreeDiff } from '../../../../src/core/executing/evidence/diffProvider';
import type { ExecutingEvent } from '../../../../src/core/executing/events';
import type { UserPrompts } from '../../../../src/core/executing/ports';
import type { TestRun, TestRunner } from '../../../../src/core/executing/evidence/testRunner';

/** Scripted answers to the questions the loop asks the user, with a record of what was asked. */
export class FakePrompts implements UserPrompts {
  readonly asked: { task: string; question: string }[] = [];
  readonly reports: CircuitBreakerReport[] = [];
  readonly skipConfirmations: { task: string; dependents: string[] }[] = [];
  readonly manualFixes: string[] = [];
  answers: (string | undefined)[] = [];
  choices: BreakerChoice[] = [];
  confirmations: boolean[] = [];
  /** Runs while the "user" fixes by hand (choice B). */
  onManualFix?: (task: string) => void;

  async askForContext(task: string, question: string): Promise<string | undefined> {
    this.asked.push({ task, question });
    return this.answers.shift();
  }

  async chooseBreakerAction(report: CircuitBreakerReport): Promise<BreakerChoice> {
    this.reports.push(report);
    const c = this.choices.shift();
    if (!c) throw new Error(`no breaker choice scripted (breaker on ${report.task})`);
    return c;
  }

  async confirmSkip(task: string, dependents: readonly string[]): Promise<boolean> {
    this.skipConfirmations.push({ task, dependents: [...dependents] });
    return this.confirmations.shift() ?? true;
  }

  async waitForManualFix(task: string): Promise<void> {
    this.manualFixes.push(task);
    this.onManualFix?.(task);
  }
}

/** A test command whose exit codes come from a queue (0 when the queue is empty). */
export class FakeTestRunner implements TestRunner {
  readonly runs: string[] = [];
  exitCodes: number[] = [];

  async run(command: string): Promise<TestRun> {
    this.runs.push(command);
    const exitCode = this.exitCodes.shift() ?? 0;
    return { command, exitCode, output: exitCode === 0 ? 'ok 3 tests passed\n' : 'not ok 1 - due date parsing\n# fail 1\n', timedOut: false, durationMs: 5 };
  }
}

export function collectEvents(): { events: ExecutingEvent[]; listener: (e: ExecutingEvent) => void } {
  const events: ExecutingEvent[] = [];
  return { events, listener: (e) => events.push(e) };
}

export const emptyDiff: WorktreeDiff = { text: '', files: [] };
