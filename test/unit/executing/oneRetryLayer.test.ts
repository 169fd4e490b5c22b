import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ModelRequestError, type ChatModel, type ChatRequestOptions, type ChatResponsePart } from '../../../src/core/executing/dispatch/chatModel';
import { Dispatcher } from '../../../src/core/executing/dispatch/dispatcher';
import { DEFAULT_RETRY_POLICY, RetryingChatModel } from '../../../src/core/executing/dispatch/retryingChatModel';
import { systemClock, type Clock } from '../../../src/core/executing/ports';
import { TokenLedger } from '../../../src/core/executing/transcripts/tokenLedger';
import { MemoryTranscriptStore } from '../../../src/core/executing/transcripts/transcriptStore';

// Issue 44, "What to build" 5: a transient model error is asked again a bounded number of times.
// One layer owns that bound, the model's wrapper (RetryingChatModel, as vscodeChatModel gives it
// to every surface): the executing loop's dispatcher asks nothing again on top of it, so one
// failing request is tried retries + 1 times (4), not twice that (8).

/** The wrapper's pauses, at once: the test counts tries, not seconds. */
const instant: Clock = { now: () => new Date(0), setTimeout: (fn: () => void) => setImmediate(fn), clearTimeout: (h: unknown) => clearImmediate(h as NodeJS.Immediate) };

/** What VS Code's LanguageModelError says for a provider's rate limit: `Unknown`, the provider's error as its cause. */
const rateLimited = () => new ModelRequestError('the model request failed: Rate limit exceeded', 'Unknown', Object.assign(new Error('Rate limit exceeded'), { status: 429 }));

/** A provider that fails every request (`fail`), or breaks each reply midway (`break`), counting the requests. */
function provider(how: 'fail' | 'break', thenAnswer = Infinity): ChatModel & { requests: number } {
  const m = {
    id: 'flaky',
    vendor: 'test',
    family: 'flaky',
    maxInputTokens: 100_000,
    requests: 0,
    countTokens: async (text: string) => Math.ceil(text.length / 4),
    async *sendRequest(_messages: unknown, _options: ChatRequestOptions): AsyncIterable<ChatResponsePart> {
      m.requests++;
      if (m.requests > thenAnswer) {
        yield { type: 'text', value: 'DONE' };
        return;
      }
      if (how === 'break') yield { type: 'text', value: 'half a rep' };
      throw how === 'break' ? new Error('socket hang up') : rateLimited();
    },
  };
  return m;
}

function dispatch(model: ChatModel) {
  const transcripts = new MemoryTranscriptStore();
  const dispatcher = new Dispatcher({ stage: 'executing', transcripts, ledger: new TokenLedger(), clock: systemClock, logger: { info() {}, warn() {}, error() {} }, maxToolRounds: 3 });
  const result = dispatcher.dispatch({
    spec: 'specs/x',
    task: 'T1',
    role: 'implementer',
    mode: 'first',
    model,
    history: [],
    prompt: 'do T1',
    timeoutMinutes: 1,
    signal: new AbortController().signal,
  });
  return { result, transcripts };
}

test('one failing request is tried retries + 1 times in all: the dispatcher asks nothing again on top of the wrapper', async () => {
  const inner = provider('fail');
  const { result } = dispatch(new RetryingChatModel(inner, { clock: instant }));
  await assert.rejects(result, (e: unknown) => e instanceof ModelRequestError && e.code === 'Unknown' && /after 4 tries/.test(e.message));
  assert.equal(inner.requests, DEFAULT_RETRY_POLICY.retries + 1);
});

test('a reply that breaks midway is asked again by the wrapper too (the dispatcher takes replies whole), nothing of the broken one kept', async () => {
  const inner = provider('break', 2);
  const { result } = dispatch(new RetryingChatModel(inner, { clock: instant }));
  const r = await result;
  assert.equal(r.text, 'DONE', 'the broken halves are not part of the reply');
  assert.equal(inner.requests, 3);

  const always = provider('break');
  await assert.rejects(dispatch(new RetryingChatModel(always, { clock: instant })).result, /after 4 tries/);
  assert.equal(always.requests, DEFAULT_RETRY_POLICY.retries + 1);
});

test('a model without the wrapper is asked once: a failure is the caller’s to show', async () => {
  const inner = provider('fail');
  await assert.rejects(dispatch(inner).result, ModelRequestError);
  assert.equal(inner.requests, 1);
});
