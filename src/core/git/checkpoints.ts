import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeCrypto } from '../nodeModules';
import { commitIdentity, currentBranch, git, gitOutput, GitError, revParse, treeOf, zList } from './gitCommand';

/**
 * A checkpoint per task: when a task is done, its changes are one commit on the branch of the
 * worktree it ran in, `T3: <title>` with the trailers `Loom-Spec:` and `Loom-Task:`. The commit is
 * made with git's plumbing through a temporary index (read-tree, update-index, write-tree,
 * commit-tree, update-ref), so the user's index and stash are never used: only the paths the
 * commit changed are brought up to date in the worktree's own index, and only where the user had
 * not staged something else there. No hook runs.
 */
export const SPEC_TRAILER = 'Loom-Spec';
export const TASK_TRAILER = 'Loom-Task';
/** `partial`: the work of a task the circuit breaker's choice kept although the task is not done. */
export const RESULT_TRAILER = 'Loom-Result';

export type FileChange = 'added' | 'modified' | 'deleted';

export interface CheckpointRequest {
  /** The worktree whose branch takes the commit. */
  worktree: string;
  /** Repository-relative spec directory, for the trailer. */
  spec: string;
  task: string;
  title: string;
  /** Worktree-relative paths taken as they are in the worktree now (a missing one is removed). */
  files: readonly string[];
  /**
   * The task's own last checkpoint: when it is still the branch's head it is replaced (a fix after
   * a rejected file keeps one commit per task); otherwise the new commit goes on top.
   */
  replaces?: { commit: string; parent: string };
  /** The task is not done: its work is kept as it is (Loom-Result: partial). */
  partial?: boolean;
  signal?: AbortSignal;
}

export interface Checkpoint {
  commit: string;
  parent: string;
  branch: string;
  /** The paths the commit changed, each with how. */
  files: { path: string; change: FileChange }[];
}

/** The commit message of a task's checkpoint. */
export function checkpointMessage(spec: string, task: string, title: string, partial = false): string {
  const subject = title.trim() ? `${task}: ${title.trim().replace(/\s+/g, ' ')}` : task;
  const trailers = [`${SPEC_TRAILER}: ${spec}`, `${TASK_TRAILER}: ${task}`, ...(partial ? [`${RESULT_TRAILER}: partial`] : [])];
  return `${subject}\n\n${trailers.join('\n')}\n`;
}

/** Runs `work` with a temporary index of its own, removed afterwards whatever happens. */
async function withTemporaryIndex<T>(work: (env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  const index = join(tmpdir(), `loom-checkpoint-${process.pid}-${nodeCrypto().randomBytes(6).toString('hex')}`);
  try {
    return await work({ GIT_INDEX_FILE: index });
  } finally {
    rmSync(index, { force: true });
    rmSync(`${index}.lock`, { force: true });
  }
}

/** The files one commit changed against its first parent (every file of a root commit). */
export async function changesOf(worktree: string, commit: string, signal?: AbortSignal): Promise<Checkpoint['files']> {
  const out = await git(worktree, ['diff-tree', '-r', '--no-commit-id', '--no-renames', '--root', '--name-status', '-z', commit], { signal });
  return parseNameStatus(out);
}

/** The files that differ between two commits or trees. */
export async function changesBetween(worktree: string, from: string, to: string, signal?: AbortSignal): Promise<Checkpoint['files']> {
  return parseNameStatus(await git(worktree, ['diff-tree', '-r', '--no-renames', '--name-status', '-z', from, to], { signal }));
}

export function parseNameStatus(out: string): Checkpoint['files'] {
  const parts = zList(out);
  const files: Checkpoint['files'] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const code = parts[i][0];
    files.push({ path: parts[i + 1], change: code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified' });
  }
  return files;
}

/** The trailers of a commit message, by key (the last paragraph's `Key: value` lines). */
export function trailersOf(message: string): Map<string, string> {
  const paragraphs = message.trim().split(/\n\s*\n/);
  const out = new Map<string, string>();
  if (paragraphs.length < 2) return out;
  for (const line of paragraphs[paragraphs.length - 1].split('\n')) {
    const m = /^([A-Za-z][A-Za-z0-9-]*):\s*(.*)$/.exec(line.trim());
    if (m) out.set(m[1], m[2].trim());
  }
  return out;
}

/** A commit as Loom reads its history: who made it for which task of which spec. */
export interface HistoryCommit {
  commit: string;
  parents: string[];
  subject: string;
  spec?: string;
  task?: string;
  partial: boolean;
}

const FIELD = '\x1f';
const RECORD = '\x1e';

/** The commits after `from` up to `to`, oldest first (first parents only: the branch's own line). */
export async function historySince(worktree: string, from: string, to = 'HEAD', signal?: AbortSignal): Promise<HistoryCommit[]> {
  const out = await git(worktree, ['log', '--first-parent', '--reverse', `--format=%H${FIELD}%P${FIELD}%s${FIELD}%B${RECORD}`, `${from}..${to}`], { signal });
  const commits: HistoryCommit[] = [];
  for (const record of out.split(RECORD)) {
    const [commit, parents, subject, body] = record.replace(/^\n/, '').split(FIELD);
    if (!commit?.trim()) continue;
    const trailers = trailersOf(body ?? '');
    commits.push({
      commit: commit.trim(),
      parents: (parents ?? '').split(' ').filter(Boolean),
      subject: subject ?? '',
      ...(trailers.has(SPEC_TRAILER) ? { spec: trailers.get(SPEC_TRAILER) } : {}),
      ...(trailers.has(TASK_TRAILER) ? { task: trailers.get(TASK_TRAILER) } : {}),
      partial: trailers.get(RESULT_TRAILER) === 'partial',
    });
  }
  return commits;
}

/** Whether `ancestor` is `commit` or comes before it. */
export async function isAncestor(worktree: string, ancestor: string, commit: string, signal?: AbortSignal): Promise<boolean> {
  const r = await gitOutput(worktree, ['merge-base', '--is-ancestor', ancestor, commit], { signal });
  if (r.code === 0) return true;
  if (r.code === 1) return false;
  throw new GitError(`git merge-base failed in ${worktree}: ${r.stderr.trim()}`, r.code, r.stderr);
}

/**
 * Commits the task's files as they are in the worktree on the worktree's branch. Returns the
 * checkpoint, or undefined when the files hold no change. Made again after a crash between the
 * commit and the task's state, it finds its commit already there and returns it.
 */
export async function commitCheckpoint(req: CheckpointRequest): Promise<Checkpoint | undefined> {
  const { worktree, signal } = req;
  const branch = await currentBranch(worktree, signal);
  if (!branch) throw new GitError(`${worktree} is not on a branch (its HEAD is detached): a checkpoint needs the feature branch`);
  const head = await revParse(worktree, 'HEAD', signal);
  if (!head) throw new GitError(`${branch} in ${worktree} has no commit yet: a checkpoint needs one to start from`);
  const message = checkpointMessage(req.spec, req.task, req.title, req.partial);
  const replacing = req.replaces !== undefined && req.replaces.commit === head;
  const parent = replacing ? req.replaces!.parent : head;
  const paths = [...new Set(req.files)];
  const tree = await withTemporaryIndex(async (env) => {
    await git(worktree, ['read-tree', parent], { signal, env });
    if (paths.length) await git(worktree, ['update-index', '--add', '--remove', '-z', '--stdin'], { signal, env, input: paths.map((p) => `${p}\0`).join('') });
    return (await git(worktree, ['write-tree'], { signal, env })).trim();
  });
  const parentTree = await treeOf(worktree, parent, signal);
  // Already committed (a run that crashed after its commit): the head is this task's, with this tree.
  if (!replacing && tree === (await treeOf(worktree, head, signal)) && (await isTaskCommit(worktree, head, req.spec, req.task, signal))) {
    const committedOn = (await git(worktree, ['rev-parse', `${head}^`], { signal })).trim();
    // Killed between the commit and the index's update: the index still says the files are the parent's.
    await syncIndex(worktree, committedOn, head, signal);
    return { commit: head, parent: committedOn, branch, files: await changesOf(worktree, head, signal) };
  }
  if (tree === parentTree) {
    if (!replacing) return undefined;
    // The fix undid all of the task's work: its old commit goes, and there is nothing to commit.
    await git(worktree, ['update-ref', '-m', `loom: ${req.task} has no changes left`, `refs/heads/${branch}`, parent, head], { signal });
    await syncIndex(worktree, head, parent, signal);
    return undefined;
  }
  const identity = await commitIdentity(worktree, signal);
  const commit = (await git(worktree, ['commit-tree', tree, '-p', parent, '-F', '-'], { signal, env: identity, input: message })).trim();
  await git(worktree, ['update-ref', '-m', `loom: ${req.task} checkpoint`, `refs/heads/${branch}`, commit, head], { signal });
  await syncIndex(worktree, head, commit, signal);
  return { commit, parent, branch, files: await changesOf(worktree, commit, signal) };
}

/** Whether `commit` is a checkpoint of this task of this spec. */
export async function isTaskCommit(worktree: string, commit: string, spec: string, task: string, signal?: AbortSignal): Promise<boolean> {
  const trailers = trailersOf(await git(worktree, ['show', '-s', '--format=%B', commit], { signal }));
  return trailers.get(SPEC_TRAILER) === spec && trailers.get(TASK_TRAILER) === task;
}

/**
 * After the branch moved from `before` to `after` under a worktree whose files already are
 * `after`'s, its own index is brought up to date for the paths that changed, except those the
 * user staged differently (their index entry was not `before`'s): `git status` stays clean, and
 * what the user staged stays staged.
 */
export async function syncIndex(worktree: string, before: string, after: string, signal?: AbortSignal): Promise<void> {
  const changed = (await changesBetween(worktree, before, after, signal)).map((f) => f.path);
  if (!changed.length) return;
  const staged = new Set(zList(await git(worktree, ['diff', '--cached', '--name-only', '-z', before, '--', ...changed], { signal })));
  const ours = changed.filter((p) => !staged.has(p));
  if (ours.length) await git(worktree, ['reset', '-q', after, '--', ...ours], { signal });
}

/**
 * Rewinds the worktree's branch to `target` (an ancestor of its head) as `git reset --keep` does:
 * the files the rewound commits changed go back, the user's other uncommitted changes stay, and
 * nothing happens when one of those would be lost. Never the main checkout: the caller passes the
 * feature worktree.
 */
export async function rewindBranch(worktree: string, target: string, signal?: AbortSignal): Promise<void> {
  const head = await revParse(worktree, 'HEAD', signal);
  if (!head) throw new GitError(`${worktree} has no commit to rewind`);
  if (!(await isAncestor(worktree, target, head, signal))) throw new GitError(`${target.slice(0, 12)} is not on the branch of ${worktree}; nothing was rewound`);
  await git(worktree, ['reset', '--keep', target], { signal });
}

/** Puts one file of the worktree back as it was at `source` (removed when it did not exist there); the index is left alone. */
export async function restoreFile(worktree: string, source: string, path: string, signal?: AbortSignal): Promise<void> {
  const exists = (await gitOutput(worktree, ['cat-file', '-e', `${source}:${path}`], { signal })).code === 0;
  if (exists) await git(worktree, ['restore', `--source=${source}`, '--worktree', '--', path], { signal });
  else rmSync(join(worktree, path), { force: true });
}

/** A file's text at a commit; undefined when the commit has no such file. */
export async function fileAt(worktree: string, commit: string, path: string, signal?: AbortSignal): Promise<string | undefined> {
  const r = await gitOutput(worktree, ['show', `${commit}:${path}`], { signal });
  return r.code === 0 ? r.stdout : undefined;
}
