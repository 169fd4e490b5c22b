import { childProcess } from '../nodeModules';
import { findWorktree } from '../specdir/worktree';
import type { SpecSnapshot } from '../specdir/specSnapshot';

export interface FeatureDiff {
  /** `git diff --stat` then the diff itself; empty when nothing changed. */
  text: string;
  /** What it was compared with, said plainly. */
  base: string;
  /** Why there is no diff (not a git repository, git failed): said to the user, and to the model. */
  error?: string;
}

function git(cwd: string, args: readonly string[], signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    childProcess().execFile('git', args, { cwd, signal, maxBuffer: 32 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args[0]} failed in ${cwd}: ${(stderr || error.message).trim().split('\n')[0]}`));
      else resolve(stdout);
    });
  });
}

/**
 * What the feature changed, for /review and /respond: in the feature worktree (the repository
 * when there is none), the working tree against the point where the feature branch left the main
 * checkout's HEAD, so commits and uncommitted work both count.
 */
export async function featureDiff(snapshot: Pick<SpecSnapshot, 'repoRoot' | 'name' | 'state'>, signal: AbortSignal): Promise<FeatureDiff> {
  const worktree = findWorktree(snapshot) ?? snapshot.repoRoot;
  try {
    const mainHead = (await git(snapshot.repoRoot, ['rev-parse', 'HEAD'], signal)).trim();
    const base = worktree === snapshot.repoRoot ? mainHead : (await git(worktree, ['merge-base', 'HEAD', mainHead], signal)).trim();
    const stat = await git(worktree, ['diff', '--stat', '--no-color', base], signal);
    const diff = await git(worktree, ['diff', '--no-color', '--no-ext-diff', base], signal);
    return {
      text: stat.trim() ? `${stat}\n${diff}` : '',
      base: `${base.slice(0, 12)} (${worktree === snapshot.repoRoot ? 'HEAD of the repository' : 'where the feature branch left the main checkout'})`,
    };
  } catch (e) {
    if (signal.aborted) throw e;
    return { text: '', base: '', error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The diff as the prompt shows it: what it was compared with, then the changes; or, when there
 * are none, why (no change since the base, or the git error), so the model can say so instead of
 * reviewing nothing.
 */
export function featureDiffForPrompt(d: FeatureDiff): string {
  if (d.error) return `(no diff: ${d.error})`;
  if (!d.text) return `(no changes against ${d.base})`;
  return `Compared with ${d.base}.\n\n${d.text}`;
}
