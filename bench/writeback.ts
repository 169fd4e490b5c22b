/**
 * The kernel writes a generated workspace back to disk 10–30 s after it was written (Linux's
 * dirty_expire_centisecs is 30 s): the 1,000-spec workspace's 60,000 files are some 200 MB, whose
 * writeback by the kernel's workers overlapped the windows opened right after it, the ones that
 * measure 1,000 specs, and not the 10-spec window opened last. The editor benchmark waits for it,
 * so that both sizes are measured on a machine that is not flushing the benchmark's own files.
 */
import { readFileSync } from 'node:fs';

/** Dirty and Writeback of /proc/meminfo in MB; undefined where there is no /proc (not Linux). */
export function unwrittenMB(): number | undefined {
  try {
    const info = readFileSync('/proc/meminfo', 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(info)?.[1] ?? 0);
    return (kb('Dirty') + kb('Writeback')) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * Resolves once the memory waiting to be written is back within `slackMB` of `beforeMB` (what
 * was waiting before the files were generated: other processes write too), or after `maxMs`.
 * Returns how long it waited.
 */
export async function waitForWriteback(beforeMB: number | undefined, slackMB = 32, maxMs = 60_000): Promise<number> {
  const started = Date.now();
  if (beforeMB === undefined) return 0;
  for (;;) {
    const now = unwrittenMB();
    if (now === undefined || now <= beforeMB + slackMB || Date.now() - started >= maxMs) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 250));
  }
}
