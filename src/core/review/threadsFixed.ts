import { t } from '../messages';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import type { ReviewFix } from './reviewFixes';
import { REVIEW_COMMENTS_FILE } from './reviewComments';
import { updateReviewComments } from './reviewStore';
import { replyToThread, setThreadStatus } from './threadEdits';

/**
 * The code threads the review's fixes answered: each resolved, with a reply naming the task that
 * fixed it, as a person resolves a pull request's thread once the change is in.
 */
export function resolveFixedThreads(facts: SpecSnapshot, fixes: readonly ReviewFix[], author: string, now: string): void {
  const fixed = fixes.flatMap((f) => (f.source.kind === 'thread' && facts.taskStates.get(f.task)?.status === 'done' ? [{ id: f.source.thread.id, task: f.task }] : []));
  if (!fixed.length || !facts.files.has(REVIEW_COMMENTS_FILE)) return;
  updateReviewComments(facts, (c) => {
    for (const f of fixed) {
      if (!c.threads.some((th) => th.id === f.id && th.status === 'open')) continue;
      replyToThread(c, f.id, author, t('answerReview.threadFixed', { task: f.task }), now);
      setThreadStatus(c, f.id, 'resolved');
    }
  });
}
