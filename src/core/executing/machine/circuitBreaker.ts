import { normalizeTaskRef } from '../../files/taskFile';
import { byTaskNumber } from '../../specdir/loadSpec';
import { displayLanguage, t, type Language } from '../../messages';

/**
 * Loom's circuit breaker (熔断): a task whose retry_count passes max_retries, or whose subagent
 * timed out, stops the loop. The failure is recorded in the state files, the user gets a report
 * (task, last blocking issues, finished tasks) and chooses; nothing continues until then, and a
 * timed-out task is never retried automatically.
 */
export type BreakerChoice = 'A' | 'B' | 'C';

export const isBreakerChoice = (value: unknown): value is BreakerChoice => value === 'A' || value === 'B' || value === 'C';

/** What choosing `choice` does, as the quick pick and the report word it. */
export const describeBreakerChoice = (choice: BreakerChoice, language: Language = displayLanguage()): string => t(`breaker.choice.${choice}`, {}, language);

export type BreakerReason =
  | { kind: 'retries'; retryCount: number; maxRetries: number }
  | { kind: 'timeout'; role: string; minutes: number }
  /**
   * A task of a parallel batch could not be merged into the feature branch: its change and the
   * branch's changed the same lines (`uncommitted`: uncommitted changes in the feature worktree
   * would be overwritten). It stops at once; B is fixed by hand in the task's worktree.
   */
  | { kind: 'conflict'; files: string[]; uncommitted?: boolean }
  /** A task in a worktree of its own changed files outside its owns. */
  | { kind: 'outside-owns'; files: string[] };

/** What the breaker records in the task state's metadata; `choice` once the user has chosen. */
export interface BreakerRecord {
  reason: BreakerReason;
  opened_at: string;
  last_issues: string[];
  /** sha256 of tasks/TN.md when the breaker opened: a re-planned (edited) task starts afresh. */
  task_sha256?: string;
  choice?: BreakerChoice;
  chosen_at?: string;
}

export interface CircuitBreakerReport {
  /** A task id, or `test-reporter`. */
  task: string;
  title: string;
  reason: BreakerReason;
  /** The reviewer's (or test reporter's) last blocking issues, or the timeout. */
  lastIssues: string[];
  finishedTasks: string[];
  /** Tasks that depend on this one, directly or not: what skipping it would also stop. */
  dependents: string[];
  /** C is not offered for the test reporter: there is nothing to skip to. */
  choices: BreakerChoice[];
}

export function describeBreakerReason(reason: BreakerReason, language: Language = displayLanguage()): string {
  switch (reason.kind) {
    case 'retries':
      return t('breaker.reason.retries', { count: reason.retryCount, max: reason.maxRetries }, language);
    case 'timeout':
      return t('breaker.reason.timeout', { role: reason.role, minutes: reason.minutes }, language);
    case 'conflict':
      return t(reason.uncommitted ? 'breaker.reason.mergeBlocked' : 'breaker.reason.conflict', { files: reason.files.join(', ') || '-' }, language);
    case 'outside-owns':
      return t('breaker.reason.outsideOwns', { files: reason.files.join(', ') }, language);
  }
}

/** Every task that depends on `task`, directly or through others, in task order. */
export function dependentsOf(task: string, tasks: Iterable<{ id: string; depends_on: readonly string[] }>): string[] {
  const byDependency = new Map<string, string[]>();
  for (const t of tasks) {
    for (const d of t.depends_on) {
      const dep = normalizeTaskRef(d);
      const list = byDependency.get(dep) ?? [];
      list.push(t.id);
      byDependency.set(dep, list);
    }
  }
  const out = new Set<string>();
  const queue = [task];
  while (queue.length) {
    for (const next of byDependency.get(queue.shift()!) ?? []) {
      if (next !== task && !out.has(next)) {
        out.add(next);
        queue.push(next);
      }
    }
  }
  return [...out].sort(byTaskNumber);
}

/** The report as the user reads it (the host shows it beside the quick pick). */
export function renderBreakerReport(report: CircuitBreakerReport, lang: Language = displayLanguage()): string {
  const out = [
    t('breaker.report.title', { task: report.task, title: report.title }, lang),
    '',
    t('breaker.report.reason', { reason: describeBreakerReason(report.reason, lang) }, lang),
    '',
    t('breaker.report.lastIssues', {}, lang),
    ...(report.lastIssues.length ? report.lastIssues.map((i) => `- ${i}`) : [t('breaker.report.noIssues', {}, lang)]),
    '',
    t('breaker.report.finished', {}, lang),
    report.finishedTasks.length ? report.finishedTasks.join(', ') : t('breaker.report.none', {}, lang),
  ];
  if (report.dependents.length) out.push('', t('breaker.report.dependents', { tasks: report.dependents.join(', ') }, lang));
  out.push('', ...report.choices.map((c) => `[${c}] ${describeBreakerChoice(c, lang)}`));
  return out.join('\n');
}
