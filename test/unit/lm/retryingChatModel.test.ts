import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectReply, ModelRequestError, type ChatModel, type ChatResponsePart } from '../../../src/core/executing/dispatch/chatModel';
import { RetryingChatModel, retryDelayMs, DEFAULT_RETRY_POLICY, type ModelRetry } from '../../../src/core/executing/dispatch/retryingChatModel';
import { askedDelayMs, isTransientModelError } from '../../../src/core/executing/dispatch/transientModelError';
import type { Clock } from '../../../src/core/executing/ports';

// Issue 44, "What to build" 5: a model error that is transient (a rate limit, the network) is
// asked again with backoff a bounded number of times before the run stops; Stop ends the wait.

/** A clock whose timers fire only when the test says so. */
class FakeClock implements Clock {
  readonly timers = new Map<number, { fn: () => void; ms: number }>();
  readonly waited: number[] = [];
  private next = 0;
  now = () => new Date(0);
  setTimeout = (fn: () => void, ms: number) => {
    this.timers.set(++this.next, { fn, ms });
    this.waited.push(ms);
    return this.next;
  };
  clearTimeout = (h: unknown) => void this.timers.delete(h as number);
  /** Fires every pending timer. */
  tick(): void {
    for (const [id, t] of [...this.timers]) {
      this.timers.delete(id);
      t.fn();
    }
  }
}

/** What VS Code's LanguageModelError looks like for a provider's failure: code `Unknown`, the provider's error as its cause. */
const providerError = (message: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), extra);
const unknown = (cause: Error) => new ModelRequestError(`the model request failed: ${cause.message}`, 'Unknown', cause);

type Step = { fail: Error } | { reply: string } | { breakAfter: string; fail: Error };

/** A model that answers each request with the next step of its script. */
function scripted(steps: Step[]): ChatModel & { requests: number; counts: number } {
  const m = {
    id: 'scripted',
    vendor: 'test',
    family: 'scripted',
    maxInputTokens: 1000,
    requests: 0,
    counts: 0,
    async *sendRequest(): AsyncIterable<ChatResponsePart> {
      m.requests++;
      const step = steps.shift();
      if (!step) throw new Error('no step left');
      if ('breakAfter' in step) {
        yield { type: 'text', value: step.breakAfter };
        throw step.fail;
      }
      if ('fail' in step) throw step.fail;
      yield { type: 'text', value: step.reply };
    },
    async countTokens(text: string): Promise<number> {
      m.counts++;
      const step = steps[0];
      if (step && 'fail' in step && !('breakAfter' in step)) {
        steps.shift();
        throw step.fail;
      }
      return text.length;
    },
  };
  return m;
}

/** Runs the request while firing the clock's timers as they are set; returns the reply or the error. */
async function drive(model: ChatModel, clock: FakeClock, signal = new AbortController().signal): Promise<string | Error> {
  const pending = collectReply(model.sendRequest([{ role: 'user', content: 'hi' }], { signal }), signal).then(
    (r) => r.text,
    (e: Error) => e,
  );
  let done = false;
  void pending.then(() => (done = true));
  while (!done) {
    await new Promise((r) => setImmediate(r));
    clock.tick();
  }
  return pending;
}

const RATE_LIMITED = () => unknown(providerError('Rate limit exceeded', { name: 'ChatRateLimited' }));

test('a rate limit is asked again after 2, 4 s: the third try answers, each pause is told', async () => {
  const clock = new FakeClock();
  const inner = scripted([{ fail: RATE_LIMITED() }, { fail: unknown(providerError('read ECONNRESET', { code: 'ECONNRESET' })) }, { reply: 'done' }]);
  const retries: ModelRetry[] = [];
  const model = new RetryingChatModel(inner, { clock, onRetry: (r) => retries.push(r) });
  assert.equal(await drive(model, clock), 'done');
  assert.equal(inner.requests, 3);
  assert.deepEqual(clock.waited, [2000, 4000]);
  assert.deepEqual(
    retries.map((r) => [r.attempt, r.retries, r.delayMs]),
    [
      [1, 3, 2000],
      [2, 3, 4000],
    ],
  );
});

test('a failure that does not pass is given up after 3 retries, saying how often it was tried', async () => {
  const clock = new FakeClock();
  const inner = scripted([{ fail: RATE_LIMITED() }, { fail: RATE_LIMITED() }, { fail: RATE_LIMITED() }, { fail: RATE_LIMITED() }, { reply: 'never asked' }]);
  const e = await drive(new RetryingChatModel(inner, { clock }), clock);
  assert.ok(e instanceof ModelRequestError, String(e));
  assert.equal(e.code, 'Unknown');
  assert.match(e.message, /could not be reached after 4 tries .*Rate limit exceeded/);
  assert.equal(inner.requests, 4);
  assert.deepEqual(clock.waited, [2000, 4000, 8000]);
  // Still known for what it is: the run says the model could not be reached, not that it refused.
  assert.equal(isTransientModelError(e), true);
});

test('a refusal, a quota or an ordinary bug is not asked again', async () => {
  for (const fail of [
    new ModelRequestError('NoPermissions: not allowed', 'NoPermissions'),
    new ModelRequestError('Blocked: no', 'Blocked'),
    unknown(providerError('You have exceeded your monthly quota', { status: 429 })),
    unknown(providerError("This model's maximum context length is 128000 tokens")),
    new TypeError("Cannot read properties of undefined (reading 'x')"),
  ]) {
    const clock = new FakeClock();
    const inner = scripted([{ fail }, { reply: 'never asked' }]);
    const e = await drive(new RetryingChatModel(inner, { clock }), clock);
    // As it failed (collectReply words an error that is not the port's as a reply that broke off).
    assert.ok(e === fail || (e as Error).cause === fail, String(e));
    assert.equal(inner.requests, 1, fail.message);
    assert.deepEqual(clock.waited, []);
  }
});

test('Stop during a pause ends the wait at once with the stop, and nothing is asked again', async () => {
  const clock = new FakeClock();
  const inner = scripted([{ fail: RATE_LIMITED() }, { reply: 'never asked' }]);
  const controller = new AbortController();
  const model = new RetryingChatModel(inner, { clock });
  const pending = collectReply(model.sendRequest([{ role: 'user', content: 'hi' }], { signal: controller.signal }), controller.signal).then(
    () => 'answered',
    (e: unknown) => e,
  );
  while (clock.timers.size === 0) await new Promise((r) => setImmediate(r));
  controller.abort(new Error('stopped by the person'));
  const e = await pending;
  assert.ok(e instanceof Error && e.message === 'stopped by the person', String(e));
  assert.equal(clock.timers.size, 0, 'the pause timer is cleared');
  assert.equal(inner.requests, 1);
});

test('a reply that broke off after some of it was streamed is not asked again here', async () => {
  const clock = new FakeClock();
  const fail = unknown(providerError('socket hang up'));
  const inner = scripted([{ breakAfter: 'half a repl', fail }, { reply: 'never asked' }]);
  const e = await drive(new RetryingChatModel(inner, { clock }), clock);
  assert.equal(e, fail);
  assert.equal(inner.requests, 1);
});

test('counting tokens is asked again too', async () => {
  const clock = new FakeClock();
  const inner = scripted([{ fail: RATE_LIMITED() }]);
  const model = new RetryingChatModel(inner, { clock });
  const counted = model.countTokens('four', new AbortController().signal);
  while (clock.timers.size === 0) await new Promise((r) => setImmediate(r));
  clock.tick();
  assert.equal(await counted, 4);
  assert.equal(inner.counts, 2);
});

test('transient: rate limits, busy statuses and dropped connections; the provider’s asked wait is kept, within the cap', () => {
  assert.equal(isTransientModelError(unknown(providerError('Request failed', { status: 503 }))), true);
  assert.equal(isTransientModelError(unknown(providerError('Request failed', { statusCode: 429 }))), true);
  assert.equal(isTransientModelError(unknown(providerError('connect', { cause: providerError('getaddrinfo', { code: 'EAI_AGAIN' }) }))), true);
  assert.equal(isTransientModelError(new ModelRequestError("the model's reply broke off: fetch failed", 'Unknown')), true);
  assert.equal(isTransientModelError(unknown(providerError('Request failed', { status: 400 }))), false);
  assert.equal(isTransientModelError(new ModelRequestError('NotFound: gone', 'NotFound', providerError('rate limit'))), false);
  assert.equal(askedDelayMs(providerError('Please wait 78 seconds before trying again')), 78_000);
  assert.equal(askedDelayMs(unknown(providerError('Retry after 2 minutes'))), 120_000);
  assert.equal(askedDelayMs(providerError('busy', { retryAfter: 5 })), 5000);
  assert.equal(retryDelayMs(DEFAULT_RETRY_POLICY, 1, providerError('Please wait 20 seconds')), 20_000);
  assert.equal(retryDelayMs(DEFAULT_RETRY_POLICY, 2, providerError('Please wait 1 second')), 4000);
  assert.equal(retryDelayMs(DEFAULT_RETRY_POLICY, 1, providerError('Please wait 6 minutes')), 60_000);
});
