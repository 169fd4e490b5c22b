import { z } from 'zod';
import { taskStateFile, type TaskState } from '../../core/files/taskState';
import { TASK_ID_PATTERN, TASK_STATUSES } from '../../core/files/vocabulary';
import { specTaskIds } from '../../core/specdir/loadSpec';
import { writeTaskState } from '../../core/store/stateStore';
import { unknownTask } from '../specAccess';
import { specOf, writeUnderLock } from '../specAccess';
import { defineTool } from '../tool';

export const updateTaskState = defineTool({
  name: 'loom_update_task_state',
  group: 'pipeline',
  description: 'Set one task’s status in task-states/<task>.state.json (and progress.md). failed adds one to retry_count. Only the agent responsible for the task calls this.',
  input: z.object({
    spec_dir: z.string().optional().describe('Spec directory (optional if attached)'),
    task_id: z.string().regex(TASK_ID_PATTERN, 'a task id such as T1').describe('Task id, e.g. T1'),
    status: z.enum(TASK_STATUSES).describe(TASK_STATUSES.join(' | ')),
    blocker: z.string().optional().describe('Why the task is blocked (with status blocked)'),
  }),
  writes: ['task-states/<task>.state.json', 'progress.md'],
  run: (args, ctx) => {
    const { spec } = specOf(ctx, args.spec_dir);
    const known = specTaskIds(spec.snapshot);
    if (!known.includes(args.task_id)) throw unknownTask(spec, args.task_id);
    const task = writeUnderLock(ctx, spec, taskStateFile(args.task_id), (fresh) => {
      const now = ctx.now();
      const current = fresh.taskStates.get(args.task_id);
      const next: TaskState = {
        ...current,
        task_id: args.task_id,
        spec_dir: fresh.specDir,
        status: args.status,
        retry_count: (current?.retry_count ?? 0) + (args.status === 'failed' ? 1 : 0),
        blocker: args.blocker ?? (args.status === 'blocked' ? (current?.blocker ?? null) : null),
        created_at: current?.created_at ?? now,
        updated_at: now,
      };
      writeTaskState(fresh, next, now);
      return next;
    });
    return { ok: true, task };
  },
});
