import { exportReviewFeedback, type FeedbackVerdict } from './feedbackExport';
import type { ReviewComments, ReviewThread } from './reviewComments';
import { updateReviewComments } from './reviewStore';
import type { SpecLocation } from '../store/runLock';

/** A spec's actor as these writes need it: where the spec is, and its funnel for a write beside the intents (SpecPipeline.change). */
interface FollowedSpec {
  readonly snapshot: SpecLocation;
  change<T>(write: () => T): T;
}

/**
 * Changes the spec's threads (updateReviewComments: under the run lock, atomically) as a change
 * of the spec (SpecPipeline.change): the views hear of it from the spec's one notification, as
 * they hear of a request, with no reload of their own.
 */
export function updateSpecThreads<T>(spec: FollowedSpec, edit: (comments: ReviewComments) => T): T {
  return spec.change(() => updateReviewComments(spec.snapshot, edit));
}

/** Export to Review Feedback (exportReviewFeedback), a change of the spec as updateSpecThreads. */
export function exportSpecFeedback(spec: FollowedSpec, title: string, threads: readonly ReviewThread[], verdict: FeedbackVerdict): string {
  return spec.change(() => exportReviewFeedback(spec.snapshot, title, threads, verdict));
}
