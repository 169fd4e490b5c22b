import { z } from 'zod';
import { TASK_ID_PATTERN, TASK_STATUSES } from '../../core/port/vocabulary';
import { request } from '../../core/port/request';
import { refusalOf } from '../answers';
import { specOf } from '../specAccess';
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
  // The spec's actor writes it, as loom's updateTask does, whichever surface asks.
  run: async (args, ctx) => {
    const { spec } = specOf(ctx, args.spec_dir);
    const answer = await request(spec, { type: 'setTaskState', task: args.task_id, status: args.status, blocker: args.blocker }, { now: ctx.now() });
    if (answer.kind !== 'changed') throw refusalOf(answer as never, spec, 'loom_update_task_state');
    return { ok: true, task: answer.task };
  },
});
