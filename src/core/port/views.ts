// Read models of a spec for the extension's views (the tree, the dashboard, the matrix, the
// status bar, the Problems panel): what each stage and task is at, what is stale, what to offer.
// Decided in the core; the views only render them. (What the CLI and MCP print too is in ./reports,
// so that their bundle does not take these.)
export { readableReview } from '../executing/dispatch/fixInstructions';
export { checkpointsOf } from '../executing/review/taskChanges';
export { chooseTransition } from '../pipeline/chooseTransition';
export { WORKTREE_PATH_KEY } from '../pipeline/effects/worktree';
export { describeInspection } from '../pipeline/machineInspection';
export { hasRole, stageWithRole } from '../pipeline/stageRoles';
export type { SpecEvaluation } from '../repository/specEvaluation';
export { evaluateSpec, evaluationProblems } from '../repository/specEvaluation';
export { mostRelevantSpec } from '../specdir/relevantSpec';
export type { SpecGroup, SpecOverview, StageOverview, StageStatus, TaskOverview } from '../specdir/specOverview';
export { specOverview } from '../specdir/specOverview';
export type { SpecStaleness } from '../specdir/staleness';
export { isStale, renewableApprovals, specStaleness } from '../specdir/staleness';
export { taskTitleWithoutId } from '../tasks/taskTitle';
export type { FindingDiagnostic } from '../validators/stageFindings';
export { buildDashboardModel } from '../views/dashboardModel';
export { buildMatrixModel } from '../views/matrixModel';
export { unfinishedTasks } from '../views/remedies';
export { findTestLine } from '../views/testLocation';
