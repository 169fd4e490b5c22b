// Comments on a task's change and Mark as Reviewed (task-reviews/TN.json), for the host's comment controller, tree and commands.
export {
  addTaskThread,
  deleteTaskThread,
  openTaskThreads,
  readTaskReview,
  replyToTaskThread,
  setTaskThreadStatus,
  TASK_REVIEWS_DIR,
  taskReviewPath,
  updateTaskReview,
  type TaskReview,
  type TaskThread,
} from '../executing/review/taskReviewFile';
export { clearChangedMarks, fileDigest, markReviewed } from '../executing/review/taskReviewMarks';
export { taskChangedFiles, taskCodeRoot, taskReviewSummary, type TaskReviewSummary } from '../executing/review/taskReviewSummary';
export { anchorThread, quoteLines } from '../review/anchoring';
export { revParse } from '../git/gitCommand';
