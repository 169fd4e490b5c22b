import { readFileSync } from 'node:fs';

/**
 * `.loom-run.lock` holds the pid of the process driving a spec: loom (and withRunLock) write `pid\nstarted_at\ntoken`;
 * a bare number or JSON with `pid` is accepted too. A lock whose process no longer runs is stale
 * and does not block.
 */
export function readLock(path: string): { pid: number; stale: boolean; raw: string } | undefined {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  let pid = Number.NaN;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed === 'number') pid = parsed;
    else if (parsed && typeof parsed === 'object' && 'pid' in parsed) {
      // Only a number or a numeric string is a pid: Number(true) would be 1, the init process, always alive.
      const value = (parsed as { pid: unknown }).pid;
      pid = typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
    }
  } catch {
    pid = Number.parseInt(raw.trim(), 10);
  }
  if (!Number.isInteger(pid) || pid <= 0) return { pid: 0, stale: true, raw };
  return { pid, stale: !processIsAlive(pid), raw };
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
