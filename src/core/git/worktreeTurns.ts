/**
 * Git's commands that read or change a repository's list of worktrees are not safe side by side.
 * `worktree add` makes `.git/worktrees/<id>/` before it writes the files in it; another `worktree
 * add`, `worktree list` or `branch -D` reading the list meanwhile fails ("fatal: failed to read
 * .git/worktrees/T3/commondir"), and `worktree prune` may take the half-made entry for a stale one.
 * The tasks of a parallel batch open and remove their worktrees at the same moment, so this
 * process runs such commands one at a time, in the order they were asked for. (Another process's
 * are not seen: one Run Tasks a spec runs at a time, under the spec's run lock.)
 */
const READS_WORKTREE_LIST: ReadonlySet<string> = new Set(['worktree', 'branch']);

let previous: Promise<unknown> = Promise.resolve();

/** Runs `command` (the git command `args` names) at once, or after the commands of its kind asked for before it. */
export function inWorktreeTurn<T>(args: readonly string[], command: () => Promise<T>): Promise<T> {
  if (!READS_WORKTREE_LIST.has(args[0])) return command();
  const turn = previous.then(command);
  previous = turn.catch(() => undefined);
  return turn;
}
