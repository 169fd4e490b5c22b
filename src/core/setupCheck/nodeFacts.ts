import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { detectTestCommand } from '../executing/evidence/testRunner';
import { worktreeBase } from '../git/featureWorktree';
import { gitOutput } from '../git/gitCommand';

/** The part of Check Setup's environment read from git and the file system, the same for every surface. */

/** The repository `cwd` is in and its HEAD, or git's own words for why there is none. */
export async function repositoryFacts(cwd: string): Promise<{ root?: string; head?: string; detail?: string }> {
  try {
    const top = await gitOutput(cwd, ['rev-parse', '--show-toplevel']);
    if (top.code !== 0) return { detail: top.stderr.trim().split('\n')[0] || undefined };
    const root = top.stdout.trim();
    const head = await gitOutput(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD']);
    return { root, ...(head.code === 0 && head.stdout.trim() ? { head: head.stdout.trim() } : {}) };
  } catch (e) {
    // git itself did not start (not installed): said as it is.
    return { detail: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Whether Loom can make worktrees under `location` (loom.worktree.location, else `.worktree`):
 * the folder, or the nearest folder above it that exists, writable. Nothing is created to find out.
 */
export function worktreeLocationFacts(repoRoot: string, location: string): { path: string; writable: boolean; detail?: string } {
  const path = worktreeBase(repoRoot, location);
  let probe = path;
  while (!existsSync(probe) && dirname(probe) !== probe) probe = dirname(probe);
  try {
    accessSync(probe, constants.W_OK);
    return { path, writable: true };
  } catch (e) {
    return { path, writable: false, detail: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  }
}

/** The test command a run uses: the setting, else the project's own (detectTestCommand). */
export function testCommandFact(root: string, setting: string): string | undefined {
  return setting.trim() || detectTestCommand(root);
}
