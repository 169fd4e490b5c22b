import type { ExecutingEvent, ExecutingResult } from '../../core/port/executing';
import { t } from '../../core/port/messages';
import { formatCredits } from '../../core/port/credits';

/** What the user reads when a run ends: one place maps every outcome to a message. */
export function describeOutcome(feature: string, r: ExecutingResult): { kind: 'info' | 'warning' | 'error'; text: string } {
  const said = outcomeText(feature, r);
  // What the run cost so far, as Copilot bills it; a model without a price is named, in tokens.
  const credits = r.credits && (r.credits.used > 0 || r.credits.unpriced.length) ? creditsLine(r.credits, r.tokens.used) : undefined;
  return credits ? { ...said, text: `${said.text} ${credits}` } : said;
}

function creditsLine(c: { used: number; unpriced: string[]; unpricedTokens?: number }, tokens: number): string {
  const used = t('host.executing.creditsSoFar', { credits: formatCredits(c.used) });
  // The unpriced models' own tokens, not the run's: the priced ones are in the credits already.
  return c.unpriced.length ? `${used} ${t('credits.unpriced', { models: c.unpriced.join(', '), tokens: String(c.unpricedTokens ?? tokens) })}.` : used;
}

function outcomeText(feature: string, r: ExecutingResult): { kind: 'info' | 'warning' | 'error'; text: string } {
  switch (r.outcome) {
    case 'completed':
      return { kind: 'info', text: t('host.executing.allTasksDone', { feature, finished: r.finished.join(', ') || '-', message: r.message }) };
    case 'blocked':
      return { kind: 'warning', text: t('host.executing.blocked', { feature, stoppedAt: r.stoppedAt ?? '-', message: r.message }) };
    case 'needs-context':
      return { kind: 'warning', text: t('host.executing.needsContextWasNotGiven', { feature, stoppedAt: r.stoppedAt ?? '-', message: r.message }) };
    case 'replan':
      return { kind: 'warning', text: t('host.executing.splitRePlannedEditPlan', { feature, stoppedAt: r.stoppedAt ?? '-', message: r.message }) };
    case 'cancelled':
      return { kind: 'info', text: t('host.executing.stoppedRunningTasksAgainResumes', { feature }) };
    case 'budget-exceeded':
      // The credits budget's stop says itself what it used and what the next request would cost.
      if (r.message.startsWith(t('credits.budgetStopStart'))) return { kind: 'warning', text: `${feature}: ${r.message}` };
      return { kind: 'warning', text: t('host.executing.tokenBudgetUsedUpTokens', { feature, used: String(r.tokens.used), message: r.message }) };
    case 'model-unavailable':
      return { kind: 'error', text: t('host.executing.noLanguageModelCouldUsed', { feature, message: r.message }) };
  }
}

/** Which condition of "done" a task that passed its review still misses. */
function doneCheckText(check: Extract<ExecutingEvent, { type: 'done-check' }>['check']): string {
  switch (check) {
    case 'tests-missing':
      return t('host.executing.behaviorHasNoTest');
    case 'owns-unchanged':
      return t('host.executing.fileOwnsWasNotChanged');
    case 'tests-failed':
      return t('host.executing.testsFailed');
    case 'new-problems':
      return t('host.executing.newErrorsProblemsPanel');
  }
}

/** The progress line of an event; undefined for events that do not change it. */
export function progressLine(e: ExecutingEvent): string | undefined {
  switch (e.type) {
    case 'mode':
      return e.description;
    case 'task-started':
      return t('host.executing.starting', { task: e.task });
    case 'role-started':
      return t('host.executing.text', { task: e.task, role: e.role, mode: e.mode, model: e.model });
    case 'tool-call':
      return t('host.executing.calls', { task: e.task, role: e.role, tool: e.tool });
    case 'verdict':
      return t('host.executing.reviewerSays', { task: e.task, verdict: e.verdict });
    case 'breaker':
      return t('host.executing.circuitBreakerOpenWaitingYour', { task: e.report.task });
    case 'test-report':
      return t('host.executing.testReport', { verdict: e.verdict });
    case 'done-check':
      return t('host.executing.passedReviewButNotDone', { task: e.task, doneCheckText: doneCheckText(e.check) });
    case 'task-worktree':
      return t('host.executing.workingOwnWorktree', { task: e.task, branch: e.branch });
    case 'estimate':
      return estimateLine(e.task, e.role, e.estimate);
    case 'checkpoint':
      return t('host.executing.checkpointFiles', { task: e.task, commit: e.commit.slice(0, 8), filesCount: String(e.files.length) });
    default:
      return undefined;
  }
}

/** A step's estimate before it is sent: in credits, or in tokens for a model without a price (and saying so). */
export function estimateLine(task: string, role: string, e: { input: number; output: number; credits?: number; model: string }): string {
  const input = String(e.input);
  const output = String(e.output);
  return e.credits !== undefined
    ? t('credits.estimate', { task, role, credits: formatCredits(e.credits), input, output })
    : t('credits.estimateUnpriced', { task, role, input, output, model: e.model });
}
