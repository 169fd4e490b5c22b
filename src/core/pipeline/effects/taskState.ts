import type { TaskState } from '../../files/taskState';
import { taskStateFile } from '../../files/taskState';
import { TASK_ID_PATTERN, TASK_STATUSES, type TaskStatus } from '../../files/vocabulary';
import { t } from '../../messages';
import { specTaskIds } from '../../specdir/loadSpec';
import { stageOnDisk, type PipelineContext, type PipelineEvent } from '../machineTypes';
import type { PipelineDefinition } from '../pipelineDefinition';
import { answerWith, type Sender } from './answered';
import { unreadableFile, type RequestProblem } from './requestProblem';

/** Why a task state cannot be written as asked (a bad id or status, a task the plan lacks, an unreadable file); undefined when it can. */
export function taskStateProblem(context: PipelineContext, event: Extract<PipelineEvent, { type: 'SET_TASK_STATE' }>): RequestProblem | undefined {
  const { specDir } = context.facts;
  if (!TASK_ID_PATTERN.test(event.task)) return { message: t('port.badTaskId', { id: event.task }), code: 'invalid-request' };
  if (!(TASK_STATUSES as readonly string[]).includes(event.status)) return { message: t('port.unknownStatus', { status: event.status, statuses: TASK_STATUSES.join(', ') }), code: 'invalid-request' };
  const known = specTaskIds(context.facts);
  if (!known.includes(event.task)) return { message: t('port.unknownTask', { specDir, task: event.task, tasks: known.join(', ') || '-' }), code: 'unknown-task' };
  return unreadableFile(context.facts, taskStateFile(event.task));
}

/**
 * loom's `run --task --task-status` and `loom_update_task_state` (state-store.js updateTask):
 * a missing state starts as initTask writes it; `failed` counts a retry when a state existed
 * before; the blocker is set only when given, and kept otherwise.
 */
export function setTaskState(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender): void {
  if (event.type !== 'SET_TASK_STATE') return;
  answerWith(self, event.id, () => {
    const current = context.facts.taskStates.get(event.task);
    const status = event.status as TaskStatus;
    const start: TaskState = current ?? {
      task_id: event.task,
      // loom's initTask writes the absolute spec directory (PipelineStateStore.specDir); both forms are read.
      spec_dir: context.facts.dir,
      status: 'pending',
      retry_count: 0,
      agent_session_id: null,
      created_at: event.now,
      updated_at: event.now,
      last_reviewer_result: null,
      blocker: null,
    };
    const task: TaskState = {
      ...start,
      status,
      ...(event.blocker ? { blocker: event.blocker } : {}),
      ...(current && status === 'failed' ? { retry_count: (current.retry_count ?? 0) + 1 } : {}),
      updated_at: event.now,
    };
    context.store.writeTaskState(context.facts, task, event.now);
    const here = stageOnDisk(def, context.facts);
    return { answer: { kind: 'changed', intent: 'setTaskState', from: here, to: here, task } };
  });
}
