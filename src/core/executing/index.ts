/**
 * The executing stage's core, as the host uses it. The host supplies the ports (a ModelSelector
 * over vscode.lm, UserPrompts over input boxes and quick picks, a TranscriptStore in the
 * extension's storage) and listens to the events; everything else happens here.
 */
export { ExecutingRefusedError, type ExecutingOutcome, type ExecutingResult, type ExecutingSettings } from './machine/runTypes';
export { executingMachine, type ExecutingMachineInput } from './machine/executingMachine';
export type { ExecutingRunInput } from './machine/runTypes';
export type { ExecutingMachineEvent, UserAnswerEvent } from './machine/runEvents';
export { InFlightWork } from './machine/inFlightWork';
export { UserPromptsBridge } from './machine/userPromptsBridge';
export { acquireSpecLease } from './runLease';
export { checkExecutingPreconditions, executingStage } from './preconditions';
export type { ExecutingEvent, ExecutingEventListener } from './events';
export {
  ModelRequestError,
  ModelUnavailableError,
  isPermanentModelError,
  type ChatMessage,
  type ChatModel,
  type ChatRequestOptions,
  type ChatResponsePart,
  type ModelRequestErrorCode,
  type ToolCall,
  type ToolSpec,
} from './dispatch/chatModel';
export { silentLogger, systemClock, type Clock, type Logger, type ModelSelector, type UserPrompts } from './ports';
export { chooseModelTier, type ModelTier, type SubagentRole } from './dispatch/modelTier';
export { chooseExecutionMode, describeExecutionMode, describeTrigger, type ExecutionMode, type ModeTrigger } from './executionMode';
export { describeBreakerChoice, isBreakerChoice, renderBreakerReport, type BreakerChoice, type CircuitBreakerReport } from './machine/circuitBreaker';
export { FileTranscriptStore, MemoryTranscriptStore, type DispatchSummary, type TranscriptEntry, type TranscriptStore } from './transcripts/transcriptStore';
export { TokenBudgetExceededError, TOKEN_USAGE_KEY, type TokenUsage } from './transcripts/tokenLedger';
export { GitDiffProvider, type DiffProvider, type WorktreeDiff } from './evidence/diffProvider';
export { NodeTestRunner, UntrustedWorkspaceError, detectTestCommand, type TestRun, type TestRunner } from './evidence/testRunner';
export { describeTestLocations, findTestLocations, testLocationsOfRun, type TestLocations } from './tools/testWriteScope';
export { TOOL_NAMES, WorkspaceTools, type ToolCallRecord, type WriteScope } from './tools/workspaceTools';
export { PROMPT_NAMES, PROMPT_OVERRIDE_DIR, type PromptLanguage } from './dispatch/prompts/promptTemplates';
