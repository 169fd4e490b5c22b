import type { MessageTable } from './catalogTypes';

/** loom's structured memory (`.loom/memory/store.json`): its store and the entries a feature leaves there when it is synced. */
export const memoryMessages = {
  'memory.corrupt': { en: '{file} is corrupt ({detail}); it was left untouched', zh: '{file} 已损坏（{detail}）；未改动该文件' },
  'memory.notAStore': { en: '{file} is not a memory store: {detail}; it was left untouched', zh: '{file} 不是有效的记忆存储：{detail}；未改动该文件' },
  'memory.sync.added': { en: '{specDir}: {added} new memory entries in {file} ({found} found, the rest already there)', zh: '{specDir}：{file} 新增 {added} 条记忆（共找到 {found} 条，其余已存在）' },
  // What the actor answers about Sync.
  'sync.noStage': { en: 'the {pipeline} pipeline has no stage that syncs the feature (loom’s index-update)', zh: '{pipeline} 流水线没有同步功能的阶段（loom 的 index-update）' },
  'sync.notAtStage': { en: '{specDir} is at {stage}; Loom syncs a feature at {sync}. Nothing was written', zh: '{specDir} 处于 {stage}；Loom 在 {sync} 阶段同步功能。未写入任何内容' },
  'sync.notAtStage.reason': {
    en: 'the feature’s memory is written, the branch pushed and its pull request opened once the review is answered and the spec is at {sync}; it is at {stage}',
    zh: '审查答复完成、规格到达 {sync} 后才更新记忆并交付分支；当前在 {stage}',
  },
  'handOn.title': { en: 'feat: {feature}', zh: 'feat: {feature}' },
  'handOn.body': {
    en: 'Feature {feature} ({specDir}), built with loom. Verification: {verdict}. Requirements: {requirements}. See {specDir}/verify-report.md and {specDir}/review-response.md.',
    zh: '功能 {feature}（{specDir}），由 loom 流水线完成。验证：{verdict}。需求：{requirements}。详见 {specDir}/verify-report.md 与 {specDir}/review-response.md。',
  },
  'handOn.commands': { en: 'Hand the branch on with:', zh: '用以下命令交付分支：' },
} as const satisfies MessageTable;
