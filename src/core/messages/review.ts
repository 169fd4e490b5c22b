import type { MessageTable } from './catalogTypes';

/** The spec review's comment threads (src/core/review): what refuses and what cannot be read. */
export const reviewMessages = {
  'review.noOpenThread': { en: 'no open comment thread to export into {file}', zh: '没有可导出到 {file} 的未解决评论讨论' },
  'review.exportExists': {
    en: '{file} exists already; it was left untouched. Move it aside to export the threads.',
    zh: '{file} 已存在，未作改动。请先将其移走，再导出讨论。',
  },
  'review.exportPassBlocked': {
    en: "A PASS cannot be exported: loom's review gate refuses review-feedback.md holding {markers} (line {lines}; checkReviewFeedbackApproval, any case). Export it as Changes requested, or reword those comments.",
    zh: '无法导出 PASS：loom 的评审关卡会拒绝含有 {markers} 的 review-feedback.md（第 {lines} 行；checkReviewFeedbackApproval，不区分大小写）。请以"需要修改"导出，或改写这些评论。',
  },
  'review.notJson': { en: '{file} is not valid JSON ({detail}); fix or restore it, it was left untouched', zh: '{file} 不是有效的 JSON（{detail}）；请修复或恢复它，Loom 未作改动' },
  'review.notThreads': {
    en: '{file} is not a valid set of comment threads ({where}: {detail}); fix or restore it, it was left untouched',
    zh: '{file} 不是有效的评论讨论集合（{where}：{detail}）；请修复或恢复它，Loom 未作改动',
  },
  'review.threadGone': { en: 'comment thread {thread} is no longer in review-comments.json', zh: '评论讨论 {thread} 已不在 review-comments.json 中' },
  'review.commentGone': { en: 'comment {comment} is no longer in thread {thread}', zh: '评论 {comment} 已不在讨论 {thread} 中' },
  // Code review answered by Loom (the answerReview intent).
  'answerReview.feedbackNotText': { en: '{file} is not a text file; it was left untouched', zh: '{file} 不是文本文件；未改动该文件' },
  'answerReview.feedbackUnreadable': { en: '{file} cannot be read ({detail})', zh: '无法读取 {file}（{detail}）' },
  'answerReview.blockerNotAPoint': {
    en: '{file} says BLOCKER on line {line} outside a point: write each BLOCKER as a list item (`- BLOCKER: src/file.js:12 what is wrong`) so Loom can fix it',
    zh: '{file} 第 {line} 行在列表项之外写了 BLOCKER：请把每个 BLOCKER 写成列表项（`- BLOCKER: src/file.js:12 问题`），Loom 才能修复它',
  },
  'answerReview.noFeedback': { en: '{file} is not there: the reviewer’s feedback is what Loom answers', zh: '{file} 不存在：Loom 答复的是审查者的反馈' },
  'answerReview.noStage': { en: 'the {pipeline} pipeline has no stage that answers the code review', zh: '{pipeline} 流水线没有答复代码审查的阶段' },
  'answerReview.notAtStage': {
    en: '{specDir} is at {stage}; Loom answers the review at {respond}, and fixes its BLOCKERs at {gate}',
    zh: '{specDir} 处于 {stage}；Loom 在 {respond} 阶段答复审查，并在 {gate} 阶段修复其中的 BLOCKER',
  },
  'answerReview.responseExists': {
    en: '{file} is there and was not written by Loom: it is kept; move it away to let Loom answer the review, or finish it with @loom /respond',
    zh: '{file} 已存在且不是 Loom 写的：将保留它；如需由 Loom 答复审查，请先移走它，或用 @loom /respond 完成它',
  },
  'answerReview.threadFixed': { en: 'Fixed by {task} in fix mode; the tests were re-run (see review-response.md).', zh: '已由 {task} 以修复模式修复，并重新运行了测试（见 review-response.md）。' },
  'answerReview.handoff.summary': {
    en: 'code review answered: {fixed} fixed of {points} points; tests re-run (`{command}`, exit code {code})',
    zh: '代码审查已答复：{points} 条意见中修复 {fixed} 条；测试已重新运行（`{command}`，退出码 {code}）',
  },
  'answerReview.answered': {
    en: 'the review of {specDir} is answered already ({file}, its handoff fresh); new feedback in review-feedback.md is answered again',
    zh: '{specDir} 的审查已答复（{file}，其 handoff 仍新鲜）；review-feedback.md 有新反馈时才会再次答复',
  },
  'answerReview.roundsUnreadable': {
    en: '{file} does not read as the review rounds Loom answered ({where}: {detail}); it is left as it is: fix or remove it',
    zh: '{file} 无法读取为 Loom 已答复的审查轮次（{where}：{detail}）；已原样保留：请修正或删除它',
  },
  'answerReview.gateNothing': {
    en: 'review-feedback.md of {specDir} has no BLOCKER and no open code comment thread Loom has not answered yet: at {stage} the reviewer’s verdict and your approval continue',
    zh: '{specDir} 的 review-feedback.md 中没有 Loom 尚未答复的 BLOCKER 或未关闭的代码评论：在 {stage}，需要审查者的结论和你的批准才能继续',
  },
  'answerReview.response.atGate': {
    en: 'Answered at the review gate ({stage}): the points above were fixed in the feature worktree and the tests re-run. The reviewer’s new verdict in review-feedback.md, then your approval, continue the pipeline.',
    zh: '已在审查关卡（{stage}）答复：上述问题已在功能工作树中修复，并重新运行了测试。需要审查者在 review-feedback.md 中给出新的结论，再由你批准，流水线才能继续。',
  },
  'answerReview.response.earlier': { en: '(fixed at the review gate, {at})', zh: '（已在审查关卡修复，{at}）' },
  'answerReview.busy': { en: 'the review of {specDir} is already being answered', zh: '{specDir} 的审查正在答复中' },
  'answerReview.untrusted': {
    en: 'answering the review re-runs the project’s tests, which needs a trusted workspace; trust this folder first',
    zh: '答复审查会重新运行项目测试，需要受信任的工作区；请先信任此文件夹',
  },
  'answerReview.noWorktree': {
    en: '{specDir} has BLOCKERs to fix but no feature worktree to fix them in: create the worktree first',
    zh: '{specDir} 有待修复的 BLOCKER，但没有可在其中修复的功能工作树：请先创建工作树',
  },
  'answerReview.fixItem.blocker': { en: 'the code review blocks on: {text}', zh: '代码审查的阻断意见：{text}' },
  'answerReview.fixItem.thread': { en: 'the code review comment on {place}: {text}', zh: '代码审查在 {place} 的评论：{text}' },
  'answerReview.fixItem.direction': {
    en: 'change the code so the reviewer’s point no longer holds, keep the task’s tests passing, and add a test where the point is a behaviour',
    zh: '修改代码使审查意见不再成立，保持任务测试通过；若涉及行为，补充测试',
  },
  'answerReview.response.title': { en: 'Review response: {feature}', zh: '审查反馈响应：{feature}' },
  'answerReview.response.by': { en: 'Answered by {writer} at {now}.', zh: '由 {writer} 于 {now} 答复。' },
  'answerReview.response.fixed': { en: 'Fixed', zh: '已修复的问题' },
  'answerReview.response.blockers': { en: 'BLOCKER points', zh: 'BLOCKER 问题' },
  'answerReview.response.col.point': { en: 'Point', zh: '意见' },
  'answerReview.response.col.fix': { en: 'Fix', zh: '修复内容' },
  'answerReview.response.col.verified': { en: 'Verified', zh: '验证结果' },
  'answerReview.response.col.why': { en: 'Why', zh: '拒绝理由' },
  'answerReview.response.fixedBy': { en: 'fixed by {task} in fix mode, reviewed and tested; changed {files}', zh: '由 {task} 以修复模式修复，已审查并测试；改动 {files}' },
  'answerReview.response.noBlockers': { en: 'The review has no BLOCKER: nothing had to be fixed.', zh: '审查没有 BLOCKER：无需修复。' },
  'answerReview.response.adopted': { en: 'Adopted suggestions', zh: '已采纳的建议' },
  'answerReview.response.noneAdopted': { en: 'None in this round.', zh: '本轮无。' },
  'answerReview.response.declined': { en: 'Declined', zh: '已拒绝的建议' },
  'answerReview.response.noneDeclined': { en: 'None.', zh: '无。' },
  'answerReview.response.discussion': { en: 'For discussion', zh: '讨论项' },
  'answerReview.response.verification': { en: 'Verification', zh: '验证结果' },
  'answerReview.response.testsRun': { en: 'tests re-run after the fixes: `{command}` exits with {code}', zh: '修复后重新运行测试：`{command}` 退出码 {code}' },
  'answerReview.response.noTests': { en: 'the project has no test command to re-run', zh: '项目没有可重新运行的测试命令' },
  'answerReview.response.notFixed': { en: '{task} did not finish its fix round; see its task state', zh: '{task} 未完成修复轮次；见其任务状态' },
  'answerReview.response.suggestionWhy': {
    en: 'not a BLOCKER: Loom fixes what the review blocks on; adopting a suggestion is the person’s call (answer it with @loom /respond)',
    zh: '不是 BLOCKER：Loom 只修复阻断项；是否采纳建议由人决定（可用 @loom /respond 答复）',
  },
  'answerReview.response.discussionWhy': { en: 'left for the person to answer with the reviewer', zh: '留待与审查者讨论答复' },
  'answerReview.response.placeholderQuoted': {
    en: "The reviewer's words that loom's placeholder rule reads as an unfinished file (its markers in capitals, its placeholder phrases, a template variable) are quoted in lower case or hyphenated, so that loom can leave this stage.",
    zh: '审查者原话中会被 loom 占位符规则视为未完成文件的词（大写标记、占位短语、模板变量）在此以小写或连字符引用，以便 loom 能离开本阶段。',
  },
} as const satisfies MessageTable;
