import { readOptionalText } from '../fs/readOptional';
import { join } from 'node:path';
import { REVIEW_FEEDBACK_FILE } from '../files/vocabulary';
import { t } from '../messages';
import { snapshotFact } from '../specdir/snapshotFacts';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { findWorktree } from '../specdir/worktree';
import { staleHandoffs } from '../specdir/handoffStaleness';
import { sha256OfFile } from '../fs/sha256';
import { readReviewFeedback, type FeedbackPoint } from './feedbackPoints';
import { REVIEW_COMMENTS_FILE, type ReviewThread } from './reviewComments';
import { reviewFixes, type ReviewFix } from './reviewFixes';
import { ANSWERED_BY_MARK, REVIEW_RESPONSE_FILE, type AnsweredPoint } from './reviewResponse';
import { readReviewRounds, REVIEW_ROUNDS_FILE, type ReviewRounds } from './reviewRounds';
import { readReviewComments } from './reviewStore';

/**
 * What there is to answer (at the review gate, or at code-review-response): the review's points,
 * the open code threads, the fixes they make that no earlier round answered, and what the earlier
 * rounds at the gate fixed (review-answers.json).
 */
export interface ReviewToAnswer {
  points: FeedbackPoint[];
  threads: ReviewThread[];
  fixes: ReviewFix[];
  /** The points fixed in the rounds answered at the review gate, each with when. */
  earlier: AnsweredPoint[];
  /** The feature worktree the fixes are made in. */
  worktree?: string;
}

/** Why the review cannot be answered as the files are: the sentence, the file to open, and the kind. */
export interface ReviewProblem {
  message: string;
  file: string;
  code: 'no-review-feedback' | 'corrupt-file' | 'no-worktree' | 'response-exists';
}

/** The handoff field that keeps the sha256 of the review-feedback.md an answer answered. */
export const ANSWERED_FEEDBACK_KEY = 'answered_feedback_sha256';

/**
 * The review is answered already: the stage's handoff is done, what it fingerprints
 * (review-response.md, the tests' log) has not changed, and review-feedback.md is the one it
 * answered. Answering again would send fixed BLOCKERs back to the implementer; new feedback is
 * answered anew.
 */
export function reviewAnswered(facts: SpecSnapshot, stage: string): boolean {
  const handoff = facts.handoffs.get(stage);
  if (handoff?.status !== 'done' || staleHandoffs(facts).some((h) => h.handoff === `handoffs/${stage}.json`)) return false;
  const answered = (handoff as Record<string, unknown>)[ANSWERED_FEEDBACK_KEY];
  return answered === undefined || answered === feedbackSha256Of(facts);
}

/** review-feedback.md's sha256 as this read of the spec found it (a fact of the snapshot, read once: snapshotFacts.ts). */
export const feedbackSha256Of = (facts: Pick<SpecSnapshot, 'dir'>): string | undefined => snapshotFact(facts, 'feedbackSha256', () => sha256OfFile(join(facts.dir, REVIEW_FEEDBACK_FILE)));

const cache = new WeakMap<SpecSnapshot, ReviewToAnswer | ReviewProblem>();

export const isReviewProblem = (r: ReviewToAnswer | ReviewProblem): r is ReviewProblem => 'code' in r;

/**
 * The review as the spec's files hold it, read once per snapshot (the actor's guards and its
 * refusal read the same): review-feedback.md's points and the open comment threads on the
 * feature's code, the fix each BLOCKER and thread becomes, and the worktree to fix them in.
 */
export function reviewToAnswer(facts: SpecSnapshot): ReviewToAnswer | ReviewProblem {
  let found = cache.get(facts);
  if (!found) cache.set(facts, (found = readReview(facts)));
  return found;
}

function readReview(facts: SpecSnapshot): ReviewToAnswer | ReviewProblem {
  const feedbackFile = `${facts.specDir}/${REVIEW_FEEDBACK_FILE}`;
  const feedback = readReviewFeedback(facts.dir, facts.specDir);
  if ('missing' in feedback) return { message: t('answerReview.noFeedback', { file: feedbackFile }), file: REVIEW_FEEDBACK_FILE, code: 'no-review-feedback' };
  if ('problem' in feedback) return { message: feedback.problem, file: REVIEW_FEEDBACK_FILE, code: 'corrupt-file' };
  let threads: ReviewThread[];
  try {
    threads = readReviewComments(facts).threads;
  } catch (e) {
    return { message: (e as Error).message, file: REVIEW_COMMENTS_FILE, code: 'corrupt-file' };
  }
  // A response a person wrote (with @loom /respond, or by hand) is theirs: Loom replaces only its own.
  const response = readOptionalText(join(facts.dir, REVIEW_RESPONSE_FILE));
  if (response !== undefined && !ANSWERED_BY_MARK.test(response)) {
    return { message: t('answerReview.responseExists', { file: `${facts.specDir}/${REVIEW_RESPONSE_FILE}` }), file: REVIEW_RESPONSE_FILE, code: 'response-exists' };
  }
  let rounds: ReviewRounds;
  try {
    rounds = readReviewRounds(facts);
  } catch (e) {
    return { message: (e as Error).message, file: REVIEW_ROUNDS_FILE, code: 'corrupt-file' };
  }
  const fixes = notAnsweredYet(reviewFixes(facts, feedback.points, threads), rounds, feedbackSha256Of(facts) ?? null);
  const earlier = rounds.rounds.flatMap((r) => r.points.filter((p) => p.answer === 'fixed').map((p) => ({ ...p, at: r.answered_at })));
  const worktree = findWorktree(facts);
  if (fixes.length && !worktree) return { message: t('answerReview.noWorktree', { specDir: facts.specDir }), file: 'pipeline.state.json', code: 'no-worktree' };
  return { points: feedback.points, threads, fixes, earlier, ...(worktree ? { worktree } : {}) };
}

/**
 * The fixes no round answered yet: a BLOCKER of a review-feedback.md a round answered (the same
 * sha256) and a code thread a round fixed are not sent back to the implementer again; a reviewer's
 * new feedback is new work.
 */
function notAnsweredYet(fixes: ReviewFix[], rounds: ReviewRounds, feedback: string | null): ReviewFix[] {
  const answeredFeedback = rounds.rounds.some((r) => r.feedback_sha256 !== null && r.feedback_sha256 === feedback);
  const answeredThreads = new Set(rounds.rounds.flatMap((r) => r.threads));
  return fixes.filter((f) => (f.source.kind === 'feedback' ? !answeredFeedback : !answeredThreads.has(f.source.thread.id)));
}

/** The review has something Loom fixes that no round answered yet (a BLOCKER, an open code thread): at the gate and at code-review-response. */
export function reviewHasFixes(facts: SpecSnapshot): boolean {
  const review = reviewToAnswer(facts);
  return !isReviewProblem(review) && review.fixes.length > 0;
}
