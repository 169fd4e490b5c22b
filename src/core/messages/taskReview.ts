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
  // The host's comment controller and commands (src/host/executing/taskThreads.ts, taskThreadCommands.ts).
  'host.taskReview.controller': { en: 'Loom: Task Review', zh: 'Loom：Task 审查' },
  'host.taskReview.prompt': { en: "Comment on the task's change", zh: '对 task 的修改发表评论' },
  'host.taskReview.placeHolder': { en: 'What is wrong here, and what should the implementer do?', zh: '这里有什么问题？实现者应当怎么做？' },
  'host.taskReview.open': { en: 'Open · started by {author}', zh: '未解决 · 由 {author} 发起' },
  'host.taskReview.sent': { en: 'Sent to the implementer · waiting for its fix round', zh: '已发送给实现者 · 等待修复轮' },
  'host.taskReview.resolved': { en: 'Resolved', zh: '已解决' },
  'host.taskReview.outdated': { en: 'Outdated: the lines it was on changed', zh: '已过时：所评论的行已修改' },
  'host.taskReview.cannotRead': { en: 'Loom cannot read the comment threads of a task: {message}', zh: 'Loom 无法读取 task 的评论：{message}' },
  'host.taskReview.untrusted': {
    en: "Loom does not write a task's comments in Restricted Mode: trust the workspace first",
    zh: '受限模式下 Loom 不写入 task 的评论：请先信任此工作区',
  },
  'host.taskReview.onlyAfter': {
    en: "Comments on a task's change go on the side after the task in Review Changes",
    zh: 'task 修改的评论请写在“查看修改”中 task 之后的一侧',
  },
  'host.taskReview.threadGone': { en: 'This comment thread is no longer in its task-reviews file.', zh: '此评论已不在其 task-reviews 文件中。' },
  'host.taskReview.sentTo': {
    en: '{count, plural, one {1 comment thread goes} other {{count} comment threads go}} to {task} as its next fix round; Run Tasks runs it, and Loom answers each thread when it is done.',
    zh: '{count} 条评论将作为 {task} 的下一个修复轮发送；Run Tasks 运行它，完成后 Loom 会逐条回复。',
  },
  'host.taskReview.noTarget': {
    en: "Open a task's changes with Review Changes first (or give the spec and task)",
    zh: '请先用“查看修改”打开 task 的修改（或指定 spec 和 task）',
  },
  'host.taskReview.whichFile': { en: 'Which file of {task} did you review?', zh: '你审阅了 {task} 的哪个文件？' },
  'host.taskReview.checkpointGone': {
    en: "{task}'s checkpoint {commit} is no longer in the repository (its branch was deleted or rewritten), so git has nothing to show",
    zh: '{task} 的检查点 {commit} 已不在仓库中（其分支已被删除或改写），git 无内容可显示',
  },
  'host.taskReview.treeReviewed': { en: '{reviewed}/{files} reviewed', zh: '已审阅 {reviewed}/{files}' },
  'host.taskReview.treeComments': { en: '{count, plural, one {1 comment} other {{count} comments}}', zh: '{count} 条评论' },
  'host.taskReview.tipReviewed': { en: 'reviewed {at} by {by}', zh: '{by} 于 {at} 审阅' },
  'host.taskReview.tipChanged': { en: 'changed since reviewed', zh: '审阅后又有修改' },
  'host.taskReview.tipNotReviewed': { en: 'not reviewed', zh: '未审阅' },
} as const;
