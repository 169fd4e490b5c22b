import { join } from 'node:path';
import { LoomError } from '../errors';
import { writeFileAtomic } from '../fs/atomicWrite';
import { readOptionalText } from '../fs/readOptional';
import { withRunLock, type SpecLocation } from '../store/runLock';
import type { ReviewThread } from './reviewComments';
import { t as text } from '../messages';
import { REVIEW_FEEDBACK_FILE } from '../files/vocabulary';
import { parseReport } from '../files/report';

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
  const feedback = renderReviewFeedback(title, threads, verdict);
  // loom 3's checkReviewFeedbackApproval refuses a PASS whose text holds a blocking marker (a
  // comment saying "this test failed"): such a PASS would only look approved, so it is not written.
  const markers = verdict === 'PASS' ? parseReport(rel, feedback).blockingMarkers : [];
  if (markers.length) {
    throw new LoomError(text('review.exportPassBlocked', { markers: [...new Set(markers.map((m) => m.marker))].join(', '), lines: [...new Set(markers.map((m) => m.line))].join(', ') }), rel);
  }
  return withRunLock(spec, () => {
    const path = join(spec.dir, REVIEW_FEEDBACK_FILE);
    if (readOptionalText(path) !== undefined) throw new LoomError(text('review.exportExists', { file: rel }), rel);
    writeFileAtomic(path, feedback);
    return rel;
  });
}
