// What only the CLI and the MCP server use, apart so that the extension's bundle does not take
// it: the memory store, choosing a pipeline from the workflow (loom_select_pipeline), the team's
// rules read from the workspace, the omission hunt, the plan template's check, and the CLI's
// cache of statuses.
export { MEMORY_TYPES, addMemoryEntry, readMemoryStore } from '../memory/memoryStore';
export { buildPipelineDefinition } from '../pipeline/pipelineDefinition';
export { bundledPipelineSchema } from '../pipeline/pipelineSchema';
export { readWorkspaceString } from '../pipeline/teamRules';
export { scanStatuses, specStatus } from '../repository/specStatusCache';
export { CompactCacheStore } from '../specdir/compactCacheStore';
export { OMISSION_HUNTER_FILE } from '../validators/omissionHunt';
export { planTemplateProblems } from '../validators/planTemplate';
