// Sync: how the feature branch hands on to the base branch (the palette's and the CLI's Sync).
export type { HandOnPlan } from '../pipelineRun/branchHandOn';
export { handOnPlan } from '../pipelineRun/branchHandOn';
export type { HandOnReadiness } from '../pipelineRun/handOnReadiness';
export { handOnLines, handOnMissing, handOnReadiness } from '../pipelineRun/handOnReadiness';
export { memoryTypeLabel } from '../memory/featureMemory';
