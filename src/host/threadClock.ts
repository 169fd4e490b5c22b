import { readFileSync } from 'node:fs';

/** How long a thread ran on a CPU, and how long it was ready to run but waited for one, in ms. */
export interface ThreadClock {
  runMs: number;
  waitMs: number;
}

/**
 * The calling thread's clock, from /proc/thread-self/schedstat (Linux): the benchmarks tell from
 * it how much of a slow activation was the machine's other work (the host waited for a CPU) and
 * how much was the extension's own. Undefined where there is no such file.
 */
export function threadClock(): ThreadClock | undefined {
  try {
    const [run, wait] = readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ').map(Number);
    return { runMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return undefined;
  }
}
