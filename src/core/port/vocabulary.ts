// loom's words: where it keeps its files, its stage and task statuses. Only constants, from a
// module that imports nothing, so that the extension's entry can read them (activatedWithWindow).
export type { TaskStatus } from '../files/vocabulary';
export { FAILED_STAGE, HANDOFF_STATUSES, PIPELINE_STATE_FILE, SPEC_ROOTS, TASK_ID_PATTERN, TASK_STATUSES, WORKFLOW_FILE } from '../files/vocabulary';
