import type { MessageTable } from './catalogTypes';

/** Each guard as the precondition it stands for, said positively, for the dashboard's checklist (src/core/views/guardLabels.ts). */
export const checklistMessages = {
  'check.folderHoldsFiles': { en: '{path} holds files', zh: '{path} 中有文件' },
  'check.fileExists': { en: '{path} exists', zh: '{path} 存在' },
  // '{{'VAR'}}' is ICU's quoting of the literal {{VAR}}.
  'check.fileExistsClean': { en: "{path} exists with no placeholder (TBD, TODO, '{{'VAR'}}')", zh: "{path} 存在且没有占位符（TBD、TODO、'{{'VAR'}}'）" },
  'check.reportPasses': { en: '{path} says verdict: PASS', zh: '{path} 的结论为 PASS' },
  'check.receiptRequired': { en: '{path} has a valid evidence receipt', zh: '{path} 有有效的证据回执' },
  'check.receiptOptional': { en: "{path}'s evidence receipt, if any, is valid", zh: '{path} 的证据回执（如有）有效' },
  'check.compressionConfirmed': { en: "the closed stage's context is compressed (loom asks the caller to confirm it)", zh: '已结束阶段的上下文已压缩（loom 要求调用方确认）' },
  'check.analysisHasNoBlocker': { en: 'artifact-analysis.json passes with no blocker', zh: 'artifact-analysis.json 通过且没有 blocker' },
  'check.convergenceConverged': { en: 'convergence-report.json says converged', zh: 'convergence-report.json 的状态为 converged' },
  'check.convergenceRoundsLeft': { en: 'fewer than {max} convergence rounds used', zh: '已用的收敛轮数少于 {max} 轮' },
  'check.reviewFeedbackPasses': { en: 'review-feedback.md passes with no blocking remark', zh: 'review-feedback.md 通过且没有阻断性意见' },
  'check.reviewerPassed': { en: 'every task passed review', zh: '每个 task 都通过了审查' },
  'check.testsExitZero': { en: 'the test run exited 0', zh: '测试运行的退出码为 0' },
  'check.traceabilityClosed': { en: 'every behavior has a task, a test and evidence', zh: '每个 behavior 都有 task、测试和证据' },
  'check.handoffsFresh': { en: 'no handoff is stale', zh: '没有过期的交接' },
  'check.approvalsFresh': { en: 'no approved file changed since its approval', zh: '已批准的文件在批准后没有变更' },
  'check.worktreeExists': { en: 'the feature worktree exists', zh: '功能 worktree 已存在' },
  'check.inputsReadable': { en: 'the files it reads can be read', zh: '它读取的文件都能读取' },
  'check.inputsReadableElsewhere': {
    en: '{files} cannot be read: this step does not read it, but a later one will. Fix it before then.',
    zh: '{files} 无法读取：这一步不读取它，但后面的步骤会读取。请在那之前修复它。',
  },
  'check.inputsReadableElsewhereSeveral': {
    en: '{files} cannot be read: this step does not read them, but a later one will. Fix them before then.',
    zh: '{files} 无法读取：这一步不读取它们，但后面的步骤会读取。请在那之前修复它们。',
  },
  'check.validatorPasses': { en: 'validator {name} passes', zh: '验证器 {name} 通过' },
  'check.confirmed': { en: 'you confirm leaving {stage}', zh: '你确认离开 {stage}' },
} as const satisfies MessageTable;
