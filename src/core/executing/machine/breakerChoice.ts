import type { TaskState } from '../../files/taskState';
import { describeBreakerReason, type BreakerChoice, type BreakerRecord, type CircuitBreakerReport } from './circuitBreaker';
import type { LoopEnvironment } from './loopEnvironment';
import { readTaskRunRecord } from './taskRunRecord';
import { t } from '../../messages';

/**
 * The user's answer to an open breaker, persisted before it is acted on (so a reload neither
 * asks twice nor loses it):
 * - A: the task stays failed, waiting to be split and re-planned; the run ends. Editing the task
 *   file resets it on the next run.
 * - B: wait until the user says the manual fix is done, then review the task again with a fresh
 *   retry budget (the reviewer judges the user's fix like any other).
 * - C: after the user confirmed the dependents it stops too, the task and those dependents are
 *   marked skipped (status blocked, with the reason) and the run goes on with the rest.
 */
const recordFrom = (report: CircuitBreakerReport, now: string): BreakerRecord => ({ reason: report.reason, opened_at: now, last_issues: report.lastIssues });

export function persistBreakerChoice(env: LoopEnvironment, report: CircuitBreakerReport, choice: BreakerChoice): void {
  const state = env.store.taskState(report.task);
  const record = readTaskRunRecord(state);
  const now = env.now();
  record.breaker = { ...(record.breaker ?? recordFrom(report, now)), choice, chosen_at: now };
  env.store.writeTask({ ...(state ?? { task_id: report.task, retry_count: 0 }), status: 'failed', metadata: record });
  env.record({ circuit_breaker: { task: report.task, reason: record.breaker.reason, opened_at: record.breaker.opened_at, choice, chosen_at: now } });
}

const current = (env: LoopEnvironment, task: string): TaskState => env.store.taskState(task) ?? { task_id: task, status: 'failed', retry_count: 0 };
// The blocker is written for loom, in the spec's language (the loop's prompts follow it too).
const why = (env: LoopEnvironment, report: CircuitBreakerReport) => t('breaker.blocker', { reason: describeBreakerReason(report.reason, env.inputs.language) }, env.inputs.language);

/** Choice A: the task waits, failed, to be split and re-planned. */
export function holdForReplan(env: LoopEnvironment, report: CircuitBreakerReport): void {
  env.store.writeTask({ ...current(env, report.task), status: 'failed', blocker: t('breaker.blocker.replan', { blocker: why(env, report) }, env.inputs.language) });
}

/** Choice B, before the fix: the task says it waits for the user. */
export function holdForManualFix(env: LoopEnvironment, report: CircuitBreakerReport): void {
  env.store.writeTask({ ...current(env, report.task), status: 'failed', blocker: t('breaker.blocker.manual', { blocker: why(env, report) }, env.inputs.language) });
}

/** Choice B, after the fix: the breaker closes and the task goes back to its review with a fresh retry budget. */
export function reopenForReview(env: LoopEnvironment, task: string): void {
  const state = current(env, task);
  const { breaker: _closed, awaiting_context: _a, ...rest } = readTaskRunRecord(state);
  env.store.writeTask({ ...state, status: 'reviewing', retry_count: 0, blocker: null, metadata: { ...rest, step: 'review' } });
}

/** Choice C: the task and every task that depends on it are skipped. */
export function skipWithDependents(env: LoopEnvironment, report: CircuitBreakerReport): void {
  markSkipped(env, report.task);
  for (const d of report.dependents) markSkipped(env, d, report.task);
}

export function markSkipped(env: LoopEnvironment, task: string, because?: string): void {
  const state = env.store.taskState(task);
  if (state?.status === 'done') return;
  const record = readTaskRunRecord(state);
  record.skipped = { at: env.now(), ...(because ? { because } : {}) };
  const blocker = because ? `skipped: it depends on ${because}, which was skipped` : 'skipped by the user after the circuit breaker (choice C)';
  env.store.writeTask({ ...(state ?? { task_id: task, retry_count: 0 }), status: 'blocked', blocker, metadata: record });
  env.emit({ type: 'task-skipped', task, ...(because ? { because } : {}) });
}
