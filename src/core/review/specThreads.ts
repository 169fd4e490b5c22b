import { exportReviewFeedback, type FeedbackVerdict } from './feedbackExport';
import type { ReviewComments, ReviewThread } from './reviewComments';
import { updateReviewComments } from './reviewStore';
import type { SpecLocation } from '../store/runLock';

/** A spec's actor as these writes need it: where the spec is, and how it reads its files again (SpecPipeline). */
interface FollowedSpec {
  readonly snapshot: SpecLocation;
  reload(): void;
}

/**
 * Changes the spec's threads (updateReviewComments: under the run lock, atomically), then the
 * spec reads its files again: the views hear of it from the spec's one notification, as they
 * hear of a request, with no reload of their own.
 */
export function updateSpecThreads<T>(spec: FollowedSpec, edit: (comments: ReviewComments) => T): T {
  try {
    return updateReviewComments(spec.snapshot, edit);
  } finally {
    spec.reload();
  }
}

/** Export to Review Feedback (exportReviewFeedback), then the spec's one notification, as updateSpecThreads. */
export function exportSpecFeedback(spec: FollowedSpec, title: string, threads: readonly ReviewThread[], verdict: FeedbackVerdict): string {
  try {
    return exportReviewFeedback(spec.snapshot, title, threads, verdict);
  } finally {
    spec.reload();
  }
}
