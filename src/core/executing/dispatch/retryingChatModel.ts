import { t } from '../../messages';
import type { Clock } from '../ports';
import { systemClock } from '../ports';
import { ModelRequestError, type ChatMessage, type ChatModel, type ChatRequestOptions, type ChatResponsePart } from './chatModel';
import { askedDelayMs, isTransientModelError } from './transientModelError';

/** One pause before asking again, told to whoever shows the run (the log, a transcript). */
export interface ModelRetry {
  /** 1 for the first retry. */
  attempt: number;
  retries: number;
  delayMs: number;
  error: unknown;
}

export interface RetryPolicy {
  /** How many times a transient failure is asked again before it is given up (3). */
  retries: number;
  /** The first pause; each next one doubles (2 s, 4 s, 8 s). */
  baseDelayMs: number;
  /** No pause is longer, whatever the provider asks (60 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, baseDelayMs: 2000, maxDelayMs: 60_000 };

export interface RetryOptions {
  policy?: Partial<RetryPolicy>;
  clock?: Clock;
  onRetry?(retry: ModelRetry): void;
}

/** The pause of one retry: the doubling backoff, or longer when the provider asked for it, never over the cap. */
export function retryDelayMs(policy: RetryPolicy, attempt: number, error: unknown): number {
  const backoff = policy.baseDelayMs * 2 ** (attempt - 1);
  return Math.min(policy.maxDelayMs, Math.max(backoff, askedDelayMs(error) ?? 0));
}

/** Waits `ms` on the clock; an abort ends the wait at once with the signal's reason. */
function pause(ms: number, signal: AbortSignal, clock: Clock): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Any ChatModel, asked again after a pause when it fails for a reason that goes away by itself
 * (a rate limit, the network: transientModelError.ts), a bounded number of times; then the
 * failure is given up with how often it was tried. Stop (the request's signal) ends a pause at
 * once. This is the one place a model request is asked again (the executing loop's dispatcher
 * asks nothing again itself). A reply that broke off after some of it was streamed is asked again
 * only for a caller that takes it whole (`whole`); otherwise its parts are already with the
 * caller, and the failure is the caller's.
 */
export class RetryingChatModel implements ChatModel {
  private readonly policy: RetryPolicy;
  private readonly clock: Clock;

  constructor(
    private readonly model: ChatModel,
    private readonly options: RetryOptions = {},
  ) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.policy };
    this.clock = options.clock ?? systemClock;
  }

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
  get price(): ChatModel['price'] {
    return this.model.price;
  }

  async *sendRequest(messages: readonly ChatMessage[], options: ChatRequestOptions): AsyncIterable<ChatResponsePart> {
    for (let attempt = 1; ; attempt++) {
      let streamed = false;
      // A caller that takes the reply whole gets it at its end: a break midway is then one more failed try, nothing of it handed on.
      const held: ChatResponsePart[] = [];
      try {
        for await (const part of this.model.sendRequest(messages, options)) {
          if (options.whole) held.push(part);
          else {
            streamed = true;
            yield part;
          }
        }
        yield* held;
        return;
      } catch (e) {
        if (streamed) throw e;
        await this.again(attempt, e, options.signal);
      }
    }
  }

  async countTokens(text: string, signal: AbortSignal): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.model.countTokens(text, signal);
      } catch (e) {
        await this.again(attempt, e, signal);
      }
    }
  }

  /** Returns after the pause when the failure is worth another try; otherwise throws (the failure, or that it was given up). */
  private async again(attempt: number, error: unknown, signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw signal.reason;
    if (!isTransientModelError(error)) throw error;
    const { retries } = this.policy;
    if (attempt > retries) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new ModelRequestError(t('model.gaveUp', { tries: retries + 1, detail }), 'Unknown', error);
    }
    const delayMs = retryDelayMs(this.policy, attempt, error);
    this.options.onRetry?.({ attempt, retries, delayMs, error });
    await pause(delayMs, signal, this.clock);
  }
}
