import { adjustPipeline } from './tools/adjustPipeline';
import { addMemory, getMemory } from './tools/memory';
import { getContext } from './tools/context';
import { advancePipeline, approveGate } from './tools/stageChanges';
import { listCapabilities, loadToolGroup, telemetry } from './tools/meta';
import { getPipelineContext, getProjectStatus } from './tools/pipelineStatus';
import { selectPipelineTool } from './tools/selectPipeline';
import { attachSpec } from './tools/session';
import { stageCheckpoint, writeHandoff } from './tools/handoffs';
import { updateTaskState } from './tools/taskState';
import { analyzeArtifacts, converge, detailExpansionCheck, omissionHunt, validatePlan, verifyArtifacts } from './tools/validatorChecks';
import { checkStage, tasks, trace, validate } from './tools/views';
import type { LoomTool } from './tool';
import { getDrift } from './tools/drift';

/**
 * Every tool the server offers, with loom's names and input property names (LOOM-MCP.md), then
 * ours: loom_trace, loom_tasks, loom_validate and loom_check_stage. The catalog
 * (loom_list_capabilities) and the lazy listing both read this one list.
 *
 * What the model reads to choose and drive a tool stays English, in any display language, as
 * loom's own tools word it: the tool and input-schema descriptions tools/list gives, the server's
 * instructions, the group guide, and the directives `next_required_action` and
 * `forbidden_actions`. What a person may read is in the display language (src/core/messages/mcp.ts):
 * each refusal's `error` and `hint` (next to its stable English `code`) and the questions asked
 * through elicitation.
 */
export const LOOM_TOOLS: readonly LoomTool[] = [
  listCapabilities,
  loadToolGroup,
  telemetry,
  attachSpec,
  getContext,
  getMemory,
  addMemory,
  getProjectStatus,
  getPipelineContext,
  advancePipeline,
  approveGate,
  updateTaskState,
  writeHandoff,
  stageCheckpoint,
  selectPipelineTool,
  adjustPipeline,
  detailExpansionCheck,
  validatePlan,
  analyzeArtifacts,
  converge,
  omissionHunt,
  verifyArtifacts,
  trace,
  tasks,
  validate,
  checkStage,
  getDrift,
];
