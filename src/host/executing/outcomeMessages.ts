import * as vscode from 'vscode';
import type { ExecutingEvent, ExecutingResult } from '../../core/port/executing';

/** What the user reads when a run ends: one place maps every outcome to a message. */
export function describeOutcome(feature: string, r: ExecutingResult): { kind: 'info' | 'warning' | 'error'; text: string } {
  switch (r.outcome) {
    case 'completed':
      return { kind: 'info', text: vscode.l10n.t('{0}: all tasks done ({1}). {2}', feature, r.finished.join(', ') || '-', r.message) };
    case 'blocked':
      return { kind: 'warning', text: vscode.l10n.t('{0}: {1} is blocked. {2}', feature, r.stoppedAt ?? '-', r.message) };
    case 'needs-context':
      return { kind: 'warning', text: vscode.l10n.t('{0}: {1} needs context that was not given. Run the tasks again to answer. {2}', feature, r.stoppedAt ?? '-', r.message) };
    case 'replan':
      return { kind: 'warning', text: vscode.l10n.t('{0}: {1} is to be split and re-planned. Edit the plan and tasks, then run the tasks again. {2}', feature, r.stoppedAt ?? '-', r.message) };
    case 'cancelled':
      return { kind: 'info', text: vscode.l10n.t('{0}: stopped. Running the tasks again resumes where it stopped.', feature) };
    case 'budget-exceeded':
      return { kind: 'warning', text: vscode.l10n.t('{0}: the token budget is used up ({1} tokens). Raise loom.executing.tokenBudget to go on. {2}', feature, String(r.tokens.used), r.message) };
    case 'model-unavailable':
      return { kind: 'error', text: vscode.l10n.t('{0}: no language model could be used. {1}', feature, r.message) };
  }
}

/** Which condition of "done" a task that passed its review still misses. */
function doneCheckText(check: Extract<ExecutingEvent, { type: 'done-check' }>['check']): string {
  switch (check) {
    case 'tests-missing':
      return vscode.l10n.t('a behavior has no test');
    case 'owns-unchanged':
      return vscode.l10n.t('a file it owns was not changed');
    case 'tests-failed':
      return vscode.l10n.t('its tests failed');
    case 'new-problems':
      return vscode.l10n.t('new errors in the Problems panel');
  }
}

/** The progress line of an event; undefined for events that do not change it. */
export function progressLine(e: ExecutingEvent): string | undefined {
  switch (e.type) {
    case 'mode':
      return e.description;
    case 'task-started':
      return vscode.l10n.t('{0}: starting', e.task);
    case 'role-started':
      return vscode.l10n.t('{0}: {1} ({2}, {3})', e.task, e.role, e.mode, e.model);
    case 'tool-call':
      return vscode.l10n.t('{0}: {1} calls {2}', e.task, e.role, e.tool);
    case 'verdict':
      return vscode.l10n.t('{0}: reviewer says {1}', e.task, e.verdict);
    case 'breaker':
      return vscode.l10n.t('{0}: circuit breaker open, waiting for your choice', e.report.task);
    case 'test-report':
      return vscode.l10n.t('test report: {0}', e.verdict);
    case 'done-check':
      return vscode.l10n.t('{0}: passed its review but is not done ({1}): back to its implementer', e.task, doneCheckText(e.check));
    case 'task-worktree':
      return vscode.l10n.t('{0}: working in its own worktree ({1})', e.task, e.branch);
    case 'checkpoint':
      return vscode.l10n.t('{0}: checkpoint {1} ({2} files)', e.task, e.commit.slice(0, 8), String(e.files.length));
    default:
      return undefined;
  }
}
