// The surfaces' way to the specs of a repository: find them, open one (a SpecPipeline, the handle
// `request` takes), create one, and read its status. Only the names the surfaces use (issue 45).
export { createSpec, specDate, specSlug } from '../repository/createSpec';
export { currentSteps } from '../repository/currentSteps';
export { LoomRepository } from '../repository/loomRepository';
export { matchSpecDir } from '../repository/specDirName';
export type { SpecPipeline, SpecStatus, StatusDetail } from '../repository/specPipeline';
export { findSpecDirs, loadSpec, specTaskIds } from '../specdir/loadSpec';
export type { SpecSnapshot } from '../specdir/specSnapshot';
export type { UnreadableFile } from '../specdir/unreadableFiles';
export { unreadableFiles } from '../specdir/unreadableFiles';
export { featureBranchName, findWorktree, gitWorktrees } from '../specdir/worktree';
export { isOwnLockActivity, withRunLock } from '../store/runLock';
