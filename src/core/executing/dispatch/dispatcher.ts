import { formatCredits } from '../../credits/pricing';
import { t } from '../../messages';
import { LoomError } from '../../errors';
import { collectReply, type ChatMessage, type ChatModel, type ToolCall, type ToolSpec } from './chatModel';
import type { SubagentRole } from './modelTier';
import type { Clock, Logger } from '../ports';
import type { StepEstimate, TokenLedger } from '../transcripts/tokenLedger';
import type { TranscriptEntry, TranscriptStore } from '../transcripts/transcriptStore';
import type { WorkspaceTools } from '../tools/workspaceTools';

/**
 * One dispatch: a prompt sent to a model, its tool calls answered by the workspace tools until
 * it replies without one, under a time limit. Every request and reply is counted with the
 * model's countTokens and written to the transcript store.
 */
export class DispatchTimeoutError extends LoomError {
  constructor(
    readonly task: string,
    readonly role: SubagentRole,
    readonly minutes: number,
  ) {
    super(`the ${role} of ${task} ran longer than ${minutes} minute${minutes === 1 ? '' : 's'} and was stopped`);
  }
}

export interface DispatchRequest {
  /** Repository-relative spec directory. */
  spec: string;
  task: string;
  role: SubagentRole;
  mode: NonNullable<TranscriptEntry['mode']>;
  model: ChatModel;
  /** Earlier turns of the same conversation (direct mode, repair requests); empty for a fresh subagent. */
  history: readonly ChatMessage[];
  prompt: string;
  tools?: WorkspaceTools;
  timeoutMinutes: number;
  signal: AbortSignal;
}

export interface DispatchResult {
  dispatchId: string;
  /** The final reply's text: where the status line or verdict is. */
  text: string;
  /** Every assistant text of the dispatch, for reports spread over several turns. */
  allText: string;
  /** The conversation including this dispatch, to continue it. */
  messages: ChatMessage[];
  /** Tokens of the first request: the prompt as the model received it. */
  promptTokens: number;
  inputTokens: number;
  outputTokens: number;
  /** The last request plus its reply: how large the conversation now is. */
  lastRequestTokens: number;
  toolRoundsExhausted: boolean;
}

export interface DispatcherOptions {
  stage: string;
  transcripts: TranscriptStore;
  ledger: TokenLedger;
  tokenBudget?: number;
  /** `loom.budget.credits`: AI credits the spec may spend; a request that would pass it is not made. */
  creditBudget?: number;
  clock: Clock;
  logger: Logger;
  maxToolRounds: number;
  onToolCall?: (task: string, role: SubagentRole, call: ToolCall) => void;
  /** A dispatch's estimate, before its first request is sent (the run's progress says it). */
  onEstimate?: (task: string, role: SubagentRole, estimate: StepEstimate) => void;
  /** 80 % of the credits budget is used: said once per run, where the person sees it. */
  onNearLimit?: (used: number, budget: number) => void;
}

let sequence = 0;

/** The model as the price table looks it up, with VS Code's own price when it gives one. */
const modelRef = (m: ChatModel) => ({ id: m.id, family: m.family, vendor: m.vendor, ...(m.price ? { price: m.price } : {}) });

export class Dispatcher {
  private readonly counted = new WeakMap<ChatMessage, number>();

  constructor(private readonly options: DispatcherOptions) {}

  async dispatch(req: DispatchRequest): Promise<DispatchResult> {
    const { clock } = this.options;
    const timeout = new AbortController();
    let timedOut = false;
    if (req.signal.aborted) throw req.signal.reason;
    const signal = AbortSignal.any([req.signal, timeout.signal]);
    // The run's clock, not AbortSignal.timeout: tests move time by hand.
    const timer = clock.setTimeout(
      () => {
        timedOut = true;
        timeout.abort(new DispatchTimeoutError(req.task, req.role, req.timeoutMinutes));
      },
      Math.max(1, Math.round(req.timeoutMinutes * 60_000)),
    );
    const dispatchId = `${clock.now().toISOString().replace(/[:.]/g, '-')}-${req.task}-${req.role}-${++sequence}`;
    try {
      return await this.converse(req, dispatchId, signal);
    } catch (e) {
      if (timedOut) {
        const err = new DispatchTimeoutError(req.task, req.role, req.timeoutMinutes);
        this.record(req, dispatchId, 'error', err.message);
        throw err;
      }
      this.record(req, dispatchId, 'error', e instanceof Error ? e.message : String(e));
      throw e;
    } finally {
      clock.clearTimeout(timer);
    }
  }

  private async converse(req: DispatchRequest, dispatchId: string, signal: AbortSignal): Promise<DispatchResult> {
    const { ledger, maxToolRounds } = this.options;
    const messages: ChatMessage[] = [...req.history, { role: 'user', content: req.prompt }];
    this.record(req, dispatchId, 'request', req.prompt);
    const tools = req.tools?.specs();
    let inputTokens = 0;
    let outputTokens = 0;
    let promptTokens = 0;
    const texts: string[] = [];
    for (let round = 0; ; round++) {
      ledger.checkBudget(this.options.tokenBudget);
      const input = await this.countMessages(req.model, messages, signal);
      if (round === 0) promptTokens = await this.countMessages(req.model, [messages[messages.length - 1]], signal);
      this.checkCredits(req, input, round === 0);
      const reply = await this.request(req, messages, tools, signal);
      const output = await req.model.countTokens(reply.text + (reply.toolCalls.length ? JSON.stringify(reply.toolCalls) : ''), signal);
      ledger.add({ stage: this.options.stage, role: req.role, task: req.task, input, output, model: modelRef(req.model) });
      inputTokens += input;
      outputTokens += output;
      const assistant: ChatMessage = { role: 'assistant', content: reply.text, ...(reply.toolCalls.length ? { toolCalls: reply.toolCalls } : {}) };
      this.counted.set(assistant, output);
      messages.push(assistant);
      if (reply.text.trim()) texts.push(reply.text);
      this.record(req, dispatchId, 'reply', { text: reply.text, toolCalls: reply.toolCalls }, output);
      const done = reply.toolCalls.length === 0;
      if (done || round + 1 >= maxToolRounds) {
        if (!done) this.options.logger.warn(`${req.task} ${req.role}: stopped after ${maxToolRounds} rounds of tool calls`);
        return { dispatchId, text: reply.text, allText: texts.join('\n\n'), messages, promptTokens, inputTokens, outputTokens, lastRequestTokens: input + output, toolRoundsExhausted: !done };
      }
      for (const call of reply.toolCalls) {
        this.options.onToolCall?.(req.task, req.role, call);
        this.record(req, dispatchId, 'tool-call', call);
        const result = req.tools ? await req.tools.invoke(call, signal) : { content: `Refused: the ${req.role} has no tools`, outcome: 'refused' as const };
        this.record(req, dispatchId, 'tool-result', { callId: call.callId, name: call.name, outcome: result.outcome, content: result.content });
        messages.push({ role: 'tool', callId: call.callId, name: call.name, content: result.content });
      }
    }
  }

  private warnedNearLimit = false;

  /**
   * The credits budget, before a request is made: its estimate (the prompt's tokens and the typical
   * output of its role on this spec, at the model's price) is said before a dispatch's first
   * request, and the request is not made when the estimate would pass the budget. At 80 % of the
   * budget the person is told once per run (this dispatcher is the run's).
   */
  private checkCredits(req: DispatchRequest, input: number, first: boolean): void {
    const { ledger } = this.options;
    const estimate = ledger.estimate(modelRef(req.model), req.role, input);
    if (first) this.options.onEstimate?.(req.task, req.role, estimate);
    const budget = this.options.creditBudget;
    if (budget === undefined || budget <= 0) return;
    ledger.checkCredits(budget, estimate.credits ?? 0);
    if (!this.warnedNearLimit && ledger.nearLimit(budget)) {
      this.warnedNearLimit = true;
      this.options.logger.warn(t('credits.nearLimit', { used: formatCredits(ledger.creditsUsed()), budget: formatCredits(budget) }));
      this.options.onNearLimit?.(ledger.creditsUsed(), budget);
    }
  }

  /**
   * The reply, taken whole. Asking again is the model's own (RetryingChatModel, with its backoff
   * and its bound, a reply that broke off midway included): a failure here already had its tries.
   */
  private request(req: DispatchRequest, messages: readonly ChatMessage[], tools: readonly ToolSpec[] | undefined, signal: AbortSignal) {
    return collectReply(req.model.sendRequest(messages, { tools, signal, whole: true }), signal);
  }

  private async countMessages(model: ChatModel, messages: readonly ChatMessage[], signal: AbortSignal): Promise<number> {
    let total = 0;
    for (const m of messages) {
      let n = this.counted.get(m);
      if (n === undefined) {
        const text = m.role === 'assistant' && m.toolCalls?.length ? m.content + JSON.stringify(m.toolCalls) : m.content;
        n = await model.countTokens(text, signal);
        this.counted.set(m, n);
      }
      total += n;
    }
    return total;
  }

  private record(req: DispatchRequest, dispatchId: string, kind: TranscriptEntry['kind'], content: unknown, tokens?: number): void {
    try {
      this.options.transcripts.append({
        at: this.options.clock.now().toISOString(),
        dispatchId,
        spec: req.spec,
        task: req.task,
        role: req.role,
        mode: req.mode,
        kind,
        model: req.model.id,
        content,
        ...(tokens !== undefined ? { tokens } : {}),
      });
    } catch (e) {
      // A full disk must not stop the work; the log says what was lost.
      this.options.logger.warn(`transcript of ${dispatchId} not written: ${(e as Error).message}`);
    }
  }
}
