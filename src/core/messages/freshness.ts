import type { MessageTable } from './catalogTypes';

/** Approvals, fingerprints, handoffs and task states written from the CLI (issue #11). */
export const freshnessMessages = {
  'freshness.task.unknownStatus': { en: '--status {status} is not a task status; use one of {statuses}', zh: '--status {status} 不是任务状态；可用：{statuses}' },
  'freshness.task.badId': { en: '--id {id} is not a task id (a letter, then letters, digits, _ or -)', zh: '--id {id} 不是任务 id（字母开头，后跟字母、数字、_ 或 -）' },
  'freshness.task.written': { en: '{specDir}: {task} → {status}', zh: '{specDir}：{task} → {status}' },
  'freshness.verdict.missing': { en: '{file} not found in {specDir}', zh: '{specDir} 中没有 {file}' },
  'freshness.handoff.oneOf': { en: 'handoff needs exactly one of --stage or --task', zh: 'handoff 需要且只需要 --stage 或 --task 之一' },
  'freshness.handoff.unknownStage': { en: '{stage} is not a stage of the {pipeline} pipeline; its stages are {stages}', zh: '{stage} 不是 {pipeline} 流水线的阶段；阶段有：{stages}' },
  'freshness.handoff.unknownTask': { en: '{specDir} has no task {task}; its tasks are {tasks}', zh: '{specDir} 没有任务 {task}；任务有：{tasks}' },
  'freshness.handoff.badStatus': { en: '--status {status} is not a handoff status; use one of {statuses}', zh: '--status {status} 不是 handoff 状态；可用：{statuses}' },
  'freshness.handoff.nothingToRefresh': { en: '{file} does not exist, so there is nothing to refresh; write it without --refresh', zh: '{file} 不存在，无可刷新；去掉 --refresh 直接写入' },
  'freshness.handoff.unreadable': { en: '{file} cannot be read, so it was not refreshed: {problems}', zh: '{file} 无法读取，未刷新：{problems}' },
  'freshness.handoff.written': { en: '{specDir}: {file} written ({count, plural, one {# fingerprint} other {# fingerprints}})', zh: '{specDir}：已写入 {file}（{count} 个指纹）' },
  'freshness.handoff.refreshed': { en: '{specDir}: {file} refreshed ({count, plural, one {# fingerprint} other {# fingerprints}})', zh: '{specDir}：已刷新 {file}（{count} 个指纹）' },
} as const satisfies MessageTable;
