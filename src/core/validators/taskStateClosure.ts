import { result, type ValidatorResult } from './validatorResult';
import type { SpecSnapshot } from '../spec/specSnapshot';

/** A blocker may hold a whole list of fix instructions; a reason shows its first line. */
const firstLine = (text: string) => text.trim().split(/\r?\n/)[0].replace(/^#+\s*/, '');

export const TASK_STATE_CLOSURE = 'task-state-closure';

/**
 * Every tasks/TN.md has task-states/TN.state.json with status done; no TN state without its task.
 * As in loom, a spec without task files passes, and only states of `T<number>` tasks can be extra.
 */
export function taskStateClosure(s: SpecSnapshot): ValidatorResult {
  const problems: string[] = [];
  for (const id of s.tasks.keys()) {
    const state = s.taskStates.get(id);
    if (!state) problems.push(`${id} has no task-states/${id}.state.json`);
    else if (state.status !== 'done') problems.push(`${id} is ${state.status}, not done${state.blocker ? ` (blocker: ${firstLine(state.blocker)})` : ''}`);
  }
  if (s.tasks.size === 0) return result(TASK_STATE_CLOSURE, problems);
  for (const id of s.taskStates.keys()) {
    if (/^T\d+$/i.test(id) && !s.tasks.has(id)) problems.push(`task-states/${id}.state.json has no tasks/${id}.md`);
  }
  return result(TASK_STATE_CLOSURE, problems);
}
