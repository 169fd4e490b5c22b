import { LoomError } from '../../errors';
import type { TaskState } from '../../files/taskState';
import { normalizeOwnedPath } from '../../fs/paths';
import { changesBetween, historySince, isAncestor, restoreFile, rewindBranch } from '../../git/checkpoints';
import { revParse } from '../../git/gitCommand';
import { isLinkedWorktree } from '../../git/linkedWorktree';
import { BORROWED_FOLDERS } from '../../git/taskWorktrees';
import { t } from '../../messages';
import type { SpecSnapshot } from '../../specdir/specSnapshot';
import { findWorktree } from '../../specdir/worktree';
import type { FixItem } from '../dispatch/fixInstructions';
import { GitDiffProvider } from '../evidence/diffProvider';
import { readTaskRunRecord, type CheckpointRecord, type TaskRunRecord } from '../machine/taskRunRecord';
import { readTaskReview, taskReviewPath, type TaskThread } from './taskReviewFile';
import { threadFixItems, threadsToSend } from './taskReviewRound';

/**
 * What a person does to a task's checkpoints after the run (Review Changes, Rewind): reject one
 * file of a task (the file goes back to its state before the task, and the task goes back to the
 * implementer in fix mode with the person's words), or rewind the feature branch to before a
 * task (that task and every later one back to pending). The plan is read from git and the task
 * states before anything moves, so the person's question can list what would be undone; git does
 * its part (in the feature worktree only, never the main checkout), then the spec's actor writes
 * the task states (effects/taskChange.ts).
 */
export type TaskChange = { kind: 'rewind'; task: string } | { kind: 'rejectFile'; task: string; file: string; words?: string } | { kind: 'sendThreads'; task: string };

export interface RewindPlan {
  kind: 'rewind';
  task: string;
  worktree: string;
  /** The commit before the task's first checkpoint: where the branch goes back to. */
  target: string;
  head: string;
  /** The tasks whose checkpoints are undone, in the order they were made. */
  tasks: string[];
  /** Every file the rewind changes back. */
  files: string[];
  /** For a task undone in part (a fix made after the target), how many of its checkpoints stay on the branch. */
  kept: Record<string, number>;
}

export interface RejectPlan {
  kind: 'rejectFile';
  task: string;
  worktree: string;
  file: string;
  words?: string;
  /** The commit before the task's checkpoint that changed the file: the file is put back as it was there. */
  before: string;
  checkpoint: string;
}

/** Send to the Implementer: the task's open comment threads, as one fix round (taskReviewRound.ts). */
export interface SendThreadsPlan {
  kind: 'sendThreads';
  task: string;
  worktree: string;
  threads: TaskThread[];
  /** The task's checkpoints when they were sent: the fix round's come after them. */
  checkpoints: number;
}

export type TaskChangePlan = RewindPlan | RejectPlan | SendThreadsPlan;

/** The checkpoints a task's state records (none before its first commit). */
export function checkpointsOf(state: TaskState | undefined): CheckpointRecord[] {
  return readTaskRunRecord(state).checkpoints ?? [];
}

function featureWorktreeOf(facts: SpecSnapshot): string {
  const worktree = findWorktree(facts);
  if (!worktree || !isLinkedWorktree(worktree)) throw new LoomError(t('taskChange.noFeatureWorktree', { specDir: facts.specDir }));
  return worktree;
}

/** Reads from git and the task states what the change would do; throws a clear error where it cannot be done. */
export async function planTaskChange(facts: SpecSnapshot, change: TaskChange, signal?: AbortSignal): Promise<TaskChangePlan> {
  const state = facts.taskStates.get(change.task);
  if (!facts.tasks.has(change.task) && !state) throw new LoomError(t('taskChange.unknownTask', { task: change.task, specDir: facts.specDir }));
  const checkpoints = checkpointsOf(state);
  if (change.kind === 'sendThreads') return planSendThreads(facts, change.task, checkpoints.length);
  if (!checkpoints.length) throw new LoomError(t('taskChange.noCheckpoint', { task: change.task }));
  const worktree = featureWorktreeOf(facts);
  if (change.kind === 'rejectFile') {
    const file = normalizeOwnedPath(change.file);
    const cp = [...checkpoints].reverse().find((c) => c.files.includes(file));
    if (!cp) throw new LoomError(t('taskChange.fileNotInTask', { task: change.task, file, files: [...new Set(checkpoints.flatMap((c) => c.files))].join(', ') || '-' }));
    return { kind: 'rejectFile', task: change.task, worktree, file, ...(change.words?.trim() ? { words: change.words.trim() } : {}), before: cp.parent, checkpoint: cp.commit };
  }
  const target = checkpoints[0].parent;
  const head = await revParse(worktree, 'HEAD', signal);
  if (!head || !(await isAncestor(worktree, target, head, signal))) throw new LoomError(t('taskChange.notOnBranch', { task: change.task, commit: target.slice(0, 12) }));
  const tasks: string[] = [];
  for (const c of await historySince(worktree, target, head, signal)) if (c.spec === facts.specDir && c.task && !tasks.includes(c.task)) tasks.push(c.task);
  if (!tasks.includes(change.task)) tasks.unshift(change.task);
  // A task whose checkpoints all sit after the target is undone too, though another spec's commit came between.
  for (const [id, s] of facts.taskStates) {
    if (tasks.includes(id)) continue;
    const cps = checkpointsOf(s);
    if (cps.length && (await Promise.all(cps.map((c) => isAncestor(worktree, target, c.commit, signal)))).every(Boolean) && cps.some((c) => c.commit !== target)) {
      if ((await Promise.all(cps.map((c) => isAncestor(worktree, c.commit, head, signal)))).some(Boolean)) tasks.push(id);
    }
  }
  const files = (await changesBetween(worktree, target, head, signal)).map((f) => f.path);
  const kept: Record<string, number> = {};
  for (const id of tasks) {
    const cps = checkpointsOf(facts.taskStates.get(id));
    let n = 0;
    while (n < cps.length && (await isAncestor(worktree, cps[n].commit, target, signal))) n++;
    if (n > 0) kept[id] = n;
  }
  return { kind: 'rewind', task: change.task, worktree, target, head, tasks, files, kept };
}

/**
 * Which threads go, and whether git still has the change they are on: a rewound task has no
 * checkpoint left to fix, a merged feature no worktree to fix it in; each is said with its cause.
 */
function planSendThreads(facts: SpecSnapshot, task: string, checkpoints: number): SendThreadsPlan {
  const threads = threadsToSend(readTaskReview(facts, task));
  if (!threads.length) throw new LoomError(t('taskReview.noOpenThreads', { task }));
  if (!checkpoints) throw new LoomError(t('taskReview.rewound', { task, count: threads.length, file: `${facts.specDir}/${taskReviewPath(task)}` }));
  const worktree = findWorktree(facts);
  if (!worktree || !isLinkedWorktree(worktree)) throw new LoomError(t('taskReview.merged', { task, specDir: facts.specDir }));
  return { kind: 'sendThreads', task, worktree, threads, checkpoints };
}

/** Git's part: the branch moved back (`reset --keep`), or the one file put back; returns the rejected task's new diff base. */
export async function applyTaskChange(plan: TaskChangePlan, signal: AbortSignal): Promise<{ base?: string }> {
  if (plan.kind === 'rewind') {
    await rewindBranch(plan.worktree, plan.target, signal);
    return {};
  }
  if (plan.kind === 'sendThreads') return { base: await new GitDiffProvider(plan.worktree, { exclude: BORROWED_FOLDERS }).snapshot(signal) };
  await restoreFile(plan.worktree, plan.before, plan.file, signal);
  // The fix's diff starts here, with the file as it was before the task.
  return { base: await new GitDiffProvider(plan.worktree, { exclude: BORROWED_FOLDERS }).snapshot(signal) };
}

/** The fix item a rejected file becomes: the file named, the person's words as the instruction. */
export function rejectionFixItem(file: string, words: string | undefined): FixItem {
  return {
    problem: words ? t('fixItem.rejected', { file, words }) : t('fixItem.rejected.noWords', { file }),
    file,
    severity: t('fixItem.blocker'),
    direction: t('fixItem.rejected.direction', { file }),
  };
}

/**
 * The task states after the change: a rewound task is pending with nothing of its run kept (its
 * checkpoints undone); a task whose file was rejected is pending in fix mode, its retry count and
 * its other checkpoints kept, so the same retry limit and breaker apply and its next checkpoint
 * carries the file again.
 */
export function taskStatesAfter(facts: SpecSnapshot, plan: TaskChangePlan, base: string | undefined): TaskState[] {
  if (plan.kind === 'rewind') {
    return plan.tasks.flatMap((id) => {
      const s = facts.taskStates.get(id);
      // What stays on the branch of a task undone in part is still its: kept, so its next checkpoint carries it on.
      const kept = checkpointsOf(s).slice(0, Object.hasOwn(plan.kept, id) ? plan.kept[id] : 0);
      return s ? [{ ...s, status: 'pending' as const, retry_count: 0, blocker: null, last_reviewer_result: null, metadata: kept.length ? { checkpoints: kept } : {} }] : [];
    });
  }
  const s = facts.taskStates.get(plan.task)!;
  const fixItems = plan.kind === 'sendThreads' ? threadFixItems(plan.threads) : [rejectionFixItem(plan.file, plan.words)];
  const lastResult =
    plan.kind === 'sendThreads'
      ? `REVIEW COMMENTS: ${plan.threads.map((th) => (th.line === th.end_line ? `${th.file}:${th.line}` : `${th.file}:${th.line}-${th.end_line}`)).join(', ')}`
      : `REJECTED: ${plan.file}`;
  const { completed_at: _done, breaker: _b, skipped: _s, worktree: _w, task_commit: _c, conflict: _x, ...kept } = readTaskRunRecord(s);
  const record: TaskRunRecord = {
    ...kept,
    ...(base ? { base } : {}),
    mode: 'fix',
    step: 'implement',
    fix_items: fixItems,
    diff_owns: true,
  };
  return [{ ...s, status: 'pending', blocker: null, last_reviewer_result: lastResult, metadata: record }];
}
