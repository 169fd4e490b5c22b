import { existsSync, readdirSync } from 'node:fs';
import { readTextOnce } from '../fs/requestReads';
import { isAbsolute, join, resolve } from 'node:path';
import { snapshotFact } from './snapshotFacts';
import type { SpecSnapshot } from './specSnapshot';

/** `2026-11-29+login` → `feature/2026-11-29-login`, the branch loom's git-worktree stage creates. */
export function featureBranchName(specName: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[+_-]?(.*)$/.exec(specName);
  const raw = m ? `${m[1]}-${m[2]}` : specName;
  const safe = raw
    .normalize('NFKC')
    .replace(/[\s~^:?*[\]\\@{}]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/\.lock$/i, '');
  return `feature/${safe || 'spec'}`;
}

/**
 * Where the feature's worktree is: the path recorded in the state's metadata, else a git
 * worktree of the repository whose HEAD is the feature branch. Read from `.git` directly so the
 * pure core needs no git process; a fact of the snapshot, found once per read of the spec
 * (snapshotFacts.ts), so the guards, the refusals and the offers agree.
 */
export function findWorktree(snapshot: Pick<SpecSnapshot, 'repoRoot' | 'name' | 'state'>): string | undefined {
  return snapshotFact(snapshot, 'worktree', () => worktreeOnDisk(snapshot));
}

/**
 * Where the feature's worktree is now, read afresh: for work done at this moment on a spec read
 * earlier (a diff for /review). A worktree can appear with no file of the spec changing (made
 * in a terminal, or by another tool), and a snapshot keeps the fact it found first.
 */
export function worktreeOnDisk(snapshot: Pick<SpecSnapshot, 'repoRoot' | 'name' | 'state'>): string | undefined {
  const meta = snapshot.state?.metadata ?? {};
  for (const key of ['worktree_path', 'worktree']) {
    const v = Object.hasOwn(meta, key) ? meta[key] : undefined;
    if (typeof v === 'string' && v.trim()) {
      const p = isAbsolute(v) ? v : resolve(snapshot.repoRoot, v);
      if (existsSync(p)) return p;
    }
  }
  return gitWorktrees(snapshot.repoRoot).get(featureBranchName(snapshot.name));
}

/**
 * The repository's worktrees as git records them (`.git/worktrees/<name>/HEAD` and `gitdir`):
 * the branch each has checked out, with its folder, for the folders that are there. Read from
 * `.git` directly so the pure core needs no git process; empty outside git.
 */
export function gitWorktrees(repoRoot: string): Map<string, string> {
  const found = new Map<string, string>();
  const worktrees = join(repoRoot, '.git', 'worktrees');
  let entries: string[];
  try {
    entries = readdirSync(worktrees);
  } catch {
    return found;
  }
  for (const entry of entries) {
    try {
      const head = readTextOnce(join(worktrees, entry, 'HEAD')).trim();
      if (!head.startsWith('ref: refs/heads/')) continue;
      const gitdir = readTextOnce(join(worktrees, entry, 'gitdir')).trim();
      const dir = resolve(gitdir, '..');
      const branch = head.slice('ref: refs/heads/'.length);
      // A branch is checked out in one worktree (git refuses a second without --force): the first found.
      if (existsSync(dir) && !found.has(branch)) found.set(branch, dir);
    } catch {
      // A half-removed worktree entry is simply not a worktree.
    }
  }
  return found;
}
