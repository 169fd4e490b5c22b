import type { TaskState } from '../../files/taskState';
import { parseFixInstructions } from '../dispatch/fixInstructions';
import { taskMetadata } from '../specStateStore';
import type { TaskRunRecord } from './taskRunRecord';

/**
 * A task state loom (or a person following its loop) wrote, without Loom's run record: its last
 * review FAILED and its blocker holds the reviewer's fix instructions (`## 修复指令` /
 * `## Fix instructions`). loom's loop goes on with the implementer in fix mode on those items
 * (subagent-driven-development: "提取修复指令，派发 implementer（修复模式）"), not with another
 * review; so does the run, the items kept in its record. Undefined for anything else.
 */
export function loomReviewToFix(state: TaskState | undefined): TaskRunRecord | undefined {
  if (!state || Object.keys(taskMetadata(state)).length > 0) return undefined;
  if (!['reviewing', 'executing', 'blocked'].includes(state.status)) return undefined;
  if (!/^\s*FAIL\b/i.test(state.last_reviewer_result ?? '')) return undefined;
  const items = parseFixInstructions(state.blocker ?? '');
  return items.length ? { mode: 'fix', step: 'implement', fix_items: items } : undefined;
}
