import { join } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';
import { CorruptArtifactError } from '../errors';
import { toJsonText, writeFileAtomic } from '../fs/atomicWrite';
import { readOptionalText } from '../fs/readOptional';
import { t } from '../messages';
import { withRunLock, type SpecLocation } from '../store/runLock';

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
  const rel = `${spec.specDir}/${REVIEW_ROUNDS_FILE}`;
  const text = readOptionalText(join(spec.dir, REVIEW_ROUNDS_FILE));
  if (text === undefined) return { version: 1, rounds: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CorruptArtifactError(t('review.notJson', { file: rel, detail: (e as Error).message }), rel);
  }
  const parsed = reviewRoundsSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CorruptArtifactError(t('answerReview.roundsUnreadable', { file: rel, where: issue?.path.join('.') || 'root', detail: issue?.message ?? '' }), rel);
  }
  return parsed.data;
}

/** One more round answered: read afresh and written atomically under the spec's run lock. */
export function appendReviewRound(spec: SpecLocation, round: ReviewRound): void {
  withRunLock(spec, () => {
    const record = readReviewRounds(spec);
    record.rounds.push(round);
    writeFileAtomic(join(spec.dir, REVIEW_ROUNDS_FILE), toJsonText(reviewRoundsSchema().parse(record)));
  });
}
