import type { ModelPrice } from '../../credits/pricing';
import { LoomError } from '../../errors';
import { t } from '../../messages';

/**
 * The language-model port of the executing loop. The host adapts `vscode.lm` to it; tests use a
 * scripted model. Nothing here knows about VS Code.
 */

export interface ToolCall {
  callId: string;
  name: string;
  input: unknown;
}

export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  /** The result of one tool call, sent back to the model (vscode.lm: a ToolResultPart in a User message). */
  | { role: 'tool'; callId: string; name: string; content: string };

export type ChatResponsePart = { type: 'text'; value: string } | ({ type: 'toolCall' } & ToolCall);

/** A tool the model may call; `inputSchema` is a JSON Schema, as vscode.lm tools declare it. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: object;
}

export interface ChatRequestOptions {
  tools?: readonly ToolSpec[];
  signal: AbortSignal;
  /**
   * The caller uses the reply only once it is whole (collectReply): a reply that broke off midway
   * may then be asked again, its parts never handed on (RetryingChatModel). A surface that shows
   * the reply as it streams leaves it unset.
   */
  whole?: boolean;
}

export interface ChatModel {
  readonly id: string;
  readonly vendor: string;
  readonly family: string;
  readonly maxInputTokens: number;
  /**
   * Credits per million tokens as the running VS Code prices the model (the proposed
   * languageModelPricing API); absent where it does not, and then the price table is used.
   */
  readonly price?: ModelPrice;
  /** Streams the reply. May throw ModelRequestError before or while streaming. */
  sendRequest(messages: readonly ChatMessage[], options: ChatRequestOptions): AsyncIterable<ChatResponsePart>;
  countTokens(text: string, signal: AbortSignal): Promise<number>;
}

/** No model is available for a role and tier (an empty `selectChatModels` is normal, not a bug). */
export class ModelUnavailableError extends LoomError {
  constructor(
    message: string,
    readonly role?: string,
    readonly tier?: string,
    /** Why, without the role and tier: what a surface with no subagents (drafting a stage) says. */
    readonly reason?: string,
  ) {
    super(message);
  }
}

export type ModelRequestErrorCode = 'NoPermissions' | 'NotFound' | 'Blocked' | 'Unknown';

/** A request the model provider refused, or a stream that broke midway (`Unknown`). */
export class ModelRequestError extends LoomError {
  constructor(
    message: string,
    readonly code: ModelRequestErrorCode,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** Codes that will not go away by asking again: the loop stops instead of retrying. */
export const isPermanentModelError = (e: unknown): boolean => e instanceof ModelUnavailableError || (e instanceof ModelRequestError && e.code !== 'Unknown');

export interface CollectedReply {
  text: string;
  toolCalls: ToolCall[];
}

/**
 * Reads a whole streamed reply. A stream that throws midway becomes a ModelRequestError
 * (`Unknown`) unless the request was cancelled, in which case the abort reason is rethrown.
 */
export async function collectReply(stream: AsyncIterable<ChatResponsePart>, signal: AbortSignal): Promise<CollectedReply> {
  let text = '';
  const toolCalls: ToolCall[] = [];
  try {
    for await (const part of stream) {
      if (signal.aborted) break;
      if (part.type === 'text') text += part.value;
      else toolCalls.push({ callId: part.callId, name: part.name, input: part.input });
    }
  } catch (e) {
    if (signal.aborted) throw signal.reason;
    if (e instanceof ModelRequestError) throw e;
    throw new ModelRequestError(t('model.replyBrokeOff', { detail: (e as Error)?.message ?? String(e) }), 'Unknown', e);
  }
  if (signal.aborted) throw signal.reason;
  return { text, toolCalls };
}
