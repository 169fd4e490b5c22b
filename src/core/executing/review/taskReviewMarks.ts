import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeCrypto } from '../../nodeModules';
import type { ReviewedMark, TaskReview } from './taskReviewFile';

/**
 * Mark as Reviewed, per file of a task's change: the mark keeps a digest of the file as it was
 * when marked, and holds only while the file still has that digest. A later fix round, a later
 * task or a hand edit that changes the file clears it, as VS Code's agent review clears a file's
 * reviewed state when the agent edits it again.
 */

/** The digest a mark compares: sha256 of the bytes, `deleted` for a file that is not there. */
export function fileDigest(root: string, file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(root, ...file.split('/')));
  } catch {
    return 'deleted';
  }
  return nodeCrypto().createHash('sha256').update(bytes).digest('hex');
}

export type ReviewedState = { file: string; reviewed: true; mark: ReviewedMark } | { file: string; reviewed: false; changedSince?: ReviewedMark };

/**
 * Each of the task's files, reviewed or not: a file marked whose digest is no longer the one
 * marked reads as not reviewed, saying it changed since.
 */
export function reviewedStates(review: Pick<TaskReview, 'reviewed'>, files: readonly string[], digestOf: (file: string) => string): ReviewedState[] {
  return files.map((file) => {
    const mark = review.reviewed.find((m) => m.file === file);
    if (!mark) return { file, reviewed: false };
    return mark.sha256 === digestOf(file) ? { file, reviewed: true, mark } : { file, reviewed: false, changedSince: mark };
  });
}

/** Marks (or unmarks) a file, replacing an earlier mark of it. */
export function markReviewed(review: TaskReview, mark: ReviewedMark | { file: string; unmark: true }): void {
  review.reviewed = review.reviewed.filter((m) => m.file !== mark.file);
  if (!('unmark' in mark)) review.reviewed.push(mark);
}

/** Drops the marks of files that changed since: the file then says so once, and the next write is clean. */
export function clearChangedMarks(review: TaskReview, digestOf: (file: string) => string): string[] {
  const changed = review.reviewed.filter((m) => m.sha256 !== digestOf(m.file)).map((m) => m.file);
  if (changed.length) review.reviewed = review.reviewed.filter((m) => !changed.includes(m.file));
  return changed;
}
