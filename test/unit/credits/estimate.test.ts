import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COPILOT_PRICES, findPrice, readProviderPrice, VSCODE_PRICE_SOURCE, withOverrides } from '../../../src/core/credits/pricing';
import type { ChatModel } from '../../../src/core/executing/dispatch/chatModel';
import { Dispatcher } from '../../../src/core/executing/dispatch/dispatcher';
import { RetryingChatModel } from '../../../src/core/executing/dispatch/retryingChatModel';
import type { StepEstimate } from '../../../src/core/executing/transcripts/tokenLedger';
import { CreditBudgetExceededError, TokenLedger } from '../../../src/core/executing/transcripts/tokenLedger';
import { MemoryTranscriptStore } from '../../../src/core/executing/transcripts/transcriptStore';
import { silentLogger } from '../../../src/core/executing/ports';
import { NearLimitNotice } from '../../../src/host/credits/nearLimitNotice';
import { estimateLine, progressLine } from '../../../src/host/executing/outcomeMessages';

const NOW = '2026-12-07T10:00:00.000Z';
const clock = { now: () => new Date(NOW), setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms), clearTimeout: (h: unknown) => clearTimeout(h as NodeJS.Timeout) };
/** One token per 4 characters; every reply is `done` (1 token). */
const model = (extra: Partial<ChatModel> = {}): ChatModel & { sent: number } => {
  const m = {
    id: 'scripted',
    vendor: 'test',
    family: 'scripted',
    maxInputTokens: 100_000,
    sent: 0,
    countTokens: async (text: string) => Math.ceil(text.length / 4),
    async *sendRequest() {
      m.sent++;
      yield { type: 'text' as const, value: 'done' };
    },
    ...extra,
  };
  return m;
};
/** 1 credit a token, input and output: the arithmetic is the tokens'. */
const PER_TOKEN = withOverrides(COPILOT_PRICES, { scripted: { input: 1e6, output: 1e6 } });
const PROMPT = 'x'.repeat(40); // 10 tokens

function dispatcher(ledger: TokenLedger, creditBudget: number | undefined, seen: { estimates: StepEstimate[]; nearLimit: number[] }) {
  return new Dispatcher({
    stage: 'executing',
    transcripts: new MemoryTranscriptStore(),
    ledger,
    creditBudget,
    clock,
    logger: silentLogger,
    maxToolRounds: 5,
    onEstimate: (_task, _role, e) => seen.estimates.push(e),
    onNearLimit: (used) => seen.nearLimit.push(used),
  });
}
const send = (d: Dispatcher, m: ChatModel) =>
  d.dispatch({ spec: 'specs/x', task: 'T1', role: 'implementer', mode: 'first', model: m, history: [], prompt: PROMPT, timeoutMinutes: 1, signal: new AbortController().signal });

/** A ledger whose spec already made two implementer requests answered with 12 output tokens in all: 6 is typical. */
const ledgerWithHistory = () => {
  const ledger = new TokenLedger({ requests: { implementer: { count: 2, output: 12 } } });
  ledger.usePrices(PER_TOKEN);
  return ledger;
};

test('the estimate before a step: its prompt’s tokens and the typical output of its kind on this spec, at the model’s price', async () => {
  const seen = { estimates: [] as StepEstimate[], nearLimit: [] as number[] };
  await send(dispatcher(ledgerWithHistory(), undefined, seen), model());
  assert.deepEqual(seen.estimates, [{ input: 10, output: 6, credits: 16, model: 'scripted' }]);
  // The request is recorded: the typical output now counts it (12 + 1 over 3 requests).
  const ledger = ledgerWithHistory();
  ledger.add({ stage: 'executing', role: 'implementer', input: 10, output: 1, model: { id: 'scripted' } });
  assert.equal(ledger.typicalOutput('implementer'), 4);
  assert.equal(ledger.typicalOutput('reviewer'), 0, 'no request of the kind yet: the prompt alone');
  assert.deepEqual(new TokenLedger(JSON.parse(JSON.stringify(ledger.toJSON(NOW)))).toJSON(NOW).requests, { implementer: { count: 3, output: 13 } }, 'kept across a reload');
});

test('the credits budget stops before a step whose estimate (prompt and typical output) would pass it: exactly at it is sent, just over is not', async () => {
  const at = model();
  await send(dispatcher(ledgerWithHistory(), 16, { estimates: [], nearLimit: [] }), at);
  assert.equal(at.sent, 1, 'estimated at exactly the budget: sent');

  const over = model();
  await assert.rejects(send(dispatcher(ledgerWithHistory(), 15.99, { estimates: [], nearLimit: [] }), over), (e: Error) => {
    assert.ok(e instanceof CreditBudgetExceededError);
    assert.match(e.message, /0\.00 of 15\.99 credits used, and the next request is estimated at 16\.00 credits/);
    return true;
  });
  assert.equal(over.sent, 0, 'the prompt alone (10) fits, its typical answer (6) does not: nothing is sent');
});

test('VS Code’s pricing fields are read defensively and preferred over the table, and the price’s source is kept', async () => {
  assert.deepEqual(readProviderPrice({ inputCost: 30, outputCost: 150, cacheCost: 3 }), { input: 30, output: 150, cachedInput: 3 });
  assert.deepEqual(readProviderPrice({ inputCost: 30, outputCost: 150 }), { input: 30, output: 150, cachedInput: 30 });
  for (const none of [undefined, null, 'x', {}, { inputCost: '30', outputCost: 1 }, { inputCost: -1, outputCost: 1 }, { inputCost: Number.NaN, outputCost: 1 }, { inputCost: 1 }])
    assert.equal(readProviderPrice(none), undefined, JSON.stringify(none));
  const throwing = Object.defineProperty({}, 'inputCost', {
    get() {
      throw new Error('proposal changed');
    },
  });
  assert.equal(readProviderPrice(throwing), undefined, 'a getter that throws is no price, not a broken request');

  // GPT-5 mini is in the table at 25 / 200; VS Code says otherwise: VS Code's price counts.
  const vscodePrice = { input: 1e6, output: 1e6, cachedInput: 0 };
  assert.deepEqual(findPrice(COPILOT_PRICES, { id: 'gpt-5-mini', price: vscodePrice }), { name: 'gpt-5-mini', price: vscodePrice, source: VSCODE_PRICE_SOURCE });
  assert.match(findPrice(COPILOT_PRICES, { id: 'gpt-5-mini' })!.source, /models-and-pricing.*2026/);
  assert.equal(findPrice(PER_TOKEN, { id: 'scripted' })!.source, 'loom.credits.prices');

  // Through the model port (and the retrying wrapper every surface uses), into the ledger with its source.
  const ledger = new TokenLedger();
  const priced = new RetryingChatModel(model({ id: 'gpt-5-mini', family: 'gpt-5-mini', price: vscodePrice }));
  await send(dispatcher(ledger, undefined, { estimates: [], nearLimit: [] }), priced);
  const usage = ledger.toJSON(NOW);
  assert.equal(usage.credits?.total, 11, '10 tokens in, 1 out, at VS Code’s 1 credit a token (the table would say 0.00045)');
  assert.deepEqual(usage.credits?.prices, { 'gpt-5-mini': VSCODE_PRICE_SOURCE });
});

test('a model without a price: the estimate is in tokens and says so', async () => {
  const seen = { estimates: [] as StepEstimate[], nearLimit: [] as number[] };
  const ledger = new TokenLedger({ requests: { implementer: { count: 1, output: 6 } } });
  await send(dispatcher(ledger, 5, seen), model({ id: 'o9', family: 'o9' }));
  assert.deepEqual(seen.estimates, [{ input: 10, output: 6, model: 'o9' }]);
  assert.equal(estimateLine('T1', 'implementer', seen.estimates[0]), 'T1 implementer: estimated 10 tokens in, about 6 out (o9: no price known, shown in tokens)');
  assert.equal(
    progressLine({ type: 'estimate', task: 'T1', role: 'implementer', estimate: { input: 10, output: 6, credits: 16, model: 'scripted' } }),
    'T1 implementer: estimated 16.00 AI credits (10 tokens in, about 6 out)',
  );
});

test('80 % of the budget: the run says it once, as a warning with Open Dashboard and Open Settings', async () => {
  const seen = { estimates: [] as StepEstimate[], nearLimit: [] as number[] };
  const ledger = new TokenLedger({ credits: { total: 88 } });
  ledger.usePrices(PER_TOKEN);
  const d = dispatcher(ledger, 110, seen);
  await send(d, model()); // 88 + 11
  await send(d, model()); // 99 + 11: exactly the budget
  assert.deepEqual(seen.nearLimit, [88], 'once per run, at the first request at or past 80 %');

  const shown: { text: string; items: string[] }[] = [];
  const ran: unknown[][] = [];
  const record = async (...args: unknown[]) => void ran.push(args);
  let answer: string | undefined = 'Open Dashboard';
  const window = { showWarningMessage: async (text: string, ...items: string[]) => (shown.push({ text, items }), answer) };
  const notice = new NearLimitNotice(window, record, 'specs/2026-11-25+due-dates', 'due-dates');
  await notice.show(80, 100);
  await notice.show(90, 100);
  assert.deepEqual(shown, [{ text: 'due-dates: 80.00 of the 100.00 AI credits budget used (80 %). The run stops before a step that would pass it.', items: ['Open Dashboard', 'Open Settings'] }]);
  assert.deepEqual(ran, [['loom.openDashboard', { specDir: 'specs/2026-11-25+due-dates' }]]);
  answer = 'Open Settings';
  await new NearLimitNotice(window, record, 'specs/x', 'x').show(85, 100);
  assert.deepEqual(ran[1], ['workbench.action.openSettings', 'loom.budget.credits']);
});
