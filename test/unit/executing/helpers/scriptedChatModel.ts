import type { ChatMessage, ChatModel, ChatRequestOptions, ChatResponsePart, ToolSpec } from '../../../../src/core/executing/dispatch/chatModel';
import type { ModelTier, SubagentRole } from '../../../../src/core/executing/dispatch/modelTier';
import type { ModelSelector } from '../../../../src/core/executing/ports';

/** One scripted turn of a model. */
export type ScriptedReply =
  | { text: string; toolCalls?: { name: string; input: unknown }[] }
  /** Never answers; ends only when the request is aborted (timeout or cancellation). */
  | { hang: true }
  /** Streams `text`, then the stream breaks. */
  | { breakAfter: string }
  /** Throws before streaming. */
  | { throws: Error }
  /** Waits for `until` (or fails after `ms`), then replies with `then`. */
  | { until: Promise<void>; ms: number; then: ScriptedReply }
  /** Decides from the conversation so far. */
  | ((messages: readonly ChatMessage[]) => ScriptedReply);

export interface RecordedRequest {
  role: SubagentRole;
  tier: ModelTier;
  messages: ChatMessage[];
  tools: string[];
}

/** Deterministic token count: one token per 4 characters, rounded up. */
export const countByChars = (text: string) => Math.ceil(text.length / 4);

/**
 * A model whose replies come from per-role queues. A request with nothing left in its queue
 * fails the test loudly: the loop dispatched something it should not have.
 */
export class ScriptedModels implements ModelSelector {
  readonly requests: RecordedRequest[] = [];
  readonly selections: { role: SubagentRole; tier: ModelTier }[] = [];
  private readonly queues = new Map<SubagentRole, ScriptedReply[]>();
  /** Called when a request starts (for tests that coordinate parallel dispatch). */
  onRequest?: (role: SubagentRole, messages: readonly ChatMessage[]) => void;
  unavailable?: Error;
  /** What `check` says is missing (the host's VsCodeModelSelector.check); undefined: every tier has a model. */
  missing?: string;

  script(role: SubagentRole, ...replies: ScriptedReply[]): this {
    this.queues.set(role, [...(this.queues.get(role) ?? []), ...replies]);
    return this;
  }

  left(role: SubagentRole): number {
    return this.queues.get(role)?.length ?? 0;
  }

  requestsOf(role: SubagentRole): RecordedRequest[] {
    return this.requests.filter((r) => r.role === role);
  }

  /** The first user message of each dispatch of a role: the prompts the loop built. */
  promptsOf(role: SubagentRole): string[] {
    return this.requestsOf(role)
      .filter((r) => r.messages.length >= 1 && r.messages[r.messages.length - 1].role === 'user')
      .map((r) => (r.messages[r.messages.length - 1] as { content: string }).content);
  }

  async check(): Promise<string | undefined> {
    return this.missing;
  }

  async select(role: SubagentRole, tier: ModelTier): Promise<ChatModel> {
    if (this.unavailable) throw this.unavailable;
    this.selections.push({ role, tier });
    return this.model(role, tier);
  }

  private model(role: SubagentRole, tier: ModelTier): ChatModel {
    const self = this;
    return {
      id: `scripted-${role}-${tier}`,
      vendor: 'test',
      family: tier,
      maxInputTokens: 200_000,
      countTokens: async (text: string) => countByChars(text),
      sendRequest(messages: readonly ChatMessage[], options: ChatRequestOptions): AsyncIterable<ChatResponsePart> {
        self.requests.push({ role, tier, messages: [...messages], tools: (options.tools ?? []).map((t: ToolSpec) => t.name) });
        self.onRequest?.(role, messages);
        const queue = self.queues.get(role) ?? [];
        let reply = queue.shift();
        if (reply === undefined) throw new Error(`unexpected ${role} request: the script has no reply left`);
        while (typeof reply === 'function') reply = reply(messages);
        return stream(reply, options.signal);
      },
    };
  }
}

let callIds = 0;

async function* stream(reply: Exclude<ScriptedReply, (m: readonly ChatMessage[]) => ScriptedReply>, signal: AbortSignal): AsyncIterable<ChatResponsePart> {
  if ('throws' in reply) throw reply.throws;
  if ('until' in reply) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([reply.until, new Promise((_r, reject) => (timer = setTimeout(() => reject(new Error(`waited ${reply.ms} ms in vain`)), reply.ms)))]);
    clearTimeout(timer);
    let next = reply.then;
    while (typeof next === 'function') next = next([]);
    yield* stream(next, signal);
    return;
  }
  if ('hang' in reply) {
    await new Promise<void>((_resolve, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    return;
  }
  if ('breakAfter' in reply) {
    yield { type: 'text', value: reply.breakAfter };
    throw new Error('connection reset');
  }
  // Text arrives in two chunks, as a real stream would deliver it.
  const half = Math.floor(reply.text.length / 2);
  if (reply.text) {
    yield { type: 'text', value: reply.text.slice(0, half) };
    yield { type: 'text', value: reply.text.slice(half) };
  }
  for (const call of reply.toolCalls ?? []) yield { type: 'toolCall', callId: `call-${++callIds}`, name: call.name, input: call.input };
}

/** The tool results the model received in its last request of a role. */
export function toolResults(req: RecordedRequest): string[] {
  return req.messages.filter((m) => m.role === 'tool').map((m) => (m as { content: string }).content);
}
