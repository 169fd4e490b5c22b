import { TASK_STATES_DIR } from '../files/taskState';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { FindingList, listResult, SpecLines, unreadableFile } from './findingSupport';
import type { ValidatorOptions, ValidatorResult } from './validatorResult';

/** A blocker may hold a whole list of fix instructions; a reason shows its first line. */
const firstLine = (text: string) =>
  text
    .trim()
    .split(/\r?\n/)[0]
    .replace(/^#+\s*/, '');

export const TASK_STATE_CLOSURE = 'task-state-closure';

const stateFile = (id: string) => `${TASK_STATES_DIR}/${id}.state.json`;
/** finding.schema.json only takes `T<number>` as a task_id. */
const taskId = (id: string) => (/^T\d+$/.test(id) ? { task_id: id } : {});

/**
 * Every tasks/TN.md has task-states/TN.state.json with status done; no TN state without its task.
 * As in loom, a spec without task files passes, and only states of `T<number>` tasks can be extra.
 * A task without a state is a finding on its task file; a task not done, on its state file's
 * `status`; a state file that does not read, on its first error; an extra one, on its `task_id`.
 * A task not run or not finished yet is work in progress, not a fault: only a failed or blocked
 * one is an error in the Problems panel (all of them block leaving executing).
 */
export function taskStateClosure(s: SpecSnapshot, options: ValidatorOptions = {}): ValidatorResult {
  const list = new FindingList('TS');
  const lines = new SpecLines(s, options.locate !== false);
  for (const id of s.tasks.keys()) {
    const file = stateFile(id);
    const state = s.taskStates.get(id);
    if (!state && s.files.has(file)) {
      list.add({ ...unreadableFile(s, file, 'invalid')!, ...taskId(id), suggested_fix: { details: `repair or delete ${file}; loom never overwrites it` } });
    } else if (!state) {
      list.add(
        {
          kind: 'missing',
          severity: 'error',
          ...taskId(id),
          artifact: file,
          message: `${id} has no ${file}`,
          location: { file: `tasks/${id}.md`, line: 1 },
          suggested_fix: { details: `run ${id}: executing it records its state in ${file}` },
        },
        undefined,
        { inProgress: true },
      );
    } else if (state.status !== 'done') {
      list.add(
        {
          kind: 'partial',
          severity: 'error',
          ...taskId(id),
          artifact: file,
          message: `${id} is ${state.status}, not done${state.blocker ? ` (blocker: ${firstLine(state.blocker)})` : ''}`,
          location: lines.at(file, lines.jsonLine(file, ['status'])),
          suggested_fix: {
            details: state.status === 'blocked' ? `settle ${id}'s blocker, then run it again` : state.status === 'failed' ? `fix what failed in ${id}, then run it again` : `finish ${id}`,
          },
        },
        undefined,
        { inProgress: state.status !== 'blocked' && state.status !== 'failed' },
      );
    }
  }
  if (s.tasks.size === 0) return listResult(TASK_STATE_CLOSURE, list);
  for (const id of s.taskStates.keys()) {
    if (!/^T\d+$/i.test(id) || s.tasks.has(id)) continue;
    const file = stateFile(id);
    list.add({
      kind: 'unrequested',
      severity: 'error',
      ...taskId(id),
      artifact: file,
      message: `${file} has no tasks/${id}.md`,
      location: lines.at(file, lines.jsonLine(file, ['task_id'])),
      suggested_fix: { details: `delete ${file}, or restore tasks/${id}.md` },
    });
  }
  return listResult(TASK_STATE_CLOSURE, list);
}
