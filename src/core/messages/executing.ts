import type { MessageTable } from './catalogTypes';

/** The executing stage's words a person reads: the circuit breaker's report and its reasons. */
export const executingMessages = {
  'breaker.reason.retries': {
    en: 'review failed {count, plural, one {{count} time} other {{count} times}} (max_retries {max})',
    zh: '审查失败 {count} 次（max_retries {max}）',
  },
  'breaker.reason.timeout': {
    en: 'the {role} timed out after {minutes, plural, one {{minutes} minute} other {{minutes} minutes}} (timeout_minutes); a timed-out task is never retried automatically',
    zh: '{role} 在 {minutes} 分钟后超时（timeout_minutes）；超时的 task 不会自动重试',
  },
  // Written into the task's state, in the spec's language (the language of the loop's prompts).
  'breaker.blocker': { en: 'circuit breaker: {reason}', zh: '熔断：{reason}' },
  'breaker.blocker.replan': { en: '{blocker}; waiting for the task to be split and re-planned (choice A)', zh: '{blocker}；等待拆分此 task 并重新规划（选择 A）' },
  'breaker.blocker.manual': { en: '{blocker}; waiting for your manual fix (choice B)', zh: '{blocker}；等待你手动修复（选择 B）' },
  'breaker.report.title': { en: '## Circuit breaker: {task} {title}', zh: '## 熔断：{task} {title}' },
  'breaker.report.reason': { en: 'Reason: {reason}', zh: '原因：{reason}' },
  'breaker.report.lastIssues': { en: 'Last blocking issues:', zh: '最后的阻断问题：' },
  'breaker.report.noIssues': { en: '- (none recorded)', zh: '- （未记录）' },
  'breaker.report.finished': { en: 'Finished tasks:', zh: '已完成的 task：' },
  'breaker.report.none': { en: '(none)', zh: '（无）' },
  'breaker.report.dependents': { en: 'Tasks that depend on it: {tasks}', zh: '依赖它的 task：{tasks}' },
  'breaker.choice.A': { en: 'Split this task and re-plan', zh: '拆分此 task，重新规划后继续' },
  'breaker.choice.B': { en: "I'll fix it by hand; tell me when to continue", zh: '我来手动修复，修复完告诉我继续' },
  'breaker.choice.C': { en: 'Skip this task (after confirming its impact)', zh: '跳过此 task，继续后续 task（需确认影响）' },
} as const satisfies MessageTable;
