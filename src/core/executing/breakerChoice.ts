import { LoomError } from '../errors';
import type { TaskFile } from '../files/taskFile';
import { CIRCUIT_BREAKER_KEY, describeBreakerReason, type BreakerChoice, type BreakerRecord, type CircuitBreakerReport } from './circuitBreaker';
import type { LoopEnvironment } from './loopEnvironment';
import { readTaskRunRecord } from './taskRunRecord';

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
export type BreakerDecision = 'rerun' | 'skipped' | 'replan';

export class InvalidBreakerChoiceError extends LoomError {}

async function askChoice(env: LoopEnvironment, report: CircuitBreakerReport): Promise<BreakerChoice> {
  for (;;) {
    const choice = await env.prompts.chooseBreakerAction(report, env.signal);
    if (!report.choices.includes(choice)) throw new InvalidBreakerChoiceError(`${choice} is not one of the offered choices (${report.choices.join(', ')})`);
    if (choice !== 'C') return choice;
    if (await env.prompts.confirmSkip(report.task, report.dependents, env.signal)) return choice;
  }
}

const recordFrom = (report: CircuitBreakerReport, now: string): BreakerRecord => ({ reason: report.reason, opened_at: now, last_issues: report.lastIssues });

export async function settleTaskBreaker(env: LoopEnvironment, task: TaskFile, report: CircuitBreakerReport): Promise<BreakerDecision> {
  const state = env.store.taskState(task.id);
  const record = readTaskRunRecord(state);
  let choice = record.breaker?.choice;
  if (!choice) {
    choice = await askChoice(env, report);
    const now = env.now();
    record.breaker = { ...(record.breaker ?? recordFrom(report, now)), choice, chosen_at: now };
    env.store.writeTask({ ...(state ?? { task_id: task.id, retry_count: 0 }), status: 'failed', metadata: record });
    env.store.updateMetadata({ [CIRCUIT_BREAKER_KEY]: { task: task.id, reason: record.breaker.reason, opened_at: record.breaker.opened_at, choice, chosen_at: now } });
  }
  const current = env.store.taskState(task.id)!;
  const why = `circuit breaker: ${describeBreakerReason(report.reason)}`;
  switch (choice) {
    case 'A':
      env.store.writeTask({ ...current, status: 'failed', blocker: `${why}; waiting for the task to be split and re-planned (choice A)` });
      return 'replan';
    case 'B': {
      env.store.writeTask({ ...current, status: 'failed', blocker: `${why}; waiting for your manual fix (choice B)` });
      await env.prompts.waitForManualFix(task.id, env.signal);
      const { breaker: _closed, awaiting_context: _a, ...rest } = readTaskRunRecord(current);
      env.store.writeTask({ ...current, status: 'reviewing', retry_count: 0, blocker: null, metadata: { ...rest, step: 'review' } });
      return 'rerun';
    }
    case 'C':
      markSkipped(env, task.id);
      for (const d of report.dependents) markSkipped(env, d, task.id);
      return 'skipped';
  }
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
