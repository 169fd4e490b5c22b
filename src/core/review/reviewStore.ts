import { join } from 'node:path';
import { CorruptArtifactError } from '../errors';
import { toJsonText, writeFileAtomic } from '../fs/atomicWrite';
import { readOptionalText } from '../fs/readOptional';
import { withRunLock, type SpecLocation } from '../store/runLock';
import { emptyReviewComments, REVIEW_COMMENTS_FILE, reviewCommentsSchema, type ReviewComments } from './reviewComments';
import { t as say } from '../messages';

/**
 * Reads a spec's `review-comments.json`; none yet is an empty set of threads. A file that does not
 * parse throws, naming it, and is never overwritten: the threads in it are somebody's work.
 */
export function readReviewComments(spec: SpecLocation): ReviewComments {
  const rel = `${spec.specDir}/${REVIEW_COMMENTS_FILE}`;
  const text = readOptionalText(join(spec.dir, REVIEW_COMMENTS_FILE));
  if (text === undefined) return emptyReviewComments();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CorruptArtifactError(say('review.notJson', { file: rel, detail: (e as Error).message }), rel);
  }
  const parsed = reviewCommentsSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CorruptArtifactError(say('review.notThreads', { file: rel, where: issue?.path.join('.') || 'root', detail: issue?.message ?? '' }), rel);
  }
  return parsed.data;
}

/**
 * Changes the threads under the spec's run lock: read afresh (another window may have written),
 * changed by `edit`, written atomically. A corrupt file stops the change before anything is written.
 */
export function updateReviewComments<T>(spec: SpecLocation, edit: (comments: ReviewComments) => T): T {
  return withRunLock(spec, () => {
    const comments = readReviewComments(spec);
    const result = edit(comments);
    writeFileAtomic(join(spec.dir, REVIEW_COMMENTS_FILE), toJsonText(reviewCommentsSchema().parse(comments)));
    return result;
  });
}
