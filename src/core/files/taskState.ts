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

/** The keys of TaskStateSchema, in its order (the order zod's output has them in). */
const TASK_STATE_KEYS = ['task_id', 'spec_dir', 'status', 'retry_count', 'agent_session_id', 'created_at', 'updated_at', 'last_reviewer_result', 'blocker'] as const;
const TASK_STATUS_SET: ReadonlySet<unknown> = new Set(TASK_STATUSES);
const NULLABLE_TEXT: ReadonlySet<string> = new Set(['agent_session_id', 'last_reviewer_result', 'blocker']);

/**
 * A parsed task state as TaskStateSchema would give it, when the JSON value is plainly in the
 * shape loom writes; undefined for anything else, which zod then checks and words. A status run
 * reads twenty thousand task states at a thousand specs, and zod's checks of them, in the fresh
 * process of each run, cost about as much as reading the files: this check costs a fraction of
 * that. Its answers are zod's, key order included (test/unit/files/taskState.test.ts compares
 * the two on every shape of input).
 */
export function plainTaskState(raw: unknown): TaskState | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || Object.hasOwn(raw, '__proto__')) return undefined;
  const value = raw as Record<string, unknown>;
  const { task_id, status, retry_count } = value;
  if (typeof task_id !== 'string' || !TASK_ID_PATTERN.test(task_id) || !TASK_STATUS_SET.has(status)) return undefined;
  if (retry_count !== undefined && !(typeof retry_count === 'number' && Number.isSafeInteger(retry_count) && retry_count >= 0)) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of TASK_STATE_KEYS) {
    if (!Object.hasOwn(value, key)) {
      if (key === 'retry_count') out.retry_count = 0;
      continue;
    }
    const v = value[key];
    if (key !== 'task_id' && key !== 'status' && key !== 'retry_count' && typeof v !== 'string' && !(v === null && NULLABLE_TEXT.has(key))) return undefined;
    out[key] = v;
  }
  for (const key of Object.keys(value)) if (!(TASK_STATE_KEYS as readonly string[]).includes(key)) out[key] = value[key];
  return out as TaskState;
}
