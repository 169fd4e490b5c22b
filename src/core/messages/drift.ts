import type { MessageTable } from './catalogTypes';

/** Drift of a synced spec from its code (src/core/drift): every surface words it from here. */
export const driftMessages = {
  'drift.summary.drifted': {
    en: '{count, plural, one {# file} other {# files}} changed since {baseline}',
    zh: '自 {baseline} 以来有 {count} 个文件变更',
  },
  'drift.summary.clean': { en: 'true to the code since {baseline}', zh: '自 {baseline} 以来与代码一致' },
  'drift.summary.noBaseline': {
    en: 'no baseline: no commit records the move to synced (commit pipeline.state.json, or Accept as Accurate)',
    zh: '没有基线：没有提交记录进入 synced（请提交 pipeline.state.json，或“确认准确”）',
  },
  'drift.summary.shallow': {
    en: 'a shallow clone without the baseline commit: fetch the full history (git fetch --unshallow, actions/checkout fetch-depth: 0)',
    zh: '浅克隆中没有基线提交：请获取完整历史（git fetch --unshallow，actions/checkout 的 fetch-depth: 0）',
  },
  'drift.summary.unknownBaseline': { en: 'the baseline {baseline} is not a commit of this repository (history rewritten?)', zh: '基线 {baseline} 不是本仓库的提交（历史被改写？）' },
  'drift.baseline.inferred': { en: '{commit} (inferred from git history)', zh: '{commit}（由 git 历史推断）' },
  'drift.change.modified': { en: 'modified', zh: '已修改' },
  'drift.change.added': { en: 'added', zh: '已新增' },
  'drift.change.deleted': { en: 'deleted', zh: '已删除' },
  'drift.change.renamed': { en: 'renamed to {to}', zh: '已重命名为 {to}' },
  'drift.file': { en: '{specDir}: {file} {change} by {commits} since {baseline}{why}', zh: '{specDir}：{file} 在 {baseline} 之后被 {commits} {change}{why}' },
  'drift.why.tasks': { en: ' (owned by {tasks})', zh: '（由 {tasks} 负责）' },
  'drift.why.behaviors': { en: ' (tests {behaviors})', zh: '（测试 {behaviors}）' },
  'drift.goneTest': {
    en: '{specDir}: the test file {file} is gone ({commit}): {behaviors} no longer have their test',
    zh: '{specDir}：测试文件 {file} 已不存在（{commit}）：{behaviors} 失去了测试',
  },
  'drift.spec': { en: '{specDir}: {summary}', zh: '{specDir}：{summary}' },
  'drift.title': { en: 'Spec drift', zh: '规格漂移' },
  'drift.none': { en: 'no synced spec to check for drift', zh: '没有处于 synced 的规格需要检查漂移' },
  'drift.total': {
    en: '{drifted, plural, =0 {no synced spec drifted} one {# synced spec drifted} other {# synced specs drifted}} ({count} checked)',
    zh: '{drifted} 个 synced 规格发生漂移（共检查 {count} 个）',
  },
} as const satisfies MessageTable;
