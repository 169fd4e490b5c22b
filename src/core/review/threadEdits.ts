import { LoomError } from '../errors';
import { nodeCrypto } from '../nodeModules';
import type { ReviewComment, ReviewComments, ReviewThread, ThreadStatus } from './reviewComments';
import { t as text } from '../messages';

/**
 * The pull-request operations on a set of threads, each changing it in place (inside
 * `updateReviewComments`) and naming the thread or comment it could not find.
 */
const newId = (prefix: string) => `${prefix}${nodeCrypto().randomBytes(6).toString('hex')}`;

export interface NewThread {
  file: string;
  line: number;
  endLine: number;
  quote: string;
  /** On the feature's code (worktree-relative) rather than on a spec file. */
  code?: boolean;
  author: string;
  body: string;
  now: string;
}

/** A new open thread on lines `line..endLine` of `file`, with its first comment; for a spec's threads and a task's alike (taskReviewFile.ts). */
export function newThread(t: NewThread): ReviewThread {
  return {
    id: newId('t'),
    file: t.file,
    line: t.line,
    end_line: Math.max(t.line, t.endLine),
    quote: t.quote,
    status: 'open',
    ...(t.code ? { code: true as const } : {}),
    created_at: t.now,
    comments: [newComment(t.author, t.body, t.now)],
  };
}

export function addThread(c: ReviewComments, t: NewThread): ReviewThread {
  const thread = newThread(t);
  c.threads.push(thread);
  return thread;
}

export function findThread(c: ReviewComments, threadId: string): ReviewThread {
  const thread = c.threads.find((t) => t.id === threadId);
  if (!thread) throw new LoomError(text('review.threadGone', { thread: threadId }));
  return thread;
}

function findComment(thread: ReviewThread, commentId: string): ReviewComment {
  const comment = thread.comments.find((x) => x.id === commentId);
  if (!comment) throw new LoomError(text('review.commentGone', { comment: commentId, thread: thread.id }));
  return comment;
}

/** A new comment, for a thread of a spec or of a task. */
export const newComment = (author: string, body: string, now: string): ReviewComment => ({ id: newId('c'), author, body, created_at: now });

export function replyToThread(c: ReviewComments, threadId: string, author: string, body: string, now: string): ReviewComment {
  const comment = newComment(author, body, now);
  findThread(c, threadId).comments.push(comment);
  return comment;
}

export function editComment(c: ReviewComments, threadId: string, commentId: string, body: string, now: string): void {
  const comment = findComment(findThread(c, threadId), commentId);
  comment.body = body;
  comment.edited_at = now;
}

/** Deletes a comment; a thread left with no comment goes too, as in a pull request. */
export function deleteComment(c: ReviewComments, threadId: string, commentId: string): void {
  const thread = findThread(c, threadId);
  findComment(thread, commentId);
  thread.comments = thread.comments.filter((x) => x.id !== commentId);
  if (!thread.comments.length) c.threads = c.threads.filter((t) => t.id !== threadId);
}

export function deleteThread(c: ReviewComments, threadId: string): void {
  findThread(c, threadId);
  c.threads = c.threads.filter((t) => t.id !== threadId);
}

export function setThreadStatus(c: ReviewComments, threadId: string, status: ThreadStatus): void {
  findThread(c, threadId).status = status;
}

/** A thread's text after its file changed: the new place of its lines and their text there. */
export function moveThread(c: ReviewComments, threadId: string, line: number, endLine: number, quote: string): void {
  const thread = findThread(c, threadId);
  thread.line = line;
  thread.end_line = endLine;
  thread.quote = quote;
}
