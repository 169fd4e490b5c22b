import * as vscode from 'vscode';
import { ModelRequestError, type ChatMessage, type ChatModel, type ChatRequestOptions, type ChatResponsePart, type ModelRequestErrorCode, type ToolSpec } from '../../core/port/executing';
import { t } from '../../core/port/messages';
import { readProviderPrice, type ModelPrice } from '../../core/port/credits';
import { tokenFromSignal } from './cancellation';

const CODES: ReadonlySet<string> = new Set(['NoPermissions', 'NotFound', 'Blocked']);

/** A LanguageModelError (or anything a request throws) as the core's ModelRequestError. */
export function toModelRequestError(e: unknown, while_: 'request' | 'stream'): ModelRequestError {
  if (e instanceof ModelRequestError) return e;
  const raw = e instanceof vscode.LanguageModelError || (e instanceof Error && typeof (e as { code?: unknown }).code === 'string') ? String((e as unknown as { code: string }).code) : '';
  const code: ModelRequestErrorCode = CODES.has(raw) ? (raw as ModelRequestErrorCode) : 'Unknown';
  const message = e instanceof Error ? e.message : String(e);
  // The core's words, in the display language: the run's report and the breaker show them.
  const what = while_ === 'stream' ? t('model.replyBrokeOff', { detail: message }) : code === 'Unknown' ? t('model.requestFailed', { detail: message }) : `${code}: ${message}`;
  return new ModelRequestError(what, code, e);
}

/** The core's messages as vscode.lm messages: tool calls ride on an Assistant message, their results on a User message. */
export function toLanguageModelMessages(messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  let results: vscode.LanguageModelToolResultPart[] = [];
  const flush = () => {
    if (results.length) out.push(vscode.LanguageModelChatMessage.User(results));
    results = [];
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      results.push(new vscode.LanguageModelToolResultPart(m.callId, [new vscode.LanguageModelTextPart(m.content)]));
      continue;
    }
    flush();
    if (m.role === 'user') out.push(vscode.LanguageModelChatMessage.User(m.content));
    else {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      if (m.content) parts.push(new vscode.LanguageModelTextPart(m.content));
      for (const c of m.toolCalls ?? []) parts.push(new vscode.LanguageModelToolCallPart(c.callId, c.name, toolInput(c.input)));
      out.push(vscode.LanguageModelChatMessage.Assistant(parts.length ? parts : ''));
    }
  }
  flush();
  return out;
}

const toolInput = (input: unknown): object => (input && typeof input === 'object' ? (input as object) : {});

const toTool = (t: ToolSpec): vscode.LanguageModelChatTool => ({ name: t.name, description: t.description, inputSchema: t.inputSchema });

/**
 * The core's ChatModel over a vscode.LanguageModelChat: the one place that sends requests and
 * counts tokens. The caller's AbortSignal becomes the request's CancellationToken.
 */
export class LanguageModelChatAdapter implements ChatModel {
  constructor(
    private readonly model: vscode.LanguageModelChat,
    private readonly justification: string,
  ) {}

  get id(): string {
    return this.model.id;
  }
  get vendor(): string {
    return this.model.vendor;
  }
  get family(): string {
    return this.model.family;
  }
  get maxInputTokens(): number {
    return this.model.maxInputTokens;
  }
  /** VS Code's price for the model where the running VS Code gives one (proposed languageModelPricing); never required. */
  get price(): ModelPrice | undefined {
    return readProviderPrice(this.model);
  }

  async *sendRequest(messages: readonly ChatMessage[], options: ChatRequestOptions): AsyncIterable<ChatResponsePart> {
    const { signal } = options;
    if (signal.aborted) throw signal.reason;
    const bridge = tokenFromSignal(signal);
    try {
      let response: vscode.LanguageModelChatResponse;
      try {
        response = await this.model.sendRequest(
          toLanguageModelMessages(messages),
          {
            justification: this.justification,
            tools: options.tools?.length ? options.tools.map(toTool) : undefined,
          },
          bridge.token,
        );
      } catch (e) {
        if (signal.aborted) throw signal.reason;
        throw toModelRequestError(e, 'request');
      }
      const stream = response.stream[Symbol.asyncIterator]();
      for (;;) {
        let next: IteratorResult<unknown>;
        try {
          next = await stream.next();
        } catch (e) {
          if (signal.aborted) throw signal.reason;
          throw toModelRequestError(e, 'stream');
        }
        if (next.done) break;
        const part = next.value;
        if (part instanceof vscode.LanguageModelTextPart) yield { type: 'text', value: part.value };
        else if (part instanceof vscode.LanguageModelToolCallPart) yield { type: 'toolCall', callId: part.callId, name: part.name, input: part.input };
        // Data parts and future part types carry nothing the loop reads.
      }
    } finally {
      bridge.dispose();
    }
  }

  async countTokens(text: string, signal: AbortSignal): Promise<number> {
    const bridge = tokenFromSignal(signal);
    try {
      return await this.model.countTokens(text, bridge.token);
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      throw toModelRequestError(e, 'request');
    } finally {
      bridge.dispose();
    }
  }
}
