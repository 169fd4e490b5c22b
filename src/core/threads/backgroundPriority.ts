import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The lowest scheduling priority (nice 19). */
const BACKGROUND = 19;

/**
 * Puts the calling process (a worker process doing background work: the look at every spec) at
 * the lowest scheduling priority, so the editor's own processes always come first on a busy
 * machine and the work uses what is left. On Linux a priority belongs to a thread, not to the
 * process: each of its threads (V8's helpers too) is lowered; elsewhere the process is. Returns
 * whether it was lowered.
 */
export function lowerProcessPriority(): boolean {
  try {
    const threads = process.platform === 'linux' ? readdirSync('/proc/self/task').map(Number) : [process.pid];
    for (const tid of threads) setPriority(tid, BACKGROUND);
    return true;
  } catch {
    // No /proc, or not allowed: the work runs at the usual priority.
    return false;
  }
}
