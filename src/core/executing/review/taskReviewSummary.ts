import type { SpecSnapshot } from '../../specdir/specSnapshot';
import { findWorktree } from '../../specdir/worktree';
import { checkpointsOf } from './taskChanges';
import { openTaskThreads, readTaskReview, TASK_REVIEWS_DIR } from './taskReviewFile';
import { fileDigest, reviewedStates, type ReviewedState } from './taskReviewMarks';

/** Where a task's files are now: the feature worktree, or the repository once the feature was merged and its worktree removed. */
export const taskCodeRoot = (snapshot: Pick<SpecSnapshot, 'repoRoot' | 'state' | 'name'>) => findWorktree(snapshot) ?? snapshot.repoRoot;

/** The files a task's checkpoints changed, each once, in the order they were first changed. */
export const taskChangedFiles = (snapshot: SpecSnapshot, task: string) => [...new Set(checkpointsOf(snapshot.taskStates.get(task)).flatMap((c) => c.files))];

/** What the tree and the dashboard say of a task's review: its files reviewed (and those changed since), its open threads. */
export interface TaskReviewSummary {
  files: ReviewedState[];
  reviewed: number;
  /** Files marked reviewed that changed since. */
  changed: string[];
  openThreads: number;
  /** task-reviews/TN.json does not parse: named, and nothing else is said. */
  error?: string;
}

/**
 * The one derivation of a task's review state, read by the tree and the dashboard model. A task
 * without a checkpoint or without a review file costs no read of its files.
 */
export function taskReviewSummary(snapshot: SpecSnapshot, task: string): TaskReviewSummary | undefined {
  if (!snapshot.files.has(`${TASK_REVIEWS_DIR}/`)) return undefined;
  let review;
  try {
    review = readTaskReview(snapshot, task);
  } catch (e) {
    return { files: [], reviewed: 0, changed: [], openThreads: 0, error: (e as Error).message };
  }
  if (!review.threads.length && !review.reviewed.length) return undefined;
  const root = taskCodeRoot(snapshot);
  const files = reviewedStates(review, taskChangedFiles(snapshot, task), (f) => fileDigest(root, f));
  return {
    files,
    reviewed: files.filter((f) => f.reviewed).length,
    changed: files.flatMap((f) => (!f.reviewed && f.changedSince ? [f.file] : [])),
    openThreads: openTaskThreads(review).length,
  };
}
