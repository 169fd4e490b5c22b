import type { MessageTable } from './catalogTypes';

/** The spec review's comment threads (src/core/review): what refuses and what cannot be read. */
export const reviewMessages = {
  'review.noOpenThread': { en: 'no open comment thread to export into {file}', zh: '没有可导出到 {file} 的未解决评论讨论' },
  'review.exportExists': {
    en: '{file} exists already; it was left untouched. Move it aside to export the threads.',
    zh: '{file} 已存在，未作改动。请先将其移走，再导出讨论。',
  },
  'review.notJson': { en: '{file} is not valid JSON ({detail}); fix or restore it, it was left untouched', zh: '{file} 不是有效的 JSON（{detail}）；请修复或恢复它，Loom 未作改动' },
  'review.notThreads': {
    en: '{file} is not a valid set of comment threads ({where}: {detail}); fix or restore it, it was left untouched',
    zh: '{file} 不是有效的评论讨论集合（{where}：{detail}）；请修复或恢复它，Loom 未作改动',
  },
  'review.threadGone': { en: 'comment thread {thread} is no longer in review-comments.json', zh: '评论讨论 {thread} 已不在 review-comments.json 中' },
  'review.commentGone': { en: 'comment {comment} is no longer in thread {thread}', zh: '评论 {comment} 已不在讨论 {thread} 中' },
} as const satisfies MessageTable;
