/** Comments on a task's change and Mark as Reviewed (src/core/executing/review/taskReview*.ts). */
export const taskReviewMessages = {
  'taskReview.notJson': { en: '{file} is not valid JSON ({detail}); fix it by hand, Loom does not overwrite it', zh: '{file} 不是有效的 JSON（{detail}）；请手动修复，Loom 不会覆盖它' },
  'taskReview.notShape': { en: '{file}: {where}: {detail}; fix it by hand, Loom does not overwrite it', zh: '{file}：{where}：{detail}；请手动修复，Loom 不会覆盖它' },
  'taskReview.noOpenThreads': {
    en: '{task} has no open comment thread on its change to send (comment on a line of Review Changes first)',
    zh: '{task} 的修改上没有可发送的未解决评论（请先在“查看修改”中对某行发表评论）',
  },
  'taskReview.rewound': {
    en: '{task} has no checkpoint any more (it was rewound or never ran): its {count, plural, one {open thread stays} other {{count} open threads stay}} in {file}, but there is no change to fix; run the task again first',
    zh: '{task} 已没有检查点（已被回退或从未运行）：其 {count} 条未解决评论仍保存在 {file} 中，但没有可修复的修改；请先重新运行该 task',
  },
  'taskReview.merged': {
    en: '{task} cannot get a fix round: the feature worktree of {specDir} is gone (the feature was merged or its worktree removed), so git has nowhere to fix it; its threads and marks stay readable',
    zh: '{task} 无法进行修复轮：{specDir} 的功能 worktree 已不存在（功能已合并或 worktree 已删除），git 无处修复；其评论和标记仍可查看',
  },
  'taskReview.fixItem.problem': { en: 'the person commented on {place} of your change: {text}', zh: '用户对你修改的 {place} 发表了评论：{text}' },
  'taskReview.fixItem.location': { en: 'line {line}', zh: '第 {line} 行' },
  'taskReview.fixItem.locationRange': { en: 'lines {line}-{endLine}', zh: '第 {line}-{endLine} 行' },
  'taskReview.fixItem.direction': {
    en: 'change these lines as the comment asks, keeping the rest of the task as it is; when the comment was made they read:\n{quote}',
    zh: '请按评论的要求修改这些行，task 的其余部分保持不变；评论时它们的内容为：\n{quote}',
  },
  'taskReview.fixItem.severity': { en: 'review comment', zh: '审查评论' },
  'taskReview.reply.changed': { en: 'Fixed in {commit} by the fix round of {task}.', zh: '已在 {task} 的修复轮中于 {commit} 修复。' },
  'taskReview.reply.summary': { en: 'Implementer: {summary}', zh: '实现者：{summary}' },
  'taskReview.reply.diff': { en: 'What changed in {file}:', zh: '{file} 中的修改：' },
  'taskReview.reply.unchanged': {
    en: 'The fix round of {task} left {file} as it was; its review passed.',
    zh: '{task} 的修复轮未修改 {file}；其审查已通过。',
  },
  'taskReview.author': { en: 'Loom', zh: 'Loom' },
} as const;
