import type { MessageTable } from './catalogTypes';

/** The omission hunt's findings: each behavior's tests and evidence, and what only a person can judge. */
export const omissionHuntMessages = {
  'omission.noTest': { en: '{behavior} ({category}) has no test reference in traceability.json', zh: '{behavior}（{category}）在 traceability.json 中没有测试引用' },
  'omission.testNotFound': { en: '{behavior} test reference not found: {ref}', zh: '找不到 {behavior} 的测试引用：{ref}' },
  'omission.testOnlyInWorktree': {
    en: '{behavior} test reference not found in the spec directory or the repository root, where loom looks: {ref} is only in the feature worktree (name it {through}, or merge the feature first)',
    zh: '在 loom 查找的规格目录或仓库根目录中找不到 {behavior} 的测试引用：{ref} 只在功能 worktree 中（请写成 {through}，或先合并该功能）',
  },
  'omission.noEvidence': { en: '{behavior} ({category}) has no evidence reference', zh: '{behavior}（{category}）没有证据引用' },
  'omission.evidenceNotFound': { en: '{behavior} evidence reference not found: {ref}', zh: '找不到 {behavior} 的证据引用：{ref}' },
  'omission.checkGuard': { en: 'verify guard code exists (permission check / rate limit / input validation)', zh: '确认存在防护代码（权限检查 / 限流 / 输入校验）' },
  'omission.checkLock': { en: 'verify lock/transaction/CAS guard exists', zh: '确认存在锁 / 事务 / CAS 防护' },
  'omission.checkInstrumentation': { en: 'verify metric/log/trace instrumentation exists', zh: '确认存在指标 / 日志 / 追踪埋点' },
  'omission.forAPerson': { en: '{behavior} is {category}; {check}', zh: '{behavior} 属于 {category}；{check}' },
  'omission.checkFor': { en: '{check} for {behavior}', zh: '针对 {behavior}：{check}' },
  'omission.inputMissing': { en: '{file} does not exist: the omission hunt needs it; nothing was written', zh: '{file} 不存在：遗漏检查需要它；未写入任何内容' },
  'omission.inputUnreadable': { en: '{file} cannot be read: the omission hunt needs it; nothing was written', zh: '无法读取 {file}：遗漏检查需要它；未写入任何内容' },
} as const satisfies MessageTable;
