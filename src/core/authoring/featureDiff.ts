import { git } from '../git/gitCommand';
import { worktreeOnDisk } from '../specdir/worktree';
import type { SpecSnapshot } from '../specdir/specSnapshot';

export interface FeatureDiff {
  /** `git diff --stat` then the diff itself; empty when nothing changed. */
  text: string;
  /** What it was compared with, said plainly. */
  base: string;
  /** Why there is no diff (not a git repository, git failed): said to the user, and to the model. */
  error?: string;
}

/** A diff past this is no review a model can do (git's output was capped here before). */
const MAX_DIFF_CHARS = 32 * 1024 * 1024;

/**
 * What the feature changed, for /review and /respond: in the feature worktree (the repository
 * when there is none), the working tree against the point where the feature branch left the main
 * checkout's HEAD, so commits and uncommitted work both count. The worktree is looked for as the
 * diff is taken, not in the snapshot's facts: the spec may have been read before it was made.
 */
export async function featureDiff(snapshot: Pick<SpecSnapshot, 'repoRoot' | 'name' | 'state'>, signal: AbortSignal): Promise<FeatureDiff> {
  const worktree = worktreeOnDisk(snapshot) ?? snapshot.repoRoot;
  try {
    const mainHead = (await git(snapshot.repoRoot, ['rev-parse', 'HEAD'], { signal })).trim();
    const base = worktree === snapshot.repoRoot ? mainHead : (await git(worktree, ['merge-base', 'HEAD', mainHead], { signal })).trim();
    const stat = await git(worktree, ['diff', '--stat', '--no-color', base], { signal });
    const diff = await git(worktree, ['diff', '--no-color', '--no-ext-diff', base], { signal });
    if (diff.length > MAX_DIFF_CHARS) throw new Error(`git diff in ${worktree} printed more than 32 MiB, more than a prompt holds`);
    return {
      text: stat.trim() ? `${stat}\n${diff}` : '',
      base: `${base.slice(0, 12)} (${worktree === snapshot.repoRoot ? 'HEAD of the repository' : 'where the feature branch left the main checkout'})`,
    };
  } catch (e) {
    if (signal.aborted) throw e;
    // git's first line says why (`fatal: not a git repository`); the rest is its advice.
    return { text: '', base: '', error: (e instanceof Error ? e.message : String(e)).split('\n')[0] };
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
