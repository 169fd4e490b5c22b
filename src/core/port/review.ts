// Review threads on a spec's files (review-comments.json) and Refine, which answers them with a
// model's drafts.
export { anchorThread, quoteLines } from '../review/anchoring';
export { isCodeThread, reviewGateOf } from '../review/codeReview';
export type { FeedbackVerdict } from '../review/feedbackExport';
export { exportReviewFeedback } from '../review/feedbackExport';
export { checkRefinedDrafts, refineCommand } from '../review/refineCommand';
export { resolveRefinedThreads } from '../review/refineOutcome';
export { buildRefineMessages, threadAnswers } from '../review/refinePrompt';
export type { ReviewComment, ReviewComments, ReviewThread } from '../review/reviewComments';
export { REVIEW_COMMENTS_FILE, openThreads } from '../review/reviewComments';
export { readReviewComments, updateReviewComments } from '../review/reviewStore';
export { isReviewableFile, stageOfFile } from '../review/reviewableFiles';
export { addThread, deleteComment, deleteThread, editComment, moveThread, replyToThread, setThreadStatus } from '../review/threadEdits';
export { exportSpecFeedback, updateSpecThreads } from '../review/specThreads';
