import { commitCheckpoint, type Checkpoint } from '../../git/checkpoints';
import { currentBranch, revParse, treeOf } from '../../git/gitCommand';
import { canMergeTrees, cleanTaskWorktrees, mergeTaskCommit, openTaskWorktree, putConflictInWorktree, removeTaskWorktree, type MergeOutcome } from '../../git/taskWorktrees';
import { readTaskRunRecord, type CheckpointRecord, type TaskRunRecord } from './taskRunRecord';
import type { LoopEnvironment } from './loopEnvironment';
import type { TaskStepInput } from './taskSteps';
import { diffOf } from './loopEnvironment';

/**
 * Where a task works and where its work goes: the feature worktree, or (a task of a parallel
 * batch) a worktree of its own on a branch from the feature branch's checkpoint; and, once done,
 * its checkpoint, a commit on the feature branch (made there, or merged from its own branch).
 */
const envs = new WeakMap<LoopEnvironment, Map<string, LoopEnvironment>>();

/** The environment of the task's steps: its own worktree's when it has one, with that worktree's diff. */
export function workEnvOf(env: LoopEnvironment, record: TaskRunRecord): LoopEnvironment {
  const path = record.worktree?.path;
  if (!path || path === env.worktree) return env;
  let byPath = envs.get(env);
  if (!byPath) envs.set(env, (byPath = new Map()));
  let own = byPath.get(path);
  if (!own) byPath.set(path, (own = { ...env, worktree: path, diff: env.diffFor(path) }));
  return own;
}

/** The task's own worktree, made (or found again after a reload) from the feature branch's head. */
export async function openOwnWorktree(input: TaskStepInput, env: LoopEnvironment): Promise<NonNullable<TaskRunRecord['worktree']>> {
  const known = input.record.worktree;
  const from = known?.from ?? (await revParse(env.featureWorktree, 'HEAD', env.signal))!;
  const opened = await openTaskWorktree({ featureWorktree: env.featureWorktree, task: input.task.id, from, resume: known !== undefined, signal: env.signal });
  env.emit({ type: 'task-worktree', task: input.task.id, path: opened.path, branch: opened.branch });
  return { path: opened.path, branch: opened.branch, from };
}

const recordOf = (cp: Checkpoint, at: string, partial = false): CheckpointRecord => ({
  commit: cp.commit,
  parent: cp.parent,
  branch: cp.branch,
  files: cp.files.map((f) => f.path),
  at,
  ...(partial ? { partial } : {}),
});

/**
 * Commits the task's changes in the worktree it ran in: its diff since it started, and the files
 * of its earlier checkpoints (a rejected file put back counts as a change). Undefined when there
 * is nothing to commit.
 */
export async function commitTask(input: TaskStepInput, env: LoopEnvironment, partial = false): Promise<CheckpointRecord | undefined> {
  const { task, record } = input;
  if (!record.base) return undefined;
  const diff = await diffOf(env, record.base, input.owns);
  const earlier = (record.checkpoints ?? []).flatMap((c) => c.files);
  const last = record.checkpoints?.at(-1);
  const cp = await commitCheckpoint({
    worktree: env.worktree,
    spec: env.specDir,
    task: task.id,
    title: taskTitleOf(task),
    files: [...diff.files.map((f) => f.path), ...(record.worktree ? [] : earlier)],
    // A task's own branch holds nothing but its own work: its commit is never replaced there.
    ...(last && !record.worktree ? { replaces: { commit: last.commit, parent: last.parent } } : {}),
    partial,
    signal: env.signal,
  });
  if (!cp) {
    // Nothing to merge: a worktree of its own has served its purpose.
    if (record.worktree && !partial) await removeTaskWorktree({ featureWorktree: env.featureWorktree, task: task.id, signal: env.signal });
    return undefined;
  }
  if (!record.worktree) env.emit({ type: 'checkpoint', task: task.id, commit: cp.commit, files: cp.files.map((f) => f.path), ...(partial ? { partial } : {}) });
  return recordOf(cp, env.now(), partial);
}

/** The task file's heading without its id: the checkpoint's subject. */
function taskTitleOf(task: TaskStepInput['task']): string {
  return (task.title ?? '').replace(new RegExp(`^${task.id}\\b\\s*[:：.-]?\\s*`), '').trim();
}

export type MergeResult = { kind: 'merged'; checkpoint: CheckpointRecord } | Exclude<MergeOutcome, { kind: 'merged' }>;

/** Merges the task's checkpoint into the feature branch; once merged, its worktree and branch go. */
export async function mergeTask(input: TaskStepInput, env: LoopEnvironment): Promise<MergeResult> {
  const { task, record } = input;
  const outcome = await mergeTaskCommit({ featureWorktree: env.featureWorktree, taskCommit: record.task_commit!, from: record.worktree!.from, spec: env.specDir, task: task.id, signal: env.signal });
  if (outcome.kind !== 'merged') return outcome;
  await removeTaskWorktree({ featureWorktree: env.featureWorktree, task: task.id, signal: env.signal });
  const checkpoint = recordOf(outcome.checkpoint, env.now());
  env.emit({ type: 'checkpoint', task: task.id, commit: checkpoint.commit, files: checkpoint.files, merged: true });
  return { kind: 'merged', checkpoint };
}

/**
 * The breaker's choice C keeps what the task did although it is skipped: in the feature worktree
 * as a partial checkpoint on the feature branch; in a worktree of its own, on its own branch.
 */
export async function keepPartial(input: TaskStepInput, env: LoopEnvironment): Promise<{ checkpoint?: CheckpointRecord }> {
  if (input.record.worktree) return setAside(input, env);
  if (!env.checkpoints) return {};
  const checkpoint = await commitTask(input, env, true);
  return checkpoint ? { checkpoint } : {};
}

/**
 * Choice A (and C) for a task with a worktree of its own: its work is committed on its own branch
 * (not merged) and the worktree removed, so the task starts afresh once re-planned. A task in the
 * feature worktree keeps its work there, where its next attempt starts from it.
 */
export async function setAside(input: TaskStepInput, env: LoopEnvironment): Promise<{ checkpoint?: CheckpointRecord }> {
  const { record, task } = input;
  if (!record.worktree) return {};
  // The conflict's merge result may be in the worktree: committed as it is, on the task's own branch.
  await commitTask(input, env, true).catch((e: Error) => env.logger.warn(`${task.id}: its partial work could not be committed on ${record.worktree!.branch}: ${e.message}`));
  await removeTaskWorktree({ featureWorktree: env.featureWorktree, task: task.id, keepBranch: true, signal: env.signal });
  env.logger.info(`${task.id}: its work is kept on branch ${record.worktree.branch}; its worktree was removed`);
  return {};
}

/**
 * Choice B after a conflict: the merge result, markers and all, goes into the task's worktree on
 * the feature branch's head, which the task's diff now starts from.
 */
export async function prepareManualFix(input: TaskStepInput, env: LoopEnvironment): Promise<Pick<TaskRunRecord, 'base' | 'worktree' | 'conflict'>> {
  const { record } = input;
  if (!record.worktree || !record.conflict) return {};
  await putConflictInWorktree({ taskWorktree: record.worktree.path, head: record.conflict.head, tree: record.conflict.tree, signal: env.signal });
  return { base: await treeOf(env.featureWorktree, record.conflict.head, env.signal), worktree: { ...record.worktree, from: record.conflict.head }, conflict: undefined };
}

/**
 * Before the first batch: whether tasks can have worktrees of their own here, and the task
 * worktrees left by a crash or a stop for tasks that have nothing to resume there, removed.
 */
export async function prepareWorkspace(env: LoopEnvironment, signal: AbortSignal): Promise<{ taskWorktrees: boolean; removed: string[] }> {
  if (!env.checkpoints) return { taskWorktrees: false, removed: [] };
  // A feature branch without a commit cannot be branched from; nor can a detached HEAD be committed on.
  if (!(await currentBranch(env.featureWorktree, signal)) || !(await revParse(env.featureWorktree, 'HEAD', signal))) return { taskWorktrees: false, removed: [] };
  const states = env.store.snapshot().taskStates;
  const resumable = new Set<string>();
  for (const [id, state] of states) {
    const record = readTaskRunRecord(state);
    if (record.worktree && state.status !== 'done' && !record.skipped) resumable.add(id);
  }
  const removed = await cleanTaskWorktrees(env.featureWorktree, resumable, signal);
  if (removed.length) env.emit({ type: 'worktrees-cleaned', tasks: removed });
  return { taskWorktrees: await canMergeTrees(env.featureWorktree, signal), removed };
}
