import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** git with a test identity; fails the test with git's words when it fails. */
export function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

export function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/**
 * A repository (`<temp>/app`) with `files` as its one commit on main, and the feature branch in a
 * worktree of its own at `<temp>/<worktree>`; the temp folder is pushed onto `made` to be removed.
 */
export function featureRepo(made: string[], files: Record<string, string>, worktree: string, prefix = 'loom-git-'): { root: string; wt: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(base);
  const root = join(base, 'app');
  mkdirSync(root);
  git(root, 'init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries(files)) write(root, path, text);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'init');
  const wt = join(base, worktree);
  git(root, 'worktree', 'add', '-q', '-b', 'feature/2026-11-25-due-dates', wt);
  return { root, wt };
}
