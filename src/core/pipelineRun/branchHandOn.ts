import { t, type Language } from '../messages';
import { featureOf } from '../specdir/specName';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { featureBranchName, findWorktree } from '../specdir/worktree';

/** How the feature's branch is handed on: where, which branch, and the pull request's words. */
export interface HandOnPlan {
  /** The feature worktree (the branch is checked out there); undefined when there is none. */
  worktree?: string;
  branch: string;
  remote: string;
  title: string;
  body: string;
  /** The exact commands, for a terminal, where neither VS Code's git nor the GitHub extension can. */
  commands: string[];
}

/** A word for a POSIX shell, quoted only when it must be. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The branch handed on as loom's finishing skill hands it on (loom-finishing-a-development-branch:
 * push the feature branch, open a pull request): the branch the git-worktree stage made, pushed
 * to `origin` with its upstream, and a pull request whose title names the feature and whose body
 * says the verdict and the requirements it closes.
 */
export function handOnPlan(snapshot: SpecSnapshot, language: Language, remote = 'origin'): HandOnPlan {
  const feature = featureOf(snapshot.name);
  const branch = featureBranchName(snapshot.name);
  const worktree = findWorktree(snapshot);
  const verdict = snapshot.reports.get('verify-report.md')?.verdict ?? '-';
  const requirements = snapshot.requirements?.requirements.map((r) => r.id).join(', ') || '-';
  const title = t('handOn.title', { feature }, language);
  const body = t('handOn.body', { feature, specDir: snapshot.specDir, verdict, requirements }, language);
  const cwd = worktree ?? snapshot.repoRoot;
  const commands = [
    `git -C ${shellWord(cwd)} push --set-upstream ${shellWord(remote)} ${shellWord(branch)}`,
    // gh takes its repository from the working directory: it runs where the branch is.
    `cd ${shellWord(cwd)} && gh pr create --head ${shellWord(branch)} --title ${shellWord(title)} --body ${shellWord(body)}`,
  ];
  return { ...(worktree ? { worktree } : {}), branch, remote, title, body, commands };
}
