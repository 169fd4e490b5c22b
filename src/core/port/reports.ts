// What every surface reports about a spec's files, the CLI and MCP included: the diagnostics,
// the traceability matrix, the task batches, where each stage stands, the refusal codes.
export type { Diagnostic } from '../diagnostics/diagnostic';
export type { StageDefinition } from '../pipeline/pipelineDefinition';
export { stageOf } from '../pipeline/pipelineDefinition';
export type { RefusalCode } from '../pipeline/refusals';
export { onlyCompressionMissing } from '../pipeline/refusals';
export type { TransitionCheck } from '../pipeline/transitionCheck';
export { specDiagnostics, specProblems } from '../repository/specDiagnostics';
export { stagePlaces } from '../specdir/stageStatus';
export type { TaskBatchPlan } from '../tasks/taskBatches';
export { ORDERED_OVERLAP, planTaskBatches, taskDependencyDiagnostics, taskOwnershipDiagnostics } from '../tasks/taskBatches';
export { traceJson } from '../trace/traceJson';
export type { TraceabilityMatrix } from '../trace/traceabilityMatrix';
export { buildTraceabilityMatrix } from '../trace/traceabilityMatrix';
