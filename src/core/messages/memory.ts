import type { MessageTable } from './catalogTypes';

/** loom's structured memory (`.loom/memory/store.json`): its store and the entries a feature leaves there when it is synced. */
export const memoryMessages = {
  'memory.corrupt': { en: '{file} is corrupt ({detail}); it was left untouched', zh: '{file} 已损坏（{detail}）；未改动该文件' },
  'memory.notAStore': { en: '{file} is not a memory store: {detail}; it was left untouched', zh: '{file} 不是有效的记忆存储：{detail}；未改动该文件' },
  'memory.sync.taskPitfall': {
    en: '{feature}: task {task} ({title}) needed {retries} retries; blocker: {blocker}',
    zh: '{feature}：任务 {task}（{title}）重试了 {retries} 次；阻塞原因：{blocker}',
  },
  'memory.sync.added': { en: '{specDir}: {added} new memory entries in {file} ({found} found, the rest already there)', zh: '{specDir}：{file} 新增 {added} 条记忆（共找到 {found} 条，其余已存在）' },
  'handOn.title': { en: 'feat: {feature}', zh: 'feat: {feature}' },
  'handOn.body': {
    en: 'Feature {feature} ({specDir}), built with loom. Verification: {verdict}. Requirements: {requirements}. See {specDir}/verify-report.md and {specDir}/review-response.md.',
    zh: '功能 {feature}（{specDir}），由 loom 流水线完成。验证：{verdict}。需求：{requirements}。详见 {specDir}/verify-report.md 与 {specDir}/review-response.md。',
  },
  'handOn.commands': { en: 'Hand the branch on with:', zh: '用以下命令交付分支：' },
} as const satisfies MessageTable;
