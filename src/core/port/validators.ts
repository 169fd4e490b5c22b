// loom's validators as the surfaces run them (Analyze Artifacts, convergence, the omission hunt,
// the planning and verification checks of the CLI and MCP tools) and the findings' quick fixes.
export { ARTIFACT_ANALYSIS_PASS, analyzeArtifacts, blockingFindings, blockingProblem, openBlockingFindings, overrideAuthor, overrideFor } from '../validators/artifactAnalysis';
export { convergenceRound } from '../validators/convergence';
export { detailExpansionPass } from '../validators/detailExpansion';
export type { FindingFix } from '../validators/findingFix';
export { findingFixEdits } from '../validators/findingFix';
export { SpecLines } from '../validators/findingSupport';
export { planOverviewFindings, planningArtifacts } from '../validators/planningArtifacts';
export type { ValidatorResult } from '../validators/validatorResult';
export { verificationArtifacts } from '../validators/verificationArtifacts';
