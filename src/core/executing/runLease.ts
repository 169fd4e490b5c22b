import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { SpecLockedError } from '../errors';
import { lockText } from '../repository/stateWriter';
import { readLock } from '../spec/runLock';
import type { SpecSnapshot } from '../spec/specSnapshot';

/**
 * The executing loop holds the spec's `.loom-run.lock` for its whole run, so no other process
 * (another window, loom's CLI) drives the spec meanwhile. Writes made under the core's
 * `withRunLock` during the run see our own pid and go through. The lock is written in loom's
 * format (`pid\nstarted_at\ntoken`) and released only while it still holds our token. Inside one process a registry
 * of specs and tasks keeps a second run, or a second dispatch of one task, from starting.
 */
const LOCK_FILE = '.loom-run.lock';
const activeSpecs = new Set<string>();
const activeTasks = new Set<string>();

export function acquireSpecLease(snapshot: Pick<SpecSnapshot, 'dir' | 'specDir'>, now: string): () => void {
  const rel = `${snapshot.specDir}/${LOCK_FILE}`;
  if (activeSpecs.has(snapshot.dir)) throw new SpecLockedError(`${snapshot.specDir} is already executing in this window`, rel, process.pid);
  const path = join(snapshot.dir, LOCK_FILE);
  const token = randomBytes(8).toString('hex');
  let created = false;
  for (let attempt = 0; attempt < 2 && !created; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, lockText(process.pid, now, token));
      } finally {
        closeSync(fd);
      }
      created = true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const lock = readLock(path);
      if (lock && !lock.stale && lock.pid !== process.pid) {
        throw new SpecLockedError(`${snapshot.specDir} is being driven by another process (pid ${lock.pid}, ${rel})`, rel, lock.pid);
      }
      // Stale, or left by this process (a run that crashed inside the same extension host): take it over.
      rmSync(path, { force: true });
    }
  }
  if (!created) throw new SpecLockedError(`${rel} could not be acquired`, rel, 0);
  activeSpecs.add(snapshot.dir);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    activeSpecs.delete(snapshot.dir);
    try {
      if (readFileSync(path, 'utf8').trim().split('\n')[2]?.trim() === token) rmSync(path, { force: true });
    } catch {
      // Already gone.
    }
  };
}

/** Claims one task of one spec for a dispatch; the returned function gives it back. */
export function claimTask(specDir: string, task: string): () => void {
  const key = `${specDir}\u0000${task}`;
  if (activeTasks.has(key)) throw new SpecLockedError(`${task} is already being dispatched`, specDir, process.pid);
  activeTasks.add(key);
  return () => activeTasks.delete(key);
}
