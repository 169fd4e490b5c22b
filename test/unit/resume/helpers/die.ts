/** Kills this process as a crashed window dies: SIGKILL, no `finally`, no release, no flush. */
export function die(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}
