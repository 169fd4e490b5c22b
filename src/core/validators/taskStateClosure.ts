import { readableReview } from '../executing/dispatch/fixInstructions';
import { TASK_STATES_DIR } from '../files/taskState';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { FindingList, listResult, SpecLines, unreadableFile } from './findingSupport';
import type { ValidatorOptions, ValidatorResult } from './validatorResult';
import { t } from '../messages';

/**
 * A blocker may hold a whole list of fix instructions (`## 修复指令`, `### 修复项 1`); a reason
 * shows the words before them, else the first item's problem, never the bare heading.
 */
function blockerLine(text: string): string {
  const { summary, items } = readableReview(text);
  if (summary) return summary;
  if (items[0]) return items.length > 1 ? t('validator.taskState.blockerItems', { problem: items[0].problem, more: items.length - 1 }) : items[0].problem;
  return text
    .trim()
    .split(/\r?\n/)[0]
    .replace(/^#+\s*/, '');
}

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
      list.add({ ...unreadableFile(s, file, 'invalid')!, ...taskId(id), suggested_fix: { details: t('validator.taskState.repair', { file }) } });
    } else if (!state) {
      list.add(
        {
          kind: 'missing',
          severity: 'error',
          ...taskId(id),
          artifact: file,
          message: t('validator.taskState.missing', { task: id, file }),
          location: { file: `tasks/${id}.md`, line: 1 },
          suggested_fix: { details: t('validator.taskState.runIt', { task: id, file }) },
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
          message: state.blocker
            ? t('validator.taskState.notDoneBlocker', { task: id, status: state.status, blocker: blockerLine(state.blocker) })
            : t('validator.taskState.notDone', { task: id, status: state.status }),
          location: lines.at(file, lines.jsonLine(file, ['status'])),
          suggested_fix: {
            details:
              state.status === 'blocked'
                ? t('validator.taskState.settleBlocker', { task: id })
                : state.status === 'failed'
                  ? t('validator.taskState.fixFailure', { task: id })
                  : t('validator.taskState.finish', { task: id }),
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
      message: t('validator.taskState.extra', { file, task: id }),
      location: lines.at(file, lines.jsonLine(file, ['task_id'])),
      suggested_fix: { details: t('validator.taskState.deleteExtra', { file, task: id }) },
    });
  }
  return listResult(TASK_STATE_CLOSURE, list);
}
