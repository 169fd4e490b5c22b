import { statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where git records HEAD's moves, as a stamp: `.git/HEAD` (a checkout) and its reflog
 * `.git/logs/HEAD` (every commit, reset, pull), each file's size and modification time. Two
 * stats, no git process: a watcher that may have missed an event (a `.git` made a moment ago)
 * asks whether HEAD moved since it last read drift. Empty outside git.
 */
export function headStamp(repoRoot: string): string {
  return ['HEAD', join('logs', 'HEAD')]
    .map((file) => {
      const st = statSync(join(repoRoot, '.git', file), { throwIfNoEntry: false });
      return st ? `${st.size}:${st.mtimeMs}` : '-';
    })
    .join(' ');
}
