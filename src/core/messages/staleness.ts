import type { MessageTable } from './catalogTypes';

/** Staleness as the Problems panel shows it (src/core/specdir/staleness.ts). */
export const stalenessMessages = {
  'staleness.handoff': { en: '{handoff} is stale: {path} changed since it was written', zh: '{handoff} 已过期：写入后 {path} 有改动' },
  'staleness.approval': {
    en: 'the approval of {stage} is stale: {changed} changed since; re-approval is needed',
    zh: '{stage} 的批准已过期：此后 {changed} 有改动；需要重新批准',
  },
  'staleness.approvalAt': {
    en: 'the approval of {stage} ({approvedAt}) is stale: {changed} changed since; re-approval is needed',
    zh: '{stage} 的批准（{approvedAt}）已过期：此后 {changed} 有改动；需要重新批准',
  },
  'staleness.derived': { en: '{output} (from {stage}) is older than {input}, which it is derived from', zh: '{output}（来自 {stage}）比它所依据的 {input} 更旧' },
} as const satisfies MessageTable;
