import type { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import type { TaskState } from '../../files/taskState';
import type { BreakerRecord } from './circuitBreaker';
import type { FixItem } from '../dispatch/fixInstructions';
import type { ExportedInterface } from '../dispatch/implementerReport';
import type { ContextAnswer } from '../dispatch/promptBuilder';
import { taskMetadata } from '../specStateStore';

/**
 * The loop's bookkeeping for one task, kept in the task state's `metadata` so a crash or a
 * window reload resumes where it stopped: the diff base, the current step and mode, the fix
 * items still to do, the user's answers, what the implementer claimed, and the breaker. Read
 * leniently (a hand-edited field is dropped, not fatal).
 */
const FixItemSchema = lazySchema((z) =>
  z.object({ problem: z.string(), file: z.string().optional(), location: z.string().optional(), severity: z.string().optional(), direction: z.string().optional() }),
);
const BreakerSchema = lazySchema((z) =>
  z.looseObject({
    reason: z.union([
      z.object({ kind: z.literal('retries'), retryCount: z.number(), maxRetries: z.number() }),
      z.object({ kind: z.literal('timeout'), role: z.string(), minutes: z.number() }),
      z.object({ kind: z.literal('conflict'), files: z.array(z.string()), uncommitted: z.boolean().optional() }),
      z.object({ kind: z.literal('outside-owns'), files: z.array(z.string()) }),
    ]),
    opened_at: z.string(),
    last_issues: z.array(z.string()).default([]),
    task_sha256: z.string().optional(),
    choice: z.enum(['A', 'B', 'C']).optional(),
    chosen_at: z.string().optional(),
  }),
);

const CheckpointSchema = lazySchema((z) => z.object({ commit: z.string(), parent: z.string(), branch: z.string(), files: z.array(z.string()), at: z.string(), partial: z.boolean().optional() }));
const OwnWorktreeSchema = lazySchema((z) => z.object({ path: z.string(), branch: z.string(), from: z.string() }));

const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export const TaskRunRecordSchema = lazySchema((z) =>
  z.looseObject({
    base: lenient(z.string()),
    step: lenient(z.enum(['implement', 'review', 'close', 'merge'])),
    mode: lenient(z.enum(['first', 'fix'])),
    fix_items: lenient(z.array(FixItemSchema())),
    answers: lenient(z.array(z.object({ question: z.string(), answer: z.string() }))),
    awaiting_context: lenient(z.string()),
    declared_tests: lenient(z.record(z.string(), z.array(z.string()))),
    summary: lenient(z.string()),
    exported_interfaces: lenient(z.array(z.object({ name: z.string(), path: z.string(), signature: z.string().optional() }))),
    concerns: lenient(z.string()),
    implementer_status: lenient(z.string()),
    breaker: lenient(BreakerSchema()),
    skipped: lenient(z.object({ at: z.string(), because: z.string().optional() })),
    completed_at: lenient(z.string()),
    checkpoints: lenient(z.array(CheckpointSchema())),
    worktree: lenient(OwnWorktreeSchema()),
    task_commit: lenient(z.string()),
    conflict: lenient(z.object({ head: z.string(), tree: z.string() })),
    problems_before: lenient(z.record(z.string(), z.array(z.string()))),
    diff_owns: lenient(z.boolean()),
    artifacts: lenient(z.array(z.string())),
    behavior_tests: lenient(z.record(z.string(), z.array(z.string()))),
    evidence: lenient(z.string()),
  }),
);

export interface TaskRunRecord {
  [key: string]: unknown;
  base?: string;
  /** `close`: the review passed; tests, evidence and the handoff are left to do. `merge`: its checkpoint waits to be merged into the feature branch. */
  step?: 'implement' | 'review' | 'close' | 'merge';
  mode?: 'first' | 'fix';
  fix_items?: FixItem[];
  answers?: ContextAnswer[];
  awaiting_context?: string;
  declared_tests?: Record<string, string[]>;
  summary?: string;
  exported_interfaces?: ExportedInterface[];
  concerns?: string;
  implementer_status?: string;
  breaker?: BreakerRecord;
  skipped?: { at: string; because?: string };
  completed_at?: string;
  /** The task's checkpoints on the feature branch, oldest first (a fix after a rejected file may add one). */
  checkpoints?: CheckpointRecord[];
  /** The worktree of its own a task of a parallel batch works in, its branch, and the commit it started from. */
  worktree?: { path: string; branch: string; from: string };
  /** Its checkpoint on its own branch, waiting to be merged. */
  task_commit?: string;
  /** The merge that conflicted: the feature branch's head and the merge result with conflict markers (choice B puts it in the worktree). */
  conflict?: { head: string; tree: string };
  /** The errors of its files in the Problems panel when it started (evidence/problems.ts). */
  problems_before?: Record<string, string[]>;
  /** Its diff is limited to its owns (a fix after a rejected file, with later tasks' changes around it). */
  diff_owns?: boolean;
  /** Once its checks passed (taskClosure.ts): the files it changed, each behavior's tests, its test log. */
  artifacts?: string[];
  behavior_tests?: Record<string, string[]>;
  evidence?: string;
}

/** A task's commit on the feature branch: `T3: <title>` with its trailers (src/core/git/checkpoints.ts). */
export interface CheckpointRecord {
  commit: string;
  parent: string;
  branch: string;
  /** The paths it changed. */
  files: string[];
  at: string;
  /** Work the breaker's choice kept although the task is not done (Loom-Result: partial). */
  partial?: boolean;
}

export function readTaskRunRecord(state: TaskState | undefined): TaskRunRecord {
  const parsed = TaskRunRecordSchema().safeParse(taskMetadata(state));
  const out = (parsed.success ? parsed.data : {}) as TaskRunRecord;
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/** Merges what one implementer dispatch claimed into what earlier ones did. */
export function mergeDeclaredTests(into: Record<string, string[]> | undefined, found: ReadonlyMap<string, readonly string[]>): Record<string, string[]> {
  const out = new Map<string, string[]>(Object.entries(into ?? {}));
  for (const [b, refs] of found) out.set(b, [...new Set([...(out.get(b) ?? []), ...refs])]);
  return Object.fromEntries(out);
}
