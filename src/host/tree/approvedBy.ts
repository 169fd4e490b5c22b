import type { StageHistoryEntry } from '../../core/port/files';
import { t } from '../../core/port/messages';

/** The history's `approved_by` (src/core/pipeline/personRule.ts), when it is in the shape Loom writes. */
function approvedBy(v: StageHistoryEntry): { by: 'person' | 'agent'; through?: string } | undefined {
  const a = v.approved_by as { by?: unknown; through?: unknown } | undefined;
  if (!v.approval || !a || typeof a !== 'object' || (a.by !== 'person' && a.by !== 'agent')) return undefined;
  return { by: a.by, ...(typeof a.through === 'string' ? { through: a.through } : {}) };
}

/** Who approved a visit and through what, for its line in a stage's hover; undefined when the history does not say. */
export function approvedByText(v: StageHistoryEntry): string | undefined {
  const a = approvedBy(v);
  if (!a) return undefined;
  return t(a.by === 'person' ? 'agentHost.tree.approvedByPerson' : 'agentHost.tree.approvedByAgent', { through: a.through ?? '?' });
}

/** A stage approved only on an agent's word says so on its row. */
export const onAgentWord = (v: StageHistoryEntry | undefined): boolean => v !== undefined && approvedBy(v)?.by === 'agent';
