import { existsSync, lstatSync, readdirSync, realpathSync, rmSync, rmdirSync, symlinkSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { changesOf, historySince, syncIndex, type Checkpoint } from './checkpoints';
import { commitIdentity, currentBranch, git, gitOutput, GitError, revParse } from './gitCommand';

/**
 * Each task of a parallel batch runs in a worktree of its own: a branch from the feature branch's
 * checkpoint (`loom-task/<date>-<name>/T3`), checked out beside the feature worktree
 * (`<feature worktree>.tasks/T3`). Its tests run there, against no other task's half-written
 * files; once done, its checkpoint is merged into the feature branch with git's merge-tree (no
 * worktree is touched to find a conflict), in the plan's order, and the worktree is removed.
 */
export interface TaskWorktree {
  task: string;
  path: string;
  branch: string;
}

/** Folders a task worktree borrows from the feature worktree rather than install again (ignored by git there). */
export const BORROWED_FOLDERS = ['node_modules', '.venv', 'venv'] as const;

const TASK_BRANCH_PREFIX = 'loom-task/';

/** `feature/2026-11-25-due-dates` + T3 → `loom-task/2026-11-25-due-dates/T3`. */
export function taskBranchName(featureBranch: string, task: string): string {
  return `${TASK_BRANCH_PREFIX}${featureBranch.replace(/^feature\//, '')}/${task}`;
}

/** Where the worktrees of a feature's tasks live: beside the feature worktree, `<feature worktree>.tasks/`. */
export function taskWorktreeFolder(featureWorktree: string): string {
  const abs = resolve(featureWorktree);
  return join(dirname(abs), `${basename(abs)}.tasks`);
}

export const taskWorktreePath = (featureWorktree: string, task: string) => join(taskWorktreeFolder(featureWorktree), task);

interface ListedWorktree {
  path: string;
  branch?: string;
  prunable: boolean;
}

async function listWorktrees(cwd: string, signal?: AbortSignal): Promise<ListedWorktree[]> {
  const out = await git(cwd, ['worktree', 'list', '--porcelain'], { signal });
  return out
    .split(/\n\s*\n/)
    .map((block) => ({ path: /^worktree (.+)$/m.exec(block)?.[1] ?? '', branch: /^branch refs\/heads\/(.+)$/m.exec(block)?.[1], prunable: /^prunable/m.test(block) }))
    .filter((w) => w.path);
}

const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/** The feature branch the feature worktree is on; a task worktree needs one to branch from. */
async function featureBranchOf(featureWorktree: string, signal?: AbortSignal): Promise<string> {
  const branch = await currentBranch(featureWorktree, signal);
  if (!branch) throw new GitError(`${featureWorktree} is not on a branch (its HEAD is detached): tasks cannot get worktrees of their own`);
  return branch;
}

/**
 * The task's worktree, made from `from` (the feature branch's checkpoint the batch starts at), or
 * the one already there after a crash or a reload (`resume`: its branch and work are kept).
 */
export async function openTaskWorktree(req: { featureWorktree: string; task: string; from: string; resume: boolean; signal?: AbortSignal }): Promise<TaskWorktree> {
  const { featureWorktree, task, signal } = req;
  const branch = taskBranchName(await featureBranchOf(featureWorktree, signal), task);
  const path = taskWorktreePath(featureWorktree, task);
  const listed = await listWorktrees(featureWorktree, signal);
  const here = listed.find((w) => real(w.path) === real(path));
  if (here && here.branch === branch && existsSync(path) && req.resume) {
    borrowFolders(featureWorktree, path);
    return { task, path, branch };
  }
  if (here) await removeWorktreeAt(featureWorktree, path, signal);
  if (listed.some((w) => w.prunable)) await git(featureWorktree, ['worktree', 'prune'], { signal });
  // A folder left by a crash before git registered it is Loom's own: it goes.
  if (existsSync(path)) rmSync(path, { recursive: true, force: true });
  const exists = (await revParse(featureWorktree, `refs/heads/${branch}`, signal)) !== undefined;
  const args = exists && req.resume ? ['worktree', 'add', '-q', path, branch] : ['worktree', 'add', '-q', '-B', branch, path, req.from];
  await git(featureWorktree, args, { signal });
  borrowFolders(featureWorktree, path);
  return { task, path, branch };
}

/** Links the feature worktree's installed dependencies into a task worktree, so its tests run there as they do in the feature worktree. */
function borrowFolders(featureWorktree: string, taskWorktree: string): void {
  for (const name of BORROWED_FOLDERS) {
    const source = join(featureWorktree, name);
    const target = join(taskWorktree, name);
    if (!existsSync(source) || existsSync(target)) continue;
    try {
      symlinkSync(source, target, process.platform === 'win32' ? 'junction' : 'dir');
    } catch {
      // Without the link the task's tests install or fail on their own; the run goes on.
    }
  }
}

/** Removes the links borrowFolders made: a link is removed, never what it points to. */
function unborrowFolders(taskWorktree: string): void {
  for (const name of BORROWED_FOLDERS) {
    const target = join(taskWorktree, name);
    try {
      if (lstatSync(target).isSymbolicLink()) unlinkSync(target);
    } catch {
      // Not there.
    }
  }
}

async function removeWorktreeAt(featureWorktree: string, path: string, signal?: AbortSignal): Promise<void> {
  unborrowFolders(path);
  const r = await gitOutput(featureWorktree, ['worktree', 'remove', '--force', '--force', path], { signal });
  if (r.code !== 0) {
    // A folder git no longer knows (or half removed): Loom's own, removed by hand, then forgotten.
    rmSync(path, { recursive: true, force: true });
    await git(featureWorktree, ['worktree', 'prune'], { signal });
  }
  const folder = dirname(path);
  try {
    if (readdirSync(folder).length === 0) rmdirSync(folder);
  } catch {
    // Gone already.
  }
}

/**
 * Removes a task's worktree. Its branch goes too, unless it holds work that was not merged
 * (`keepBranch`: a task skipped or to be re-planned keeps its partial work there).
 */
export async function removeTaskWorktree(req: { featureWorktree: string; task: string; keepBranch?: boolean; signal?: AbortSignal }): Promise<void> {
  const { featureWorktree, task, signal } = req;
  const branch = taskBranchName(await featureBranchOf(featureWorktree, signal), task);
  const path = taskWorktreePath(featureWorktree, task);
  if (existsSync(path) || (await listWorktrees(featureWorktree, signal)).some((w) => real(w.path) === real(path))) await removeWorktreeAt(featureWorktree, path, signal);
  if (!req.keepBranch && (await revParse(featureWorktree, `refs/heads/${branch}`, signal))) await git(featureWorktree, ['branch', '-q', '-D', branch], { signal });
}

/** The task worktrees of this feature that git knows, and the leftover folders beside them. */
export async function listTaskWorktrees(featureWorktree: string, signal?: AbortSignal): Promise<TaskWorktree[]> {
  const branch = await featureBranchOf(featureWorktree, signal);
  const prefix = taskBranchName(branch, '');
  const folder = taskWorktreeFolder(featureWorktree);
  const found = new Map<string, TaskWorktree>();
  for (const w of await listWorktrees(featureWorktree, signal)) {
    const inFolder = relative(real(folder), real(w.path));
    if (w.branch?.startsWith(prefix) || (!inFolder.startsWith('..') && inFolder !== '' && !inFolder.includes('/'))) {
      const task = w.branch?.startsWith(prefix) ? w.branch.slice(prefix.length) : basename(w.path);
      found.set(task, { task, path: w.path, branch: w.branch ?? taskBranchName(branch, task) });
    }
  }
  if (existsSync(folder)) for (const name of readdirSync(folder)) if (!found.has(name)) found.set(name, { task: name, path: join(folder, name), branch: taskBranchName(branch, name) });
  return [...found.values()];
}

/**
 * After a crash or a stop: the worktrees of tasks that have nothing left to resume there are
 * removed (their branches stay when they hold work), so nothing is left that a run does not resume
 * or clean. `resumable`: the tasks whose state says they work in their own worktree.
 */
export async function cleanTaskWorktrees(featureWorktree: string, resumable: ReadonlySet<string>, signal?: AbortSignal): Promise<string[]> {
  const removed: string[] = [];
  for (const w of await listTaskWorktrees(featureWorktree, signal)) {
    if (resumable.has(w.task)) continue;
    await removeWorktreeAt(featureWorktree, w.path, signal);
    removed.push(w.task);
  }
  return removed;
}

export type MergeOutcome =
  | { kind: 'merged'; checkpoint: Checkpoint }
  /** The task's change and the feature branch's changed the same lines; `tree` holds the result with conflict markers. */
  | { kind: 'conflict'; files: string[]; tree: string; head: string }
  /** The feature worktree has uncommitted changes the merge would overwrite. */
  | { kind: 'blocked'; files: string[]; head: string };

/**
 * Merges a task's checkpoint (`taskCommit`, made on `from`) into the feature branch as one
 * commit with the task's own message: a fast-forward when the branch has not moved, else the
 * three-way merge git's merge-tree works out, committed on the branch's head. The feature
 * worktree's files follow (read-tree, which refuses to overwrite uncommitted changes; no hook
 * runs). Merged already (a crash after the merge), it finds the commit and returns it.
 */
export async function mergeTaskCommit(req: { featureWorktree: string; taskCommit: string; from: string; spec: string; task: string; signal?: AbortSignal }): Promise<MergeOutcome> {
  const { featureWorktree: wt, taskCommit, signal } = req;
  const branch = await featureBranchOf(wt, signal);
  const head = (await revParse(wt, 'HEAD', signal))!;
  const earlier = (await historySince(wt, req.from, head, signal)).filter((c) => c.spec === req.spec && c.task === req.task && !c.partial).pop();
  if (earlier) return { kind: 'merged', checkpoint: { commit: earlier.commit, parent: earlier.parents[0], branch, files: await changesOf(wt, earlier.commit, signal) } };
  const taskParent = (await git(wt, ['rev-parse', `${taskCommit}^`], { signal })).trim();
  let merged: string;
  if (taskParent === head) merged = taskCommit;
  else {
    const r = await gitOutput(wt, ['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', head, taskCommit], { signal });
    if (r.code !== 0 && r.code !== 1) throw new GitError(`git merge-tree failed in ${wt}: ${r.stderr.trim()}`, r.code, r.stderr);
    const [tree, ...rest] = r.stdout.split('\0');
    const files = [...new Set(rest.slice(0, Math.max(0, rest.indexOf(''))))];
    if (r.code === 1) return { kind: 'conflict', files, tree: tree.trim(), head };
    const message = await git(wt, ['show', '-s', '--format=%B', taskCommit], { signal });
    merged = (await git(wt, ['commit-tree', tree.trim(), '-p', head, '-F', '-'], { signal, env: await commitIdentity(wt, signal), input: message })).trim();
  }
  await git(wt, ['update-index', '-q', '--refresh'], { signal }).catch(() => undefined);
  const moved = await gitOutput(wt, ['read-tree', '-m', '-u', head, merged], { signal });
  if (moved.code !== 0) return { kind: 'blocked', files: filesNamedBy(moved.stderr), head };
  await git(wt, ['update-ref', '-m', `loom: merge ${req.task}`, `refs/heads/${branch}`, merged, head], { signal });
  await syncIndex(wt, head, merged, signal);
  return { kind: 'merged', checkpoint: { commit: merged, parent: head, branch, files: await changesOf(wt, merged, signal) } };
}

/** The paths git's refusal names (`Entry 'a.js' not uptodate`, `error: ... would be overwritten by merge:\n\ta.js`). */
function filesNamedBy(stderr: string): string[] {
  const out = new Set<string>();
  for (const m of stderr.matchAll(/'([^']+)'/g)) out.add(m[1]);
  for (const m of stderr.matchAll(/^\t(.+)$/gm)) out.add(m[1].trim());
  return [...out];
}

/**
 * Choice B after a conflict: the task's worktree takes the feature branch's head, with the merge
 * result, conflict markers and all, as uncommitted changes, for the user to fix by hand there.
 */
export async function putConflictInWorktree(req: { taskWorktree: string; head: string; tree: string; signal?: AbortSignal }): Promise<void> {
  const { taskWorktree: wt, signal } = req;
  await git(wt, ['reset', '-q', '--hard', req.head], { signal });
  await git(wt, ['read-tree', '-m', '-u', req.head, req.tree], { signal });
  await git(wt, ['reset', '-q'], { signal });
}

/** Whether the repository can run merge-tree --write-tree (git 2.38 or later). */
export async function canMergeTrees(cwd: string, signal?: AbortSignal): Promise<boolean> {
  const out = await git(cwd, ['version'], { signal });
  const m = /(\d+)\.(\d+)/.exec(out);
  return !!m && (Number(m[1]) > 2 || (Number(m[1]) === 2 && Number(m[2]) >= 38));
}
