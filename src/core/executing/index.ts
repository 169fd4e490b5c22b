/**
 * The executing stage's core, as the host uses it. The host supplies the ports (a ModelSelector
 * over vscode.lm, UserPrompts over input boxes and quick picks, a TranscriptStore in the
 * extension's storage) and listens to the events; everything else happens here.
 */
export { ExecutingLoop, ExecutingRefusedError, type ExecutingLoopOptions, type ExecutingOutcome, type ExecutingResult, type ExecutingSettings } from './executingLoop';
export { checkExecutingPreconditions, executingStage } from './preconditions';
export type { ExecutingEvent, ExecutingEventListener } from './events';
export { ModelRequestError, ModelUnavailableError, isPermanentModelError, type ChatMessage, type ChatModel, type ChatRequestOptions, type ChatResponsePart, type ModelRequestErrorCode, type ToolCall, type ToolSpec } from './chatModel';
export { silentLogger, systemClock, type Clock, type Logger, type ModelSelector, type UserPrompts } from './ports';
export { chooseModelTier, type ModelTier, type SubagentRole } from './modelTier';
export { chooseExecutionMode, describeExecutionMode, describeTrigger, type ExecutionMode, type ModeTrigger } from './executionMode';
export { BREAKER_CHOICES, renderBreakerReport, type BreakerChoice, type CircuitBreakerReport } from './circuitBreaker';
export { FileTranscriptStore, MemoryTranscriptStore, type DispatchSummary, type TranscriptEntry, type TranscriptStore } from './transcriptStore';
export { TokenBudgetExceededError, TOKEN_USAGE_KEY, type TokenUsage } from './tokenLedger';
export { GitDiffProvider, type DiffProvider, type WorktreeDiff } from './diffProvider';
export { NodeTestRunner, UntrustedWorkspaceError, detectTestCommand, type TestRun, type TestRunner } from './testRunner';
export { describeTestLocations, findTestLocations, testLocationsOfRun, type TestLocations } from './testWriteScope';
export { TOOL_NAMES, WorkspaceTools, type ToolCallRecord, type WriteScope } from './workspaceTools';
export { PROMPT_NAMES, PROMPT_OVERRIDE_DIR, type PromptLanguage } from './prompts/promptTemplates';
