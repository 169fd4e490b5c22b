import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { basename } from 'node:path';

/** The lowest scheduling priority (nice 19). */
const BACKGROUND = 19;

/**
 * Puts the calling thread (a worker doing background work: the look at every spec) at the lowest
 * scheduling priority, so the editor's own threads and processes always come first on a busy
 * machine and the work uses what is left. Linux only: there a thread's id can be given to
 * setpriority() and affects that thread alone (/proc/thread-self names it); elsewhere the call
 * would lower the whole extension host, so nothing is done. Returns whether it was lowered.
 */
export function lowerThreadPriority(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const tid = Number(basename(readlinkSync('/proc/thread-self')));
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, BACKGROUND);
    return true;
  } catch {
    // No /proc, or not allowed: the work runs at the usual priority.
    return false;
  }
}
