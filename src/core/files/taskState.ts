import type { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';
import { TASK_ID_PATTERN, TASK_STATUSES } from './vocabulary';

/** `task-states/TN.state.json`. */
export const TaskStateSchema = lazySchema((z) =>
  z.looseObject({
    task_id: z.string().regex(TASK_ID_PATTERN, 'task_id must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$'),
    spec_dir: z.string().optional(),
    status: z.enum(TASK_STATUSES),
    retry_count: z.number().int().min(0).default(0),
    agent_session_id: z.string().nullable().optional(),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
    last_reviewer_result: z.string().nullable().optional(),
    blocker: z.string().nullable().optional(),
  }),
);
export type TaskState = z.infer<ReturnType<typeof TaskStateSchema>>;

export const TASK_STATES_DIR = 'task-states';
export const taskStateFile = (taskId: string) => `${TASK_STATES_DIR}/${taskId}.state.json`;
