import { git } from '../../git/gitCommand';
import { t, type Language } from '../../messages';
import type { SpecLocation } from '../../store/runLock';
import type { FixItem } from '../dispatch/fixInstructions';
import type { CheckpointRecord } from '../machine/taskRunRecord';
import { openTaskThreads, readTaskReview, replyToTaskThread, TASK_REVIEWS_DIR, updateTaskReview, type TaskReview, type TaskThread } from './taskReviewFile';

/**
 * Send to the Implementer: a task's open comment threads become the fix items of one fix round
 * (the same round a rejected file gets, with the retry limit and breaker of Run Tasks), each with
 * its file, its lines and the person's words. When that round is done, Loom replies on every
 * thread it carried with what changed there and resolves it.
 */

const place = (th: Pick<TaskThread, 'file' | 'line' | 'end_line'>) => (th.line === th.end_line ? `${th.file}:${th.line}` : `${th.file}:${th.line}-${th.end_line}`);

/** The thread's comments, oldest first, each with its author: the implementer reads the whole exchange. */
const threadText = (th: TaskThread) => (th.comments.length === 1 ? th.comments[0].body.trim() : th.comments.map((c) => `${c.author}: ${c.body.trim()}`).join(' / '));

const indented = (quote: string) =>
  (quote.replace(/\s+$/, '') || '-')
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');

/** The fix items of a fix round that carries `threads`, in the spec's language (the loop's prompts'). */
export function threadFixItems(threads: readonly TaskThread[], language?: Language): FixItem[] {
  return threads.map((th) => ({
    problem: t('taskReview.fixItem.problem', { place: place(th), text: threadText(th) }, language),
    file: th.file,
    location: th.line === th.end_line ? t('taskReview.fixItem.location', { line: th.line }, language) : t('taskReview.fixItem.locationRange', { line: th.line, endLine: th.end_line }, language),
    severity: t('taskReview.fixItem.severity', {}, language),
    // Indented, the quoted lines stay inside their list item (and out of the fix-instruction parser's fields).
    direction: t('taskReview.fixItem.direction', { quote: indented(th.quote) }, language),
  }));
}

/** The open threads a Send to the Implementer would carry (none sent yet or sent and still unanswered). */
export const threadsToSend = (review: TaskReview) => openTaskThreads(review);

/** Records that the threads went to the implementer, with the task's checkpoint count then. */
export function markThreadsSent(review: TaskReview, ids: readonly string[], checkpoints: number, now: string): void {
  for (const th of review.threads) if (ids.includes(th.id)) th.sent = { at: now, checkpoints };
}

/** The send, recorded on the threads (under the run lock the request holds): the round's answer finds them by it. */
export function recordThreadsSent(spec: SpecLocation, plan: { task: string; threads: readonly Pick<TaskThread, 'id'>[]; checkpoints: number }, now: string): void {
  const ids = plan.threads.map((th) => th.id);
  updateTaskReview(spec, plan.task, (r) => markThreadsSent(r, ids, plan.checkpoints, now));
}

interface Hunk {
  oldStart: number;
  oldCount: number;
  lines: string[];
}

/** `git diff -U0` of one file, cut into hunks with their old-side lines. */
export function parseZeroContextDiff(text: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  for (const line of text.split('\n')) {
    const h = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(line);
    if (h) {
      current = { oldStart: Number(h[1]), oldCount: h[2] === undefined ? 1 : Number(h[2]), lines: [h[0]] };
      hunks.push(current);
    } else if (current && (line.startsWith('+') || line.startsWith('-') || line.startsWith('\\'))) current.lines.push(line);
  }
  return hunks;
}

const MAX_DIFF_LINES = 40;

/** The hunks touching the thread's lines (an insertion right after them counts); every hunk of the file when none does. */
export function hunksFor(hunks: readonly Hunk[], line: number, endLine: number): string[] {
  const touches = (h: Hunk) => (h.oldCount === 0 ? h.oldStart >= line - 1 && h.oldStart <= endLine : h.oldStart <= endLine && h.oldStart + h.oldCount - 1 >= line);
  const chosen = hunks.some(touches) ? hunks.filter(touches) : hunks;
  const out = chosen.flatMap((h) => h.lines);
  return out.length > MAX_DIFF_LINES ? [...out.slice(0, MAX_DIFF_LINES), `… (+${out.length - MAX_DIFF_LINES})`] : out;
}

/** Loom's reply on a thread once the round that carried it is done. */
export function replyText(task: string, th: TaskThread, round: { commit?: string; summary?: string; diff: string[] }, language?: Language): string {
  const parts: string[] = [];
  if (round.diff.length && round.commit) {
    parts.push(t('taskReview.reply.changed', { task, commit: round.commit.slice(0, 8) }, language));
  } else parts.push(t('taskReview.reply.unchanged', { task, file: th.file }, language));
  if (round.summary?.trim()) parts.push(t('taskReview.reply.summary', { summary: round.summary.trim() }, language));
  if (round.diff.length) parts.push(`${t('taskReview.reply.diff', { file: th.file }, language)}\n\n\`\`\`diff\n${round.diff.join('\n')}\n\`\`\``);
  return parts.join('\n\n');
}

export interface RoundDone {
  /** The task's checkpoints now, the fix round's last. */
  checkpoints: readonly CheckpointRecord[];
  /** Where git reads the commits (the feature worktree). */
  worktree: string;
  /** The implementer's summary of the round. */
  summary?: string;
  now: string;
  language?: Language;
  signal?: AbortSignal;
}

/**
 * After a task's round: replies on each thread it carried with what changed on its lines (the
 * diff of the round's checkpoints there) and the implementer's summary, and resolves it. Threads
 * sent before a round that made no checkpoint are answered with the summary alone. Returns the
 * ids answered; a task without a review file or sent threads costs one stat.
 */
export async function answerSentThreads(spec: SpecLocation, task: string, done: RoundDone): Promise<string[]> {
  let review: TaskReview;
  try {
    review = readTaskReview(spec, task);
  } catch {
    return []; // a corrupt file is reported where the threads are shown, and never overwritten
  }
  const sent = openTaskThreads(review).filter((th) => th.sent);
  if (!sent.length) return [];
  const replies = new Map<string, string>();
  for (const th of sent) {
    const fresh = done.checkpoints.slice(th.sent!.checkpoints);
    const from = fresh[0]?.parent;
    const to = fresh.at(-1)?.commit;
    let diff: string[] = [];
    if (from && to) {
      const text = await git(done.worktree, ['diff', '-U0', '--no-color', from, to, '--', th.file], { signal: done.signal }).catch(() => '');
      diff = hunksFor(parseZeroContextDiff(text), th.line, th.end_line);
    }
    replies.set(th.id, replyText(task, th, { commit: to, summary: done.summary, diff }, done.language));
  }
  const author = t('taskReview.author', {}, done.language);
  return updateTaskReview(spec, task, (r) => {
    const answered: string[] = [];
    for (const [id, body] of replies) {
      const th = r.threads.find((x) => x.id === id && x.status === 'open' && x.sent);
      if (!th) continue;
      replyToTaskThread(r, id, { author, body }, done.now);
      th.status = 'resolved';
      answered.push(id);
    }
    return answered;
  });
}

export { TASK_REVIEWS_DIR };
