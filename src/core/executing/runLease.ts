import { SpecLockedError } from '../errors';
import { t } from '../messages';
import { acquireRunLock, lockStartedAt, readRunLock, RUN_LOCK_FILE, type SpecLocation } from '../store/runLock';

/**
 * The executing loop holds the spec's `.loom-run.lock` for its whole run (the core's one run
 * lock), so no other process (another window, loom's CLI) drives the spec meanwhile; the writes
 * the run makes take the same lock again and go through. Inside one process a registry of specs
 * and tasks keeps a second run, or a second dispatch of one task, from starting.
 *
 * A task's claim belongs to the run that made it: whatever way the run ends (completed, stopped,
 * or an actor that failed and so never stopped its children, as XState leaves them), letting go
 * of the spec's lease lets go of every claim made under it. A claim lives in this process only,
 * so a process that died leaves none behind; its lock file is stale and taken over.
 */
const activeSpecs = new Set<string>();
const activeTasks = new Map<string, Set<string>>();

export function acquireSpecLease(spec: SpecLocation, now: string): () => void {
  if (activeSpecs.has(spec.dir)) throw new SpecLockedError(`${spec.specDir} is already executing in this window`, `${spec.specDir}/${RUN_LOCK_FILE}`, process.pid);
  const release = acquireRunLock(spec, { now, forRun: true });
  activeSpecs.add(spec.dir);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    activeSpecs.delete(spec.dir);
    activeTasks.delete(spec.dir);
    release();
  };
}

/**
 * Loom: Run Pipeline holds the same lock, for a run's token, for its whole run: a second window
 * (another extension host, another process) is refused and told who holds it, as another window's
 * Run Tasks is. Within one window the host keeps one run per spec; the work the run starts here
 * (Run Tasks's lease, every write) takes the lock again, which this process holds.
 */
export function acquirePipelineLease(spec: SpecLocation, now: string): () => void {
  return acquireRunLock(spec, { now, forRun: true });
}

/** Why a pipeline run cannot start: who holds the spec's lock (pid, since when, the lock file). */
export function pipelineHeldElsewhere(spec: SpecLocation, e: SpecLockedError): string {
  const lock = readRunLock(spec.dir);
  return t('run.pipeline.heldElsewhere', { specDir: spec.specDir, pid: e.pid, since: (lock && lockStartedAt(lock.raw)) ?? '-', lock: `${spec.specDir}/${RUN_LOCK_FILE}` });
}

/** Claims one task of one spec for a dispatch; the returned function gives it back (so does the end of the spec's lease). */
export function claimTask(specDir: string, task: string): () => void {
  let claimed = activeTasks.get(specDir);
  if (claimed?.has(task)) throw new SpecLockedError(`${task} is already being dispatched`, specDir, process.pid);
  if (!claimed) activeTasks.set(specDir, (claimed = new Set()));
  claimed.add(task);
  const mine = claimed;
  return () => {
    mine.delete(task);
    if (mine.size === 0 && activeTasks.get(specDir) === mine) activeTasks.delete(specDir);
  };
}
