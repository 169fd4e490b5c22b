import { die } from './die';

/**
 * Kills this process around the rename that ends an atomic write (writeFileAtomic): `before`
 * leaves the temporary file written and the target as it was, `after` the target written and
 * whatever was to follow undone. `LOOM_CRASH_FS` = `before|after:<end of the target's path>[:n]`
 * (the n-th such rename, the first by default).
 */
export function armFsCrash(rule: string | undefined): void {
  const m = /^(before|after):(.+?)(?::(\d+))?$/.exec(rule ?? '');
  if (!m) return;
  const [, when, suffix, nth] = m;
  let left = Number(nth ?? 1);
  // The module object, as the sources reach it (`import { renameSync } from 'node:fs'` reads it at each call).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  const rename = fs.renameSync;
  fs.renameSync = (from, to) => {
    const hit = String(to).replace(/\\/g, '/').endsWith(suffix) && --left === 0;
    if (hit && when === 'before') die();
    rename(from, to);
    if (hit) die();
  };
}
