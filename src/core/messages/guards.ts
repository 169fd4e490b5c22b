import type { MessageTable } from './catalogTypes';

/**
 * Why a guard of a transition does not hold (src/core/pipeline/guards.ts) and what the user is
 * asked to confirm (transitionCheck.ts): the reason lines of the Advance refusal and the checklist.
 */
export const guardMessages = {
  'guard.fileMissing': { en: '{path} does not exist', zh: '{path} 不存在' },
  'guard.fileUnreadable': { en: '{path} could not be read', zh: '无法读取 {path}' },
  'guard.folderEmpty': { en: '{path} is empty', zh: '{path} 是空的' },
  'guard.placeholder': { en: '{path} line {line} still holds the placeholder {placeholder}', zh: '{path} 第 {line} 行仍有占位符 {placeholder}' },
  'guard.reportVerdict': { en: '{path} says verdict: {verdict}', zh: '{path} 的结论为：{verdict}' },
  'guard.reportNoVerdict': {
    en: '{path} has no verdict line (verdict: PASS or 结论：通过) and does not read as passing',
    zh: '{path} 没有结论行（verdict: PASS 或 结论：通过），也看不出已通过',
  },
  'guard.receiptMissing': { en: '{path} does not exist, so it has no evidence receipt', zh: '{path} 不存在，因此没有证据回执' },
  'guard.compressionRequired': {
    en: "{stage} requires context compression before moving on (loom 3: its step's outputs include handoffs/{stage}.json): confirm the stage is closed once its context is compressed",
    zh: '离开 {stage} 之前需要压缩上下文（loom 3：该步骤的 outputs 含 handoffs/{stage}.json）：压缩该阶段的上下文后确认它已结束',
  },
  'guard.analysisMissing': { en: '{file} does not exist (run the artifact analysis first)', zh: '{file} 不存在（请先运行制品分析）' },
  'guard.analysisBlockers': {
    en: '{file} reports {count, plural, =0 {a blocker} one {# blocker} other {# blockers}} (status: {status})',
    zh: '{file} 报告了 {count, plural, =0 {阻断项} other {# 个阻断项}}（状态：{status}）',
  },
  'guard.analysisBlockersFirst': {
    en: '{file} reports {count, plural, =0 {a blocker} one {# blocker} other {# blockers}} (status: {status}): {first}',
    zh: '{file} 报告了 {count, plural, =0 {阻断项} other {# 个阻断项}}（状态：{status}）：{first}',
  },
  'guard.convergenceMissing': { en: '{file} does not exist (run the convergence check first)', zh: '{file} 不存在（请先运行收敛检查）' },
  'guard.convergenceStatus': { en: '{file} says status: {status}', zh: '{file} 的状态为：{status}' },
  'guard.convergenceBlockers': { en: '{file} reports {count} blocker(s)', zh: '{file} 报告了 {count} 个阻断项' },
  'guard.convergenceRoundsSpent': {
    en: 'converge has already sent the spec back to executing {rounds, plural, one {# time} other {# times}}; round {round} is the last of {max}: escalate instead',
    zh: '收敛阶段已把规格退回 executing {rounds} 次；第 {round} 轮是 {max} 轮中的最后一轮：请改为上报',
  },
  'guard.reviewNoVerdict': { en: '{file} has no verdict line (verdict: PASS)', zh: '{file} 没有结论行（verdict: PASS）' },
  'guard.reviewMarker': { en: '{file} line {line} mentions {marker}', zh: '{file} 第 {line} 行提到了 {marker}' },
  'guard.noTaskFiles': { en: 'no task has a reviewer verdict: tasks/ holds no task files', zh: '没有任务有评审结论：tasks/ 中没有任务文件' },
  'guard.taskNotReviewed': { en: '{task} has not passed review (status: {status})', zh: '{task} 尚未通过评审（状态：{status}）' },
  'guard.taskNoState': { en: 'no state', zh: '无状态' },
  'guard.reviewerFailed': { en: "{task}: the reviewer's last result is {result}", zh: '{task}：评审者最近一次的结果为 {result}' },
  'guard.testReportMissing': { en: 'test-report.md does not exist, so no test run is recorded', zh: 'test-report.md 不存在，因此没有记录任何测试运行' },
  'guard.testExitCode': { en: 'test-report.md records evidence-exit-code: {code}', zh: 'test-report.md 记录的 evidence-exit-code 为 {code}' },
  'guard.behaviorOpen': { en: '{behavior} is not closed ({links})', zh: '{behavior} 未闭合（{links}）' },
  'guard.behaviorsMore': {
    en: '…and {count, plural, one {# more behavior is} other {# more behaviors are}} not closed',
    zh: '……另有 {count} 个行为未闭合',
  },
  'guard.linkNoTask': { en: 'no task', zh: '没有任务' },
  'guard.linkTestsMissing': { en: 'its test files do not exist', zh: '测试文件不存在' },
  'guard.linkTestsOnlyInWorktree': {
    en: 'its tests are only in the feature worktree, where loom does not look (it looks in the spec directory and the repository root): name them {through}',
    zh: '其测试只在功能 worktree 中，loom 不在那里查找（只查找规格目录和仓库根目录）：请写成 {through}',
  },
  'guard.linkNoTest': { en: 'no test', zh: '没有测试' },
  'guard.linkEvidenceMissing': { en: 'its evidence files do not exist', zh: '证据文件不存在' },
  'guard.linkNoEvidence': { en: 'no evidence', zh: '没有证据' },
  'guard.handoffStale': { en: '{handoff} is stale: {changed} changed since it was written', zh: '{handoff} 已过期：写入后 {changed} 有改动' },
  'guard.approvalStale': {
    en: 'the approval of {stage} is stale: {changed} changed since; approve it again',
    zh: '{stage} 的批准已过期：此后 {changed} 有改动；请重新批准',
  },
  'guard.noWorktree': {
    en: 'no feature worktree was found (run the git-worktree stage, or confirm it exists)',
    zh: '未找到功能工作树（请运行 git-worktree 阶段，或确认它已存在）',
  },
  'guard.unreadableInput': { en: '{file} line {line}: {detail}', zh: '{file} 第 {line} 行：{detail}' },
  'guard.validatorUnknown': { en: 'validator {name} is unknown to loom: check its spelling in .loom/workflow.yaml', zh: 'loom 不认识校验器 {name}：请检查 .loom/workflow.yaml 中的拼写' },
  'guard.validatorFinding': { en: '{name}: {problem}', zh: '{name}：{problem}' },
  'guard.validatorNotHere': { en: 'validator {name} does not run at {stage}: nothing sends the spec back', zh: '校验器 {name} 不在 {stage} 运行：没有理由退回规格' },
  'guard.validatorPasses': { en: '{name} passes: the spec goes on, not back', zh: '{name} 通过：规格继续前进，而不是退回' },
  'guard.confirmDone': { en: '{stage} is left only once you confirm it is done', zh: '只有在你确认 {stage} 已完成后才能离开它' },
} as const satisfies MessageTable;
