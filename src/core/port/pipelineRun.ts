// Run Pipeline: the loop over a spec's stages, its ports, where it stops and why, and the
// lease that keeps one run per spec.
export { acquirePipelineLease, pipelineHeldElsewhere } from '../executing/runLease';
export type { ReviewOutcome, RunMode, RunPorts, RunStop, StopReason, TasksOutcome } from '../pipelineRun/pipelineRun';
export { runPipeline } from '../pipelineRun/pipelineRun';
export type { RunStopRecord } from '../pipelineRun/runStopRecord';
export { RunStopsFile, currentStop, stateFacts, waitsForPerson } from '../pipelineRun/runStopRecord';
export { tasksRunStop } from '../pipelineRun/tasksStop';
