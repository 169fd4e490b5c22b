import type { TaskFile } from '../../files/taskFile';
import type { TaskState } from '../../files/taskState';
import { dependentsOf, describeBreakerReason, type BreakerReason, type BreakerRecord, type CircuitBreakerReport } from './circuitBreaker';
import { summarizeFixItems, type FixItem } from '../dispatch/fixInstructions';
import type { ImplementerReport } from '../dispatch/implementerReport';
import type { LoopEnvironment } from './loopEnvironment';
import type { PromptLanguage } from '../dispatch/prompts/promptTemplates';
import { mergeDeclaredTests, type TaskRunRecord } from './taskRunRecord';
import { failureExcerpt } from '../evidence/testEvidence';
import type { TestRun } from '../evidence/testRunner';
import { t } from '../../messages';

/**
 * The pure rules of one attempt at a task, shared by the task's statechart: what a failed
 * attempt records (`retry_count += 1`, fix items, the step to go back to), the fix items the core
 * writes itself, what the implementer's report adds, and the circuit breaker's record and report.
 */
export type TaskStep = 'implement' | 'review' | 'close';

export interface Attempt {
  state: TaskState;
  record: TaskRunRecord;
}

export function freshTaskState(task: string): TaskState {
  return { task_id: task, status: 'pending', retry_count: 0, agent_session_id: null, last_reviewer_result: null, blocker: null };
}

/** A failed attempt: the retry is counted, the fix items kept, and the step to go back to noted. */
export function recordFailure(a: Attempt, items: FixItem[], next: TaskStep, result: string): Attempt {
  // What its checks found last time no longer holds once it is sent back.
  const { artifacts: _a, behavior_tests: _t, evidence: _e, ...kept } = a.record;
  const record: TaskRunRecord = { ...kept, fix_items: items, mode: items.length ? 'fix' : a.record.mode, step: next };
  return { record, state: { ...a.state, retry_count: a.state.retry_count + 1, last_reviewer_result: result.slice(0, 1000) } };
}

export const pastRetryLimit = (state: TaskState, maxRetries: number) => state.retry_count > maxRetries;

/** What the implementer claimed, merged into what earlier dispatches did. */
export function rememberReport(record: TaskRunRecord, report: ImplementerReport): TaskRunRecord {
  const out = { ...record };
  if (report.summary) out.summary = report.summary;
  if (report.concerns) out.concerns = report.concerns;
  if (report.tests.size) out.declared_tests = mergeDeclaredTests(out.declared_tests, report.tests);
  if (report.exportedInterfaces.length) {
    const byName = new Map((out.exported_interfaces ?? []).map((i) => [i.name, i]));
    for (const i of report.exportedInterfaces) byName.set(i.name, i);
    out.exported_interfaces = [...byName.values()];
  }
  return out;
}

export function implementerReportText(r: TaskRunRecord): string {
  const lines = [`STATUS: ${r.implementer_status ?? 'DONE'}`];
  if (r.summary) lines.push('', r.summary);
  const tests = Object.entries(r.declared_tests ?? {});
  if (tests.length) lines.push('', 'Tests:', ...tests.map(([b, refs]) => `- ${b}: ${refs.join(', ')}`));
  if (r.concerns) lines.push('', `Concerns: ${r.concerns}`);
  return lines.join('\n');
}

export function noStatusFixItem(language: PromptLanguage): FixItem {
  return { problem: t('fixItem.noStatus', {}, language), direction: t('fixItem.noStatus.direction', {}, language) };
}

export function deletedTestFixItems(files: readonly string[], language: PromptLanguage): FixItem[] {
  return files.map((file) => ({
    problem: t('fixItem.testDeleted', { file }, language),
    file,
    severity: 'blocker',
    direction: t('fixItem.testDeleted.direction', {}, language),
  }));
}

export function testRunStatus(run: TestRun, language: PromptLanguage): string {
  return run.timedOut ? t('testRun.timedOut', {}, language) : t('testRun.exitCode', { code: String(run.exitCode) }, language);
}

export function failedTestRunFixItem(run: TestRun, logFile: string, language: PromptLanguage): FixItem {
  return {
    problem: t('fixItem.testRunFailed', { command: run.command, status: testRunStatus(run, language), log: logFile }, language),
    severity: 'blocker',
    direction: failureExcerpt(run),
  };
}

export function breakerRecordOf(reason: BreakerReason, record: TaskRunRecord, now: string, taskSha: string | undefined): BreakerRecord {
  const issues = reason.kind === 'retries' ? summarizeFixItems(record.fix_items ?? []) : [describeBreakerReason(reason)];
  return { reason, opened_at: now, last_issues: issues, task_sha256: taskSha };
}

export function breakerReportOf(env: LoopEnvironment, task: TaskFile, state: TaskState, breaker: BreakerRecord | undefined): CircuitBreakerReport {
  const snapshot = env.store.snapshot();
  const finished = [...env.tasks.keys()].filter((id) => snapshot.taskStates.get(id)?.status === 'done');
  return {
    task: task.id,
    title: task.title,
    reason: breaker?.reason ?? { kind: 'retries', retryCount: state.retry_count, maxRetries: env.maxRetries },
    lastIssues: breaker?.last_issues ?? (state.last_reviewer_result ? [state.last_reviewer_result] : []),
    finishedTasks: finished,
    dependents: dependentsOf(task.id, env.tasks.values()),
    choices: ['A', 'B', 'C'],
  };
}
