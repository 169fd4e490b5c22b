import { ARTIFACT_ANALYSIS_PASS, artifactAnalysisPass } from './artifactAnalysis';
import { CONVERGENCE_PASS, convergencePass } from './convergence';
import { DETAIL_EXPANSION_PASS, detailExpansionPass } from './detailExpansion';
import { planningArtifacts, PLANNING_ARTIFACTS } from './planningArtifacts';
import { requirementTaskClosure, REQUIREMENT_TASK_CLOSURE } from './requirementTaskClosure';
import { taskStateClosure, TASK_STATE_CLOSURE } from './taskStateClosure';
import type { Validator } from './validatorResult';
import { VERIFICATION_ARTIFACTS, verificationArtifacts } from './verificationArtifacts';

/**
 * The deterministic validators the core implements, by the name workflow.yaml uses. Each only
 * reads: artifact-analysis-pass and convergence-pass compute their report in memory (with the
 * overrides artifact-analysis.json records); writing the report is an explicit step
 * (writeArtifactAnalysis, writeConvergence), run by `analyze` / `converge` and by advancing.
 */
export const VALIDATORS: ReadonlyMap<string, Validator> = new Map<string, Validator>([
  [PLANNING_ARTIFACTS, planningArtifacts],
  [TASK_STATE_CLOSURE, taskStateClosure],
  [REQUIREMENT_TASK_CLOSURE, requirementTaskClosure],
  [DETAIL_EXPANSION_PASS, detailExpansionPass],
  [ARTIFACT_ANALYSIS_PASS, artifactAnalysisPass],
  [CONVERGENCE_PASS, convergencePass],
  [VERIFICATION_ARTIFACTS, verificationArtifacts],
]);

/**
 * Every validator loom's `run --advance` knows (pipeline-engine.js ADVANCE_VALIDATORS), with the
 * stage it checks: at any other stage loom lets it pass without running it. A name loom does not
 * know stops advancing ("Unknown validator").
 */
export const LOOM_VALIDATOR_STAGES: ReadonlyMap<string, string> = new Map([
  [PLANNING_ARTIFACTS, 'planning'],
  [TASK_STATE_CLOSURE, 'executing'],
  [REQUIREMENT_TASK_CLOSURE, 'executing'],
  [VERIFICATION_ARTIFACTS, 'verification'],
  [DETAIL_EXPANSION_PASS, 'detail-expansion'],
  [ARTIFACT_ANALYSIS_PASS, 'analyze-artifacts'],
  [CONVERGENCE_PASS, 'converge'],
]);

/** Loom checks these when leaving `executing`, declared or not. */
export const IMPLICIT_VALIDATORS: ReadonlyMap<string, readonly string[]> = new Map([
  ['executing', [TASK_STATE_CLOSURE, REQUIREMENT_TASK_CLOSURE]],
]);
