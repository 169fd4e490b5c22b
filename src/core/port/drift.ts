// Drift: whether a synced spec is still true to its code (one git pass for every spec), for every surface.
export type { DriftReport, SpecDrift, DriftedFile, DriftCommit, DriftBaseline, DriftStatus } from '../drift/driftScan';
export type { RecordedBaseline, BaselineSource } from '../drift/baseline';
export { repositoryDrift } from '../drift/repositoryDrift';
export { driftSummary, driftFileLine, goneTestLine, shortCommit } from '../drift/driftText';
export { personOf } from '../drift/baselineMove';
export { dashboardDrift } from '../drift/driftView';
export { buildReconcileMessages, checkReconcileDrafts, driftDiff, reconcileCommand, writeReconcile } from '../drift/reconcile';
export { headStamp } from '../git/headStamp';
