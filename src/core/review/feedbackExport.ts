import { join } from 'node:path';
import { LoomError } from '../errors';
import { writeFileAtomic } from '../fs/atomicWrite';
import { readOptionalText } from '../fs/readOptional';
import { withRunLock, type SpecLocation } from '../store/runLock';
import type { ReviewThread } from './reviewComments';
import { t as text } from '../messages';
import { REVIEW_FEEDBACK_FILE } from '../files/vocabulary';

export { REVIEW_FEEDBACK_FILE };

/** The reviewer's decision written with the points: PASS lets the review gate through. */
export type FeedbackVerdict = 'PASS' | 'CHANGES_REQUESTED';

/** One point as code-review-response reads review-feedback.md: `- <where>: <what was said>`. */
function point(t: ReviewThread): string {
  const where = t.line === t.end_line ? `${t.file}:${t.line}` : `${t.file}:${t.line}-${t.end_line}`;
  const said = t.comments.map((c) => `${c.body.replace(/\s*\n\s*/g, ' ').trim()} (${c.author})`).join(' — ');
  return `- \`${where}\`: ${said}`;
}

/**
 * The open threads of a review as `review-feedback.md`, in the form the code-review-response stage
 * reads (a title, the reviewers, one `- ` line per point, the verdict line the review gate checks).
 * An existing review-feedback.md is somebody's review: it is never overwritten.
 */
export function renderReviewFeedback(title: string, threads: readonly ReviewThread[], verdict: FeedbackVerdict): string {
  const open = threads.filter((t) => t.status === 'open');
  const reviewers = [...new Set(open.flatMap((t) => t.comments.map((c) => c.author)))];
  return `# Review feedback: ${title}\n\nReviewer: ${reviewers.join(', ') || '-'}\n\n${open.map(point).join('\n')}\n\nverdict: ${verdict}\n`;
}

export function exportReviewFeedback(spec: SpecLocation, title: string, threads: readonly ReviewThread[], verdict: FeedbackVerdict): string {
  const rel = `${spec.specDir}/${REVIEW_FEEDBACK_FILE}`;
  if (!threads.some((t) => t.status === 'open')) throw new LoomError(text('review.noOpenThread', { file: rel }), rel);
  return withRunLock(spec, () => {
    const path = join(spec.dir, REVIEW_FEEDBACK_FILE);
    if (readOptionalText(path) !== undefined) throw new LoomError(text('review.exportExists', { file: rel }), rel);
    writeFileAtomic(path, renderReviewFeedback(title, threads, verdict));
    return rel;
  });
}
