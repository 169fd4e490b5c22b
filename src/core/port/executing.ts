// The executing run's ports the host implements (the chat model and its selector, the
// person's prompts, the Problems panel) and what a run reports (events, outcome, transcripts,
// the circuit breaker's report).
export type { ExecutingEvent, ExecutingResult, Logger } from '../executing';
export { FileTranscriptStore } from '../executing';
export type { ChatMessage, ChatModel, ChatRequestOptions, ChatResponsePart, ModelRequestErrorCode, ToolSpec } from '../executing/dispatch/chatModel';
export { ModelRequestError, ModelUnavailableError } from '../executing/dispatch/chatModel';
export type { ModelTier, SubagentRole } from '../executing/dispatch/modelTier';
export { RetryingChatModel } from '../executing/dispatch/retryingChatModel';
export type { BreakerChoice, CircuitBreakerReport } from '../executing/machine/circuitBreaker';
export { describeBreakerChoice, isBreakerChoice, renderBreakerReport } from '../executing/machine/circuitBreaker';
export type { ExecutingOutcome } from '../executing/machine/runTypes';
export type { ModelSelector, Problem, ProblemsPort, UserPrompts } from '../executing/ports';
export { describeDispatch, renderTranscriptMarkdown } from '../executing/transcripts/transcriptMarkdown';
