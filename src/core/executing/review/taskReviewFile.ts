import { join } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { CorruptArtifactError } from '../../errors';
import { toJsonText, writeFileAtomic } from '../../fs/atomicWrite';
import { readOptionalText } from '../../fs/readOptional';
import { t } from '../../messages';
import { reviewThreadSchema } from '../../review/reviewComments';
import { newComment, newThread } from '../../review/threadEdits';
import { withRunLock, type SpecLocation } from '../../store/runLock';

/**
 * `task-reviews/TN.json`: what a person said about one task's change (comment threads on lines of
 * its diff) and which of its files they marked as reviewed. It lives in the spec directory beside
 * `task-states/`, so it travels with the task's checkpoint records through git and survives a
 * reload. loom never reads it: loom 3 lists only `task-states/*.state.json` (StateStore.readAllTasks),
 * and no stage declares the folder, so no approval or handoff fingerprint names it.
 */
export const TASK_REVIEWS_DIR = 'task-reviews';

export const taskReviewPath = (task: string) => `${TASK_REVIEWS_DIR}/${task}.json`;

/**
 * A thread on a task's change: a spec's review thread (reviewComments.ts) whose `file` is
 * worktree-relative and whose lines are the file as the task's checkpoint left it when the
 * comment was made, never on the feature's code at the gate (`code`); and, once sent to the
 * implementer, when and how many checkpoints the task had then (the fix round's come after).
 */
export const taskThreadSchema = lazySchema((z) =>
  reviewThreadSchema()
    .omit({ code: true })
    .extend({ sent: z.object({ at: z.string(), checkpoints: z.number().int().min(0) }).optional() }),
);

export const reviewedMarkSchema = lazySchema((z) =>
  z.object({
    file: z.string().min(1),
    /** sha256 of the file's bytes when it was marked (`deleted` for a file the task deleted). */
    sha256: z.string().min(1),
    at: z.string(),
    by: z.string(),
    /** The task's latest checkpoint then. */
    commit: z.string().optional(),
  }),
);

export const taskReviewSchema = lazySchema((z) =>
  z.object({
    version: z.literal(1),
    task: z.string().min(1),
    threads: z.array(taskThreadSchema()),
    reviewed: z.array(reviewedMarkSchema()),
  }),
);

export type TaskThread = z.infer<ReturnType<typeof taskThreadSchema>>;
export type ReviewedMark = z.infer<ReturnType<typeof reviewedMarkSchema>>;
export type TaskReview = z.infer<ReturnType<typeof taskReviewSchema>>;

export const emptyTaskReview = (task: string): TaskReview => ({ version: 1, task, threads: [], reviewed: [] });

/** Threads still open on the task's change (or on one of its files). */
export const openTaskThreads = (r: TaskReview, file?: string) => r.threads.filter((th) => th.status === 'open' && (file === undefined || th.file === file));

/**
 * Reads a task's review file; none yet is an empty review. A file that does not parse, or not in
 * this shape, throws naming it, and is never overwritten: what is in it is a person's words.
 */
export function readTaskReview(spec: SpecLocation, task: string): TaskReview {
  const rel = `${spec.specDir}/${taskReviewPath(task)}`;
  const text = readOptionalText(join(spec.dir, taskReviewPath(task)));
  if (text === undefined) return emptyTaskReview(task);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CorruptArtifactError(t('taskReview.notJson', { file: rel, detail: (e as Error).message }), rel);
  }
  const parsed = taskReviewSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CorruptArtifactError(t('taskReview.notShape', { file: rel, where: issue?.path.join('.') || 'root', detail: issue?.message ?? '' }), rel);
  }
  return parsed.data;
}

/**
 * Changes a task's review under the spec's run lock: read afresh (another window may have
 * written), changed by `edit`, written atomically. A corrupt file stops it before anything is written.
 */
export function updateTaskReview<T>(spec: SpecLocation, task: string, edit: (review: TaskReview) => T): T {
  return withRunLock(spec, () => {
    const review = readTaskReview(spec, task);
    const result = edit(review);
    writeFileAtomic(join(spec.dir, taskReviewPath(task)), toJsonText(taskReviewSchema().parse(review)));
    return result;
  });
}

/** A new open thread on lines `line..endLine` of `file`, with its first comment. */
export function addTaskThread(review: TaskReview, at: { file: string; line: number; endLine: number; quote: string }, comment: { author: string; body: string }, now: string): TaskThread {
  const thread: TaskThread = newThread({ ...at, ...comment, now });
  review.threads.push(thread);
  return thread;
}

export function replyToTaskThread(review: TaskReview, threadId: string, comment: { author: string; body: string }, now: string): void {
  const thread = review.threads.find((th) => th.id === threadId);
  if (thread) thread.comments.push(newComment(comment.author, comment.body, now));
}

export function setTaskThreadStatus(review: TaskReview, threadId: string, status: TaskThread['status']): void {
  const thread = review.threads.find((th) => th.id === threadId);
  if (thread) thread.status = status;
}

export function deleteTaskThread(review: TaskReview, threadId: string): void {
  review.threads = review.threads.filter((th) => th.id !== threadId);
}
