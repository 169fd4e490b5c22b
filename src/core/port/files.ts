// loom's files as the surfaces name, read and render them, and the file helpers they share
// with the core (one atomic write, one optional read).
export type { Finding } from '../files/findings';
export { ARTIFACT_ANALYSIS_FILE, CONVERGENCE_REPORT_FILE } from '../files/findings';
export type { StageHistoryEntry } from '../files/pipelineState';
export { parseReport } from '../files/report';
export { REQUIREMENTS_FILE } from '../files/requirements';
export { TRACEABILITY_FILE } from '../files/traceability';
export type { Workflow, WorkflowStep } from '../files/workflow';
export { WorkflowStepSchema, parseWorkflow } from '../files/workflow';
export { toJsonText, writeFileAtomic } from '../fs/atomicWrite';
export { readOptionalText } from '../fs/readOptional';
export { fileAt } from '../git/checkpoints';
export { MEMORY_STORE_FILE } from '../memory/memoryStore';
export { nodeCrypto } from '../nodeModules';
export { splitSpecName } from '../specdir/specName';
export type { VerificationResult } from '../verification/verificationResult';
