import { ARTIFACT_ANALYSIS_PASS, artifactAnalysisPass } from './artifactAnalysis';
import { CONVERGENCE_PASS, convergencePass } from './convergence';
import { DETAIL_EXPANSION_PASS, detailExpansionPass } from './detailExpansion';
import { planningArtifacts, PLANNING_ARTIFACTS } from './planningArtifacts';
import { requirementTaskClosure, REQUIREMENT_TASK_CLOSURE } from './requirementTaskClosure';
import { taskStateClosure, TASK_STATE_CLOSURE } from './taskStateClosure';
import type { Validator } from './validatorResult';
import { VERIFICATION_ARTIFACTS, verificationArtifacts } from './verificationArtifacts';

/**
 * Every validator loom's `run --advance` knows (pipeline-engine.js ADVANCE_VALIDATORS), by the
 * name workflow.yaml uses, with the stage it checks: at any other stage loom lets it pass without
 * running it, and a name loom does not know stops advancing ("Unknown validator"). Each check only
 * reads: artifact-analysis-pass and convergence-pass compute their report in memory (overrides
 * only change how a finding is shown); writing the report is an explicit step
 * (writeArtifactAnalysis, writeConvergence), run by `analyze` / `converge` and by advancing.
 */
export const VALIDATORS: ReadonlyMap<string, { stage: string; check: Validator }> = new Map([
  [PLANNING_ARTIFACTS, { stage: 'planning', check: planningArtifacts }],
  [TASK_STATE_CLOSURE, { stage: 'executing', check: taskStateClosure }],
  [REQUIREMENT_TASK_CLOSURE, { stage: 'executing', check: requirementTaskClosure }],
  [DETAIL_EXPANSION_PASS, { stage: 'detail-expansion', check: detailExpansionPass }],
  [ARTIFACT_ANALYSIS_PASS, { stage: 'analyze-artifacts', check: artifactAnalysisPass }],
  [CONVERGENCE_PASS, { stage: 'converge', check: convergencePass }],
  [VERIFICATION_ARTIFACTS, { stage: 'verification', check: verificationArtifacts }],
]);

/** Loom checks these when leaving `executing`, declared or not. */
export const IMPLICIT_VALIDATORS: ReadonlyMap<string, readonly string[]> = new Map([['executing', [TASK_STATE_CLOSURE, REQUIREMENT_TASK_CLOSURE]]]);
