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
  const record: TaskRunRecord = { ...a.record, fix_items: items, mode: items.length ? 'fix' : a.record.mode, step: next };
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
  const zh = language === 'zh';
  return {
    problem: zh ? '上一次回答没有状态行' : 'the last answer had no status line',
    direction: zh ? '以一行状态结束：状态：DONE | DONE_WITH_CONCERNS | NEEDS_CONTEXT | BLOCKED' : 'end with one status line: STATUS: DONE | DONE_WITH_CONCERNS | NEEDS_CONTEXT | BLOCKED',
  };
}

export function deletedTestFixItems(files: readonly string[], language: PromptLanguage): FixItem[] {
  const zh = language === 'zh';
  return files.map((f) => ({
    problem: zh ? `测试文件 ${f} 被删除` : `the test file ${f} was deleted`,
    file: f,
    severity: 'blocker',
    direction: zh ? '恢复该测试文件；禁止删除测试' : 'restore it; tests may not be deleted',
  }));
}

export function testRunStatus(run: TestRun, language: PromptLanguage): string {
  return run.timedOut ? (language === 'zh' ? '超时' : 'timed out') : `exit code ${run.exitCode}`;
}

export function failedTestRunFixItem(run: TestRun, logFile: string, language: PromptLanguage): FixItem {
  const status = testRunStatus(run, language);
  return {
    problem: language === 'zh' ? `测试命令 ${run.command} 失败（${status}，日志 ${logFile}）` : `the test command ${run.command} failed (${status}; log ${logFile})`,
    severity: 'blocker',
    direction: failureExcerpt(run),
  };
}

export function breakerRecordOf(reason: BreakerReason, record: TaskRunRecord, now: string, taskSha: string | undefined): BreakerRecord {
  const issues = reason.kind === 'timeout' ? [describeBreakerReason(reason)] : summarizeFixItems(record.fix_items ?? []);
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
