import { statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Whether a folder is one of git's linked worktrees (`git worktree add`), not a repository's main
 * checkout: its `.git` is a file naming the worktree's folder in the repository. Read from the
 * file system, so the run can decide when it is set up, without a git process.
 */
export function isLinkedWorktree(folder: string): boolean {
  try {
    return statSync(join(folder, '.git')).isFile();
  } catch {
    return false;
  }
}
