import type { FixItem } from '../executing/dispatch/fixInstructions';
import { readTaskRunRecord, type TaskRunRecord } from '../executing/machine/taskRunRecord';
import type { TaskState } from '../files/taskState';
import { normalizeOwnedPath } from '../fs/paths';
import { t } from '../messages';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { specTaskIds } from '../specdir/loadSpec';
import { isCodeThread } from './codeReview';
import type { FeedbackPoint } from './feedbackPoints';
import { threadPlace } from './openThreads';
import type { ReviewThread } from './reviewComments';

/** Where a fix comes from: a BLOCKER of review-feedback.md, or an open comment thread on the feature's code. */
export type FixSource = { kind: 'feedback'; point: FeedbackPoint } | { kind: 'thread'; thread: Pick<ReviewThread, 'id' | 'file' | 'line' | 'end_line' | 'comments'> };

/** One thing the review asks to fix, the fix item the implementer gets, and the task it goes back to. */
export interface ReviewFix {
  source: FixSource;
  item: FixItem;
  task: string;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Whether a task may write `file`: it is one of its `owns`, or under an owned folder. */
const owns = (paths: readonly string[], file: string) => {
  const f = normalizeOwnedPath(file);
  return paths.some((p) => {
    const o = normalizeOwnedPath(p);
    return o === f || (o.endsWith('/') ? f.startsWith(o) : f.startsWith(`${o}/`));
  });
};

/**
 * The task a fix goes back to: the one that owns the file it names (the last such, as later tasks
 * build on earlier ones), else the task that changed the file in a checkpoint; a point that names
 * no file goes to the last task, whose fix may then write only where that task may.
 */
function taskFor(facts: SpecSnapshot, file: string | undefined): string | undefined {
  const ids = specTaskIds(facts).filter((id) => facts.tasks.has(id));
  if (file) {
    const owner = [...ids].reverse().find((id) => owns(facts.tasks.get(id)!.owns, file));
    if (owner) return owner;
    const changed = [...ids].reverse().find((id) => (readTaskRunRecord(facts.taskStates.get(id)).checkpoints ?? []).some((c) => c.files.includes(normalizeOwnedPath(file))));
    if (changed) return changed;
  }
  return ids[ids.length - 1];
}

/**
 * Each BLOCKER of review-feedback.md and each open comment thread on the feature's code as a fix
 * item for the implementer in fix mode (loom's receiving-code-review: "BLOCKER 必须全部修复"),
 * with the task it goes back to. Suggestions and discussion points are answered, not fixed.
 */
export function reviewFixes(facts: SpecSnapshot, points: readonly FeedbackPoint[], threads: readonly ReviewThread[]): ReviewFix[] {
  const out: ReviewFix[] = [];
  for (const point of points.filter((p) => p.kind === 'blocker')) {
    const task = taskFor(facts, point.file);
    if (!task) continue;
    out.push({
      source: { kind: 'feedback', point },
      task,
      item: {
        problem: t('answerReview.fixItem.blocker', { text: point.text }),
        ...(point.file ? { file: point.file } : {}),
        ...(point.location ? { location: point.location } : {}),
        severity: t('fixItem.blocker'),
        direction: t('answerReview.fixItem.direction'),
      },
    });
  }
  for (const thread of threads.filter((th) => th.status === 'open' && isCodeThread(th))) {
    const task = taskFor(facts, thread.file);
    if (!task) continue;
    const said = thread.comments.map((c) => `${oneLine(c.body)} (${c.author})`).join(' — ');
    out.push({
      source: { kind: 'thread', thread },
      task,
      item: {
        problem: t('answerReview.fixItem.thread', { place: threadPlace(thread), text: said }),
        file: thread.file,
        location: thread.line === thread.end_line ? `${thread.line}` : `${thread.line}-${thread.end_line}`,
        severity: t('fixItem.blocker'),
        direction: t('answerReview.fixItem.direction'),
      },
    });
  }
  return out;
}

/**
 * The task states that send each task with review fixes back to its implementer in fix mode, as
 * Reject File does: pending, every fix item of the task in one round, its checkpoints kept (its
 * next one carries the fix). The retry count starts again: the review is new work, and the same
 * retry limit and circuit breaker then hold over its fix rounds.
 */
export function reviewFixTaskStates(facts: SpecSnapshot, fixes: readonly ReviewFix[], now: string): TaskState[] {
  const byTask = new Map<string, FixItem[]>();
  for (const f of fixes) byTask.set(f.task, [...(byTask.get(f.task) ?? []), f.item]);
  return [...byTask].map(([task, items]) => {
    const s = facts.taskStates.get(task);
    // Without `base` the run takes the worktree as it is now: the fix's diff is the fix alone.
    const { completed_at: _done, breaker: _b, skipped: _s, worktree: _w, task_commit: _c, conflict: _x, awaiting_context: _a, base: _base, ...kept } = readTaskRunRecord(s);
    const record: TaskRunRecord = { ...kept, mode: 'fix', step: 'implement', fix_items: items, diff_owns: true };
    const base: TaskState = s ?? {
      task_id: task,
      spec_dir: facts.dir,
      status: 'pending',
      retry_count: 0,
      agent_session_id: null,
      created_at: now,
      updated_at: now,
      last_reviewer_result: null,
      blocker: null,
    };
    return { ...base, status: 'pending', retry_count: 0, blocker: null, last_reviewer_result: `REVIEW: ${items.length} fix item(s) from the code review`, updated_at: now, metadata: record };
  });
}
