import type { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';

/**
 * `review-comments.json`: the comment threads people leave on a spec's files, kept in the spec
 * directory so they travel with it through git. The file is the extension's own; loom never reads
 * it, and it is left out of every approval and handoff fingerprint.
 */
export const REVIEW_COMMENTS_FILE = 'review-comments.json';

export const reviewCommentSchema = lazySchema((z) =>
  z.object({
    id: z.string().min(1),
    author: z.string().min(1),
    body: z.string(),
    created_at: z.string(),
    edited_at: z.string().optional(),
  }),
);

export const threadStatusSchema = lazySchema((z) => z.enum(['open', 'resolved']));

export const reviewThreadSchema = lazySchema((z) =>
  z.object({
    id: z.string().min(1),
    /** Spec-relative path of the file the thread is on (`spec.md`, `tasks/T2.md`). */
    file: z.string().min(1),
    /** 1-based, inclusive: the lines the thread was written on, as they were then. */
    line: z.number().int().min(1),
    end_line: z.number().int().min(1),
    /** The text of those lines when the thread was made: how it finds them again after an edit. */
    quote: z.string(),
    status: threadStatusSchema(),
    /** A comment on the feature's code at the review gate: `file` is relative to the feature worktree. */
    code: z.literal(true).optional(),
    created_at: z.string(),
    comments: z.array(reviewCommentSchema()),
  }),
);

export const reviewCommentsSchema = lazySchema((z) =>
  z.object({
    version: z.literal(1),
    threads: z.array(reviewThreadSchema()),
  }),
);

export type ReviewComment = z.infer<ReturnType<typeof reviewCommentSchema>>;
export type ReviewThread = z.infer<ReturnType<typeof reviewThreadSchema>>;
export type ReviewComments = z.infer<ReturnType<typeof reviewCommentsSchema>>;
export type ThreadStatus = z.infer<ReturnType<typeof threadStatusSchema>>;

export const emptyReviewComments = (): ReviewComments => ({ version: 1, threads: [] });

export const openThreads = (c: ReviewComments, file?: string) => c.threads.filter((t) => t.status === 'open' && (file === undefined || t.file === file));
