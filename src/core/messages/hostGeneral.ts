import type { MessageTable } from './catalogTypes';

/** What the extension's host shows in src/host/*.ts and src/extensionEntry.ts, in English and Chinese. */
export const hostGeneralMessages = {
  'host.general.loom': { en: 'Loom ({name})', zh: 'Loom（{name}）' },
  'host.general.loomActiveSpec': { en: 'Loom: active spec', zh: 'Loom: 当前规格' },
  'host.general.somethingSpecWasApprovedDerived': {
    en: 'Something this spec was approved or derived from changed since: see the Loom view.',
    zh: '此规格批准或派生所依据的内容已变更：请查看 Loom 视图。',
  },
  'host.general.blocked': { en: 'Blocked: {firstUnmet}', zh: '受阻：{firstUnmet}' },
  'host.general.clickOpenPipelineStateJson': { en: 'Click to open pipeline.state.json at the error', zh: '点击在错误处打开 pipeline.state.json' },
  'host.general.clickRecoverSpec': { en: 'Click to recover this spec', zh: '点击恢复此规格' },
  'host.general.clickSeeWhatBlocksSpec': { en: 'Click to see what blocks this spec', zh: '点击查看阻止此规格的原因' },
  'host.general.clickAdvanceSpec': { en: 'Click to advance this spec', zh: '点击推进此规格' },
  'host.general.approvalStale': { en: 'approval stale', zh: '批准已过期' },
  'host.general.loomSpecStage': { en: 'Loom spec {feature}, stage {stageText}', zh: 'Loom 规格 {feature}，阶段 {stageText}' },
  'host.general.workspaceNotTrustedSoLoom': {
    en: 'This workspace is not trusted, so Loom is read-only here: nothing is written. Trust the workspace to advance specs.',
    zh: '此工作区不受信任，因此 Loom 在此为只读：不会写入任何文件。信任此工作区后才能推进规格。',
  },
  'host.general.justNow': { en: 'just now', zh: '刚刚' },
  'host.general.mAgo': { en: '{minutes}m ago', zh: '{minutes} 分钟前' },
  'host.general.hAgo': { en: '{hours}h ago', zh: '{hours} 小时前' },
  'host.general.dAgo': { en: '{days}d ago', zh: '{days} 天前' },
} as const satisfies MessageTable;
