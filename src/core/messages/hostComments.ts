import type { MessageTable } from './catalogTypes';

/** What the extension's host shows in src/host/comments, in English and Chinese. */
export const hostCommentsMessages = {
  'host.comments.hasNoOpenCommentThread': {
    en: '`{specDir}` has no open comment thread to refine. Add comments in the editor (the + in the gutter of spec.md, plan.md or a task), then ask again.',
    zh: '`{specDir}` 没有可修改的未解决评论线程。请先在编辑器中添加评论（spec.md、plan.md 或任务文件边栏中的 +），然后再问。',
  },
  'host.comments.openThreadSNothingWritten': {
    en: '{openCount} open thread(s) on {threadFiles}. Nothing is written until you say so.',
    zh: '{threadFiles} 上有 {openCount} 个未解决线程。在你同意之前不会写入任何内容。',
  },
  'host.comments.loomRefinesSpecFilesComment': { en: 'Loom refines the spec files the comment threads are on with this model.', zh: 'Loom 用此模型修改评论线程所在的规格文件。' },
  'host.comments.acceptOneFileAtTime': { en: 'Or accept one file at a time (reply **write {path}**):', zh: '或逐个文件接受（回复 **write {path}**）：' },
  'host.comments.accept': { en: 'Accept {path}', zh: '接受 {path}' },
  'host.comments.eachThreadTheseFilesHas': {
    en: 'Each thread on these files has a reply saying what changed and is resolved. The pipeline has not moved; an approved file that changed needs approval again.',
    zh: '这些文件上的每个线程都已收到说明改动的回复并被解决。流水线没有推进；已批准的文件改动后需要重新批准。',
  },
  'host.comments.changedLines': { en: '{file} changed, +{added} −{removed} lines.', zh: '{file} 已修改，+{added} −{removed} 行。' },
  'host.comments.changed': { en: '{file} changed.', zh: '{file} 已修改。' },
  'host.comments.loomDoesNotWriteComment': {
    en: 'Loom does not write comment threads in Restricted Mode. Trust this workspace to comment.',
    zh: '受限模式下 Loom 不写评论线程。信任此工作区后即可评论。',
  },
  'host.comments.specThreadNoLongerWorkspace': { en: 'The spec of this thread is no longer in the workspace.', zh: '此线程所属的规格已不在工作区中。' },
  'host.comments.commentThreadNoLongerReview': { en: 'This comment thread is no longer in review-comments.json.', zh: '此评论线程已不在 review-comments.json 中。' },
  'host.comments.loomTakesCommentsSpecFiles': { en: 'Loom takes comments on the spec files a stage produces only.', zh: 'Loom 只接受对阶段产出的规格文件的评论。' },
  'host.comments.refineNeedsLanguageModelNone': {
    en: 'Refine needs a language model, and none is available. Install or sign in to a chat model provider (GitHub Copilot, for example); the comments still work as notes.',
    zh: '修改需要语言模型，但当前没有可用的模型。请安装或登录一个聊天模型提供方（例如 GitHub Copilot）；评论仍可作为笔记使用。',
  },
  'host.comments.hasNoOpenCommentThread2': { en: '{specDir} has no open comment thread to refine.', zh: '{specDir} 没有可修改的未解决评论线程。' },
  'host.comments.hasNoOpenCommentThread3': {
    en: '{specDir} has no open comment thread on the feature code to export. At the review gate, comment on the changed files, then export.',
    zh: '{specDir} 没有可导出的、针对特性代码的未解决评论线程。请在审查关口对改动的文件发表评论，然后再导出。',
  },
  'host.comments.passThesePointsAnswer': { en: 'Pass, with these points to answer', zh: '通过，并附上待回应的要点' },
  'host.comments.changesRequested': { en: 'Changes requested', zh: '要求修改' },
  'host.comments.exportOpenThreadSInto': { en: 'Export {openCount} open thread(s) into review-feedback.md: your verdict?', zh: '将 {openCount} 个未解决线程导出到 review-feedback.md：你的结论是？' },
  'host.comments.wrote': { en: 'Wrote {rel}.', zh: '已写入 {rel}。' },
  'host.comments.edited': { en: 'edited', zh: '已编辑' },
  'host.comments.loomReview': { en: 'Loom review', zh: 'Loom 评审' },
  'host.comments.commentPartSpec': { en: 'Comment on this part of the spec', zh: '评论规格的这一部分' },
  'host.comments.whatWrongHereWhatShould': { en: 'What is wrong here, and what should it say?', zh: '这里有什么问题，应该怎么写？' },
  'host.comments.loomCannotReadCommentThreads': { en: 'Loom cannot read the comment threads: {message}', zh: 'Loom 无法读取评论线程：{message}' },
  'host.comments.outdatedQuotedTextChanged': { en: 'Outdated: the quoted text changed', zh: '已过时：引用的文本已改变' },
  'host.comments.resolved': { en: 'Resolved', zh: '已解决' },
  'host.comments.openStarted': { en: 'Open, started by {author}', zh: '未解决，由 {author} 发起' },
} as const satisfies MessageTable;
