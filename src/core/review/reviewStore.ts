import { join } from 'node:path';
import type { z } from 'zod';
import { CorruptArtifactError } from '../errors';
import { toJsonText, writeFileAtomic } from '../fs/atomicWrite';
import { readOptionalText } from '../fs/readOptional';
import { withRunLock, type SpecLocation } from '../store/runLock';
import { emptyReviewComments, REVIEW_COMMENTS_FILE, reviewCommentsSchema, type ReviewComments } from './reviewComments';
import { t as say } from '../messages';

/**
 * Reads one of the review's JSON files of the spec directory; none yet is `empty()`. A file that
 * does not parse, or not as `schema`, throws, naming it (`notShape` says where and what), and is
 * never overwritten: what is in it is somebody's work.
 */
export function readReviewJson<T>(spec: SpecLocation, file: string, schema: z.ZodType<T>, empty: () => T, notShape: (rel: string, where: string, detail: string) => string): T {
  const rel = `${spec.specDir}/${file}`;
  const text = readOptionalText(join(spec.dir, file));
  if (text === undefined) return empty();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CorruptArtifactError(say('review.notJson', { file: rel, detail: (e as Error).message }), rel);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CorruptArtifactError(notShape(rel, issue?.path.join('.') || 'root', issue?.message ?? ''), rel);
  }
  return parsed.data;
}

/** Reads a spec's `review-comments.json`; none yet is an empty set of threads. */
export function readReviewComments(spec: SpecLocation): ReviewComments {
  return readReviewJson(spec, REVIEW_COMMENTS_FILE, reviewCommentsSchema(), emptyReviewComments, (file, where, detail) => say('review.notThreads', { file, where, detail }));
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
