import { join } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';
import { toJsonText, writeFileAtomic } from '../fs/atomicWrite';
import { t } from '../messages';
import { withRunLock, type SpecLocation } from '../store/runLock';
import { readReviewJson } from './reviewStore';

/**
 * `review-answers.json`: the review rounds Loom answered at the review gate, beside
 * review-comments.json in the spec directory. loom never reads it (its validators look at
 * review-feedback.md, review-response.md and the handoffs only), and no approval fingerprints it.
 * It keeps which review-feedback.md (its sha256) and which code threads were answered, so the same
 * BLOCKERs are never sent back to the implementer twice, and what was fixed, so the response at
 * code-review-response still lists the fixes of the earlier rounds.
 */
export const REVIEW_ROUNDS_FILE = 'review-answers.json';

export const answeredPointSchema = lazySchema((z) =>
  z.object({
    answer: z.enum(['fixed', 'declined', 'discussion']),
    point: z.string(),
    task: z.string().optional(),
    files: z.array(z.string()).optional(),
    why: z.string().optional(),
    at: z.string().optional(),
  }),
);

export const reviewRoundSchema = lazySchema((z) =>
  z.object({
    /** The sha256 of the review-feedback.md the round answered; null when there was none to hash. */
    feedback_sha256: z.string().nullable(),
    /** The code comment threads the round fixed. */
    threads: z.array(z.string()),
    answered_at: z.string(),
    writer: z.string(),
    points: z.array(answeredPointSchema()),
  }),
);

export const reviewRoundsSchema = lazySchema((z) => z.object({ version: z.literal(1), rounds: z.array(reviewRoundSchema()) }));

export type ReviewRound = z.infer<ReturnType<typeof reviewRoundSchema>>;
export type ReviewRounds = z.infer<ReturnType<typeof reviewRoundsSchema>>;

/** The rounds answered so far; none yet is an empty record. A file that does not read throws, naming it, and is left as it is. */
export function readReviewRounds(spec: SpecLocation): ReviewRounds {
  return readReviewJson(
    spec,
    REVIEW_ROUNDS_FILE,
    reviewRoundsSchema(),
    () => ({ version: 1 as const, rounds: [] }),
    (file, where, detail) => t('answerReview.roundsUnreadable', { file, where, detail }),
  );
}

/** One more round answered: read afresh and written atomically under the spec's run lock. */
export function appendReviewRound(spec: SpecLocation, round: ReviewRound): void {
  withRunLock(spec, () => {
    const record = readReviewRounds(spec);
    record.rounds.push(round);
    writeFileAtomic(join(spec.dir, REVIEW_ROUNDS_FILE), toJsonText(reviewRoundsSchema().parse(record)));
  });
}
