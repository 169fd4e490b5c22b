import { readTextOnce, wroteFile } from '../fs/requestReads';
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SpecLockedError } from '../errors';
import { nodeCrypto } from '../nodeModules';
import { removeOrphanTempFiles } from '../fs/atomicWrite';

/**
 * The spec's `.loom-run.lock`, the one implementation the CLI, the host and the executing stage
 * share. The format is loom's (lock.js): `pid\nstarted_at\ntoken`, created with O_EXCL so that
 * creating it is one system call; a bare number or JSON with `pid` is read too. A lock whose
 * process no longer runs is stale and is taken over; release removes the file only while it
 * still holds our token, so a lock someone forced meanwhile survives.
 */
export const RUN_LOCK_FILE = '.loom-run.lock';

/** Where a spec lives, as every holder of its lock names it. */
export interface SpecLocation {
  /** Absolute spec directory. */
  dir: string;
  /** Repository-relative, for messages. */
  specDir: string;
}

export interface RunLockInfo {
  pid: number;
  /** Its process no longer runs, or no pid can be read. */
  stale: boolean;
  raw: string;
  /** Held for a whole run of the executing stage (Run Tasks), not for one write. */
  run?: true;
}

/**
 * The token of a lock held for a whole task run starts with this: another process told "locked"
 * can then say the tasks are running. loom reads only the pid (is its process alive?) and
 * compares its own token on release, so the prefix is invisible to it.
 */
const RUN_TOKEN_PREFIX = 'run-';

/**
 * loom creates the file, then writes it: in between it is empty. An unreadable lock younger than
 * this is one being written, not a stale one (loom itself would remove it and race the writer).
 */
const BEING_WRITTEN_MS = 5_000;

export function readRunLock(dir: string): RunLockInfo | undefined {
  const path = join(dir, RUN_LOCK_FILE);
  let raw: string;
  try {
    raw = readTextOnce(path);
  } catch {
    return undefined;
  }
  const { pid, token } = parseLock(raw);
  const run = token?.startsWith(RUN_TOKEN_PREFIX) ? { run: true as const } : {};
  if (!Number.isInteger(pid) || pid <= 0) return { pid: 0, stale: true, raw, ...run };
  return { pid, stale: !processIsAlive(pid), raw, ...run };
}

function parseLock(raw: string): { pid: number; startedAt?: string; token?: string } {
  try {
    const json = JSON.parse(raw) as unknown;
    if (typeof json === 'number') return { pid: json };
    if (json && typeof json === 'object' && 'pid' in json) {
      // Only a number or a numeric string is a pid: Number(true) would be 1, the init process, always alive.
      const value = (json as { pid: unknown }).pid;
      return { pid: typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN };
    }
    return { pid: Number.NaN };
  } catch {
    const [pid, startedAt, token] = raw
      .trim()
      .split('\n')
      .map((l) => l.trim());
    return { pid: Number.parseInt(pid ?? '', 10), startedAt: startedAt || undefined, token: token || undefined };
  }
}

function youngerThan(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < ms;
  } catch {
    return false;
  }
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When the holder took the lock (the second line of loom's format), if it says. */
export const lockStartedAt = (raw: string): string | undefined => parseLock(raw).startedAt;

/** The content of `.loom-run.lock` as loom writes it. */
export const lockText = (pid: number, startedAt: string, token: string) => `${pid}\n${startedAt}\n${token}`;

/** Locks this process holds, by spec directory: a holder may take its own lock again (a write during a run). */
const held = new Map<string, { token: string; depth: number }>();

export interface AcquireOptions {
  now?: string;
  /**
   * How long to wait for a live holder to let go, in ms (synchronously: only for short-lived
   * processes such as the CLI; the extension host never waits). Loom's own writers hold the
   * lock for milliseconds; a running `loom run` holds it for its whole run and is reported.
   */
  waitMs?: number;
  /** The lock is held for a whole task run (its token says so to other processes). */
  forRun?: boolean;
}

/**
 * Takes the spec's lock and returns its release. Throws SpecLockedError, naming the holder's pid
 * and start, while another live process holds it.
 */
export function acquireRunLock(spec: SpecLocation, options: AcquireOptions = {}): () => void {
  const mine = held.get(spec.dir);
  if (mine) {
    mine.depth++;
    return once(() => releaseHeld(spec.dir, mine));
  }
  const path = join(spec.dir, RUN_LOCK_FILE);
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    const token = `${options.forRun ? RUN_TOKEN_PREFIX : ''}${nodeCrypto().randomBytes(8).toString('hex')}`;
    const outcome = tryCreate(path, lockText(process.pid, options.now ?? new Date().toISOString(), token));
    if (outcome === 'created') {
      const entry = { token, depth: 1 };
      held.set(spec.dir, entry);
      return once(() => releaseHeld(spec.dir, entry));
    }
    const lock = readRunLock(spec.dir);
    if (lock === undefined) continue; // released between our attempt and the read: try again
    const beingWritten = lock.raw.trim() === '' && youngerThan(path, BEING_WRITTEN_MS);
    // Our own pid with no lock held here: left by a run of this process that ended without release.
    if (!beingWritten && (lock.stale || lock.pid === process.pid)) {
      // Its holder died: the temporary files of the writes it was making die with it.
      if (lock.stale && removeStale(path, lock.raw)) removeOrphanTempFiles(spec.dir, processIsAlive);
      else removeStale(path, lock.raw);
      continue;
    }
    if (Date.now() < deadline) {
      sleep(25);
      continue;
    }
    throw heldElsewhere(spec, lock);
  }
}

/** The error of a lock another live process holds, naming its pid and start. */
export function heldElsewhere(spec: SpecLocation, lock: RunLockInfo): SpecLockedError {
  const rel = `${spec.specDir}/${RUN_LOCK_FILE}`;
  const startedAt = parseLock(lock.raw).startedAt;
  const started = startedAt ? `, started ${startedAt}` : '';
  return new SpecLockedError(`${spec.specDir} is being driven by another process (pid ${lock.pid}${started}, ${rel}); nothing was written`, rel, lock.pid);
}

/** Runs `fn` holding the spec's lock. */
export function withRunLock<T>(spec: SpecLocation, fn: () => T, options: AcquireOptions = {}): T {
  const release = acquireRunLock(spec, options);
  try {
    return fn();
  } finally {
    release();
  }
}

/** When this process last let go of each spec's lock. */
const releasedAt = new Map<string, number>();

/**
 * Whether `path` is the spec's lock file (or one moved aside while taking over a stale one) and
 * this process holds it or let go of it in the last `ms`: a watcher sees our own lock come and go
 * after every change, which is no change of the spec.
 */
export function isOwnLockActivity(dir: string, path: string, ms = 2_000): boolean {
  const name = basename(path);
  if (name !== RUN_LOCK_FILE && !(name.startsWith(`${RUN_LOCK_FILE}.`) && name.endsWith('.stale'))) return false;
  return held.has(dir) || Date.now() - (releasedAt.get(dir) ?? -Infinity) < ms;
}

function tryCreate(path: string, text: string): 'created' | 'exists' {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
    throw e;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  // A request reads the lock it holds as written (requestReads: the stamp still tells a lock taken over).
  wroteFile(path, text);
  return 'created';
}

/**
 * Removes a lock judged stale, but only that one: it is moved aside first and put back when what
 * was moved is not what was judged (someone took the lock between the read and the move). True
 * when the one judged was removed.
 */
function removeStale(path: string, judged: string): boolean {
  const aside = `${path}.${nodeCrypto().randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return false; // already gone
  }
  let moved = '';
  try {
    moved = readFileSync(aside, 'utf8');
  } catch {
    // unreadable: treated as the stale one
  }
  if (moved !== judged) {
    try {
      linkSync(aside, path); // put back unless a new lock exists already
    } catch {
      // a newer lock is in place; the one moved aside was older still
    }
  }
  rmSync(aside, { force: true });
  return moved === judged;
}

function releaseHeld(dir: string, entry: { token: string; depth: number }): void {
  if (--entry.depth > 0) return;
  if (held.get(dir) === entry) held.delete(dir);
  releasedAt.set(dir, Date.now());
  const path = join(dir, RUN_LOCK_FILE);
  let token: string | undefined;
  try {
    token = parseLock(readTextOnce(path)).token;
  } catch {
    return;
  }
  if (token === entry.token) rmSync(path, { force: true });
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);
