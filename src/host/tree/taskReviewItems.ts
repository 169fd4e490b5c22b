import type { TaskReviewSummary } from '../../core/port/taskReview';
import { t } from '../../core/port/messages';
import { localTime, md } from '../format';

/** A task row's words for its review: files reviewed of all it changed, open comments. */
export function taskReviewParts(r: TaskReviewSummary): string[] {
  if (r.error) return ['⚠'];
  const parts: string[] = [];
  if (r.reviewed || r.changed.length) parts.push(t('host.taskReview.treeReviewed', { reviewed: r.reviewed, files: r.files.length }));
  if (r.openThreads) parts.push(t('host.taskReview.treeComments', { count: r.openThreads }));
  return parts;
}

/** The task row's tooltip: each file of its change, reviewed (when, by whom), changed since, or not. */
export function taskReviewTip(r: TaskReviewSummary): string {
  if (r.error) return `⚠ ${md(r.error)}  \n`;
  return r.files
    .map((f) => {
      const state = f.reviewed
        ? `✓ ${md(t('host.taskReview.tipReviewed', { at: localTime(f.mark.at), by: f.mark.by }))}`
        : f.changedSince
          ? `↻ ${md(t('host.taskReview.tipChanged'))}`
          : md(t('host.taskReview.tipNotReviewed'));
      return `\`${f.file}\`: ${state}  \n`;
    })
    .join('');
}
