import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptStateError, SpecLockedError } from '../errors';
import type { PipelineState } from '../files/pipelineState';
import { PIPELINE_STATE_FILE } from '../files/pipelineState';
import { renderProgress, type StageSymbols } from '../files/progressFile';
import { taskStateFile, type TaskState } from '../files/taskState';
import { toJsonText, writeFileAtomic } from '../fs/atomicWrite';
import { WRITER_VERSION } from '../pipeline/stateRecord';
import { readLock } from '../spec/runLock';
import type { SpecSnapshot } from '../spec/specSnapshot';

const LOCK_FILE = '.loom-run.lock';

/**
 * Runs `write` while holding the spec's `.loom-run.lock`, in loom's own format (lock.js):
 * `pid\nstarted_at\ntoken`, so that a `loom run` started meanwhile sees a live holder and waits
 * instead of taking the lock. A live lock of another process blocks with its pid; a stale lock
 * (its process is gone, or no pid can be read) is replaced. Releasing removes the file only while
 * it still holds our token, as loom does, so a lock someone forced in the meantime survives.
 */
export function withRunLock<T>(snapshot: SpecSnapshot, write: () => T): T {
  const path = join(snapshot.dir, LOCK_FILE);
  const rel = `${snapshot.specDir}/${LOCK_FILE}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const lock = readLock(path);
      if (lock && !lock.stale && lock.pid !== process.pid) {
        const started = lock.raw.split('\n')[1]?.trim();
        throw new SpecLockedError(`${snapshot.specDir} is being driven by another process (pid ${lock.pid}${started ? `, started ${started}` : ''}, ${rel}); nothing was written`, rel, lock.pid);
      }
      if (lock?.pid === process.pid) return write();
      rmSync(path, { force: true });
      continue;
    }
    const token = randomBytes(8).toString('hex');
    try {
      writeSync(fd, lockText(process.pid, new Date().toISOString(), token));
    } finally {
      closeSync(fd);
    }
    try {
      return write();
    } finally {
      releaseLock(path, token);
    }
  }
  throw new SpecLockedError(`${rel} could not be acquired`, rel, 0);
}

/** The content of `.loom-run.lock` as loom writes it. */
export const lockText = (pid: number, startedAt: string, token: string) => `${pid}\n${startedAt}\n${token}`;

function releaseLock(path: string, token: string): void {
  let held: string | undefined;
  try {
    held = readFileSync(path, 'utf8').trim().split('\n')[2]?.trim();
  } catch {
    return;
  }
  if (held && held !== token) return;
  rmSync(path, { force: true });
}

/**
 * The `loom_version` loom writes into a new state file: the `version` of the repository's
 * package.json, else 2.0.0 (pipeline-engine.js `_readVersion`).
 */
export function loomVersionOf(repoRoot: string): string {
  try {
    const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' && version ? version : WRITER_VERSION;
  } catch {
    return WRITER_VERSION;
  }
}

export function assertStateWritable(snapshot: SpecSnapshot): void {
  if (snapshot.stateCondition === 'invalid') {
    const file = `${snapshot.specDir}/${PIPELINE_STATE_FILE}`;
    throw new CorruptStateError(`${file} is corrupt; fix or restore it first (it was left untouched)`, file);
  }
}

export interface ProgressSources {
  taskStates?: ReadonlyMap<string, TaskState>;
  symbols?: StageSymbols;
}

function progressText(snapshot: SpecSnapshot, state: PipelineState, now: string, sources: ProgressSources): string {
  const taskStates = sources.taskStates ?? snapshot.taskStates;
  const ids = [...new Set([...snapshot.tasks.keys(), ...taskStates.keys()])];
  return renderProgress({
    specName: snapshot.name,
    state,
    tasks: ids.map((id) => ({ id, state: taskStates.get(id) })),
    handoffs: snapshot.handoffs,
    symbols: sources.symbols,
    now,
  });
}

/** Writes pipeline.state.json and regenerates progress.md, atomically and under the run lock. */
export function writePipelineState(snapshot: SpecSnapshot, state: PipelineState, now: string, sources: ProgressSources = {}): void {
  assertStateWritable(snapshot);
  withRunLock(snapshot, () => {
    writeFileAtomic(join(snapshot.dir, PIPELINE_STATE_FILE), toJsonText(state));
    writeFileAtomic(join(snapshot.dir, 'progress.md'), progressText(snapshot, state, now, sources));
  });
}

/** Writes one task state and regenerates progress.md from the pipeline state on disk. */
export function writeTaskState(snapshot: SpecSnapshot, taskState: TaskState, now: string, sources: ProgressSources = {}): void {
  withRunLock(snapshot, () => {
    writeFileAtomic(join(snapshot.dir, taskStateFile(taskState.task_id)), toJsonText(taskState));
    if (snapshot.state) {
      const states = new Map(sources.taskStates ?? snapshot.taskStates);
      states.set(taskState.task_id, taskState);
      writeFileAtomic(join(snapshot.dir, 'progress.md'), progressText(snapshot, snapshot.state, now, { ...sources, taskStates: states }));
    }
  });
}
