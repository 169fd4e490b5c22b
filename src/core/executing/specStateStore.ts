import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptStateError } from '../errors';
import { taskStateFile, TaskStateSchema, type TaskState } from '../files/taskState';
import { putBackTaskState, writeTaskState } from '../store/stateStore';
import { loadSpec } from '../specdir/loadSpec';
import type { SpecSnapshot } from '../specdir/specSnapshot';

/**
 * The loop's only way to its task states, through the core's writeTaskState (which regenerates
 * progress.md). Every write starts from the files as they are now, so progress.md shows every
 * task's latest state and a corrupt file is reported, never overwritten. The spec's state
 * (pipeline.state.json) is only read here: what the run keeps in it is written by the spec's
 * actor (the run's RunRecorder, pipeline/effects/runRecord.ts).
 */
export class SpecStateStore {
  constructor(
    readonly repoRoot: string,
    readonly dir: string,
    private readonly now: () => string,
  ) {}

  snapshot(): SpecSnapshot {
    return loadSpec(this.repoRoot, this.dir);
  }

  /** The task's state on disk; undefined when it has none. Throws CorruptStateError when it does not parse. */
  taskState(task: string): TaskState | undefined {
    const rel = taskStateFile(task);
    let text: string;
    try {
      text = readFileSync(join(this.dir, rel), 'utf8');
    } catch {
      return undefined;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new CorruptStateError(`${rel} is not valid JSON (${(e as Error).message}); fix or delete it, it was left untouched`, rel);
    }
    const parsed = TaskStateSchema().safeParse(raw);
    if (!parsed.success) throw new CorruptStateError(`${rel} is not a valid task state: ${parsed.error.issues[0]?.message}; fix or delete it, it was left untouched`, rel);
    return parsed.data;
  }

  /** The task's state file as it is on disk, byte for byte; undefined when it has none. */
  taskStateText(task: string): string | undefined {
    try {
      return readFileSync(join(this.dir, taskStateFile(task)), 'utf8');
    } catch {
      return undefined;
    }
  }

  /** Puts the task's state file back as `text` was (removed when undefined), progress.md with it. */
  putBackTask(task: string, text: string | undefined): void {
    putBackTaskState(this.snapshot(), task, text, this.now());
  }

  writeTask(state: TaskState): TaskState {
    const now = this.now();
    const snapshot = this.snapshot();
    // The machine's copy of a task state may not carry created_at yet; the file's is kept.
    const next: TaskState = { ...state, updated_at: now, created_at: state.created_at ?? snapshot.taskStates.get(state.task_id)?.created_at ?? now };
    next.spec_dir ??= snapshot.specDir;
    writeTaskState(snapshot, next, now);
    return next;
  }

  /** Reads one key of pipeline.state.json metadata. */
  metadata(key: string): unknown {
    const meta = this.snapshot().state?.metadata ?? {};
    return Object.hasOwn(meta, key) ? meta[key] : undefined;
  }
}

/** The loop's own bookkeeping inside a task state (`metadata`), kept beside loom's fields. */
export function taskMetadata(state: TaskState | undefined): Record<string, unknown> {
  const m = state && Object.hasOwn(state, 'metadata') ? (state as Record<string, unknown>).metadata : undefined;
  return m && typeof m === 'object' && !Array.isArray(m) ? { ...(m as Record<string, unknown>) } : {};
}
