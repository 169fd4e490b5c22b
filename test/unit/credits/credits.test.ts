import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { COPILOT_PRICES, creditsOf, findPrice, withOverrides } from '../../../src/core/credits/pricing';
import { runFailureStop } from '../../../src/core/executing/machine/runFailures';
import { CreditBudgetExceededError, TokenLedger } from '../../../src/core/executing/transcripts/tokenLedger';
import { harness, implementerDone, PASS, REPORT_PASS, SPEC, type Harness } from '../executing/helpers/executingFixture';
import { main } from '../../../src/cli/main';
import { describeOutcome } from '../../../src/host/executing/outcomeMessages';
import { buildDashboardModel } from '../../../src/core/views/dashboardModel';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SPEC as LOGIN, state, TempRepo } from '../../helpers/tempRepo';

const NOW = '2026-12-07T10:00:00.000Z';
const made: Harness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));

test('a request priced as Copilot bills it: input, cached input and output tokens, each at the model’s price per million', () => {
  // GPT-5 mini, GitHub's table: $0.25 input, $0.025 cached input, $2.00 output per million = 25, 2.5 and 200 credits.
  const found = findPrice(COPILOT_PRICES, { id: 'gpt-5-mini', family: 'gpt-5-mini', vendor: 'copilot' });
  assert.equal(found?.name, 'GPT-5 mini');
  assert.deepEqual(found?.price, { input: 25, cachedInput: 2.5, output: 200 });
  // 1,000,000 input of which 200,000 cached, 100,000 output: 800k × 25 + 200k × 2.5 + 100k × 200, per million.
  assert.equal(creditsOf({ input: 1_000_000, cached: 200_000, output: 100_000 }, found!.price), 40.5);
  assert.equal(creditsOf({ input: 1_000_000, output: 100_000 }, found!.price), 45, 'without cached tokens every input token is at the input price');
  // The name as vscode.lm gives it, any case or punctuation.
  assert.equal(findPrice(COPILOT_PRICES, { id: 'x', name: 'claude sonnet 4.5' })?.name, 'Claude Sonnet 4.5');
  assert.match(COPILOT_PRICES.source, /models-and-pricing/);
  assert.match(COPILOT_PRICES.date, /^\d{4}-\d{2}-\d{2}$/);
});

test('loom.credits.prices adds and overrides models; a price without input and output is ignored', () => {
  const table = withOverrides(COPILOT_PRICES, { 'my-model': { input: 10, output: 40 }, 'GPT-5 mini': { input: 1, cachedInput: 0.5, output: 2 }, broken: { input: 3 } });
  assert.deepEqual(findPrice(table, { id: 'my-model' })?.price, { input: 10, cachedInput: 10, output: 40 });
  assert.deepEqual(findPrice(table, { id: 'gpt-5-mini' })?.price, { input: 1, cachedInput: 0.5, output: 2 });
  assert.equal(findPrice(table, { id: 'broken' }), undefined);
  assert.equal(findPrice(COPILOT_PRICES, { id: 'my-model' }), undefined, 'the table itself is left as it is');
});

test('credits per stage, role and task; a model without a price is kept in tokens and named, never counted as 0 credits', () => {
  const ledger = new TokenLedger();
  ledger.add({ stage: 'executing', role: 'implementer', task: 'T1', input: 1_000_000, output: 100_000, model: { id: 'gpt-5-mini' } });
  ledger.add({ stage: 'executing', role: 'reviewer', task: 'T1', input: 100_000, output: 10_000, model: { id: 'o9-preview', name: 'O9 Preview' } });
  const usage = ledger.toJSON(NOW);
  assert.equal(usage.credits?.total, 45);
  assert.deepEqual(usage.credits?.tasks, { T1: 45 });
  assert.deepEqual(usage.credits?.roles, { implementer: 45 });
  assert.deepEqual(usage.credits?.unpriced, { models: ['O9 Preview'], input: 100_000, output: 10_000 });
  assert.equal(usage.total.input, 1_100_000, 'the tokens of every model are counted as before');
});

test('credits survive a reload: the ledger read back from pipeline.state.json goes on from them', () => {
  const first = new TokenLedger();
  first.add({ stage: 'executing', role: 'implementer', task: 'T1', input: 1_000_000, output: 0, model: { id: 'gpt-5-mini' } });
  first.add({ stage: 'executing', role: 'implementer', task: 'T1', input: 10, output: 10, model: { id: 'unknown-model' } });
  const saved = JSON.parse(JSON.stringify(first.toJSON(NOW)));
  const again = new TokenLedger(saved);
  assert.equal(again.creditsUsed(), 25);
  again.add({ stage: 'executing', role: 'reviewer', task: 'T2', input: 1_000_000, output: 0, model: { id: 'gpt-5-mini' } });
  const usage = again.toJSON(NOW);
  assert.equal(usage.credits?.total, 50);
  assert.deepEqual(usage.credits?.tasks, { T1: 25, T2: 25 });
  assert.deepEqual(usage.credits?.unpriced.models, ['unknown-model']);
});

test('the credits budget at its boundary: a request that reaches it exactly is made, one that would pass it is not', () => {
  const ledger = new TokenLedger();
  ledger.add({ stage: 'executing', role: 'implementer', input: 380_000, output: 0, model: { id: 'gpt-5-mini' } }); // 9.5 credits
  assert.equal(ledger.creditsUsed(), 9.5);
  assert.doesNotThrow(() => ledger.checkCredits(10, ledger.estimateCredits({ id: 'gpt-5-mini' }, 20_000))); // 0.5: exactly 10
  assert.throws(
    () => ledger.checkCredits(10, ledger.estimateCredits({ id: 'gpt-5-mini' }, 20_001)),
    (e: CreditBudgetExceededError) =>
      e instanceof CreditBudgetExceededError && /^the credits budget would be passed: 9\.50 of 10\.00 credits used, and the next request is estimated at 0\.5000 credits/.test(e.message),
  );
  assert.doesNotThrow(() => ledger.checkCredits(undefined, 1e9), 'no budget, no stop');
  const stop = runFailureStop(new CreditBudgetExceededError(9.5, 10, 1));
  assert.equal(stop?.outcome, 'budget-exceeded', 'the run stops as at the token budget: resumable, finished work kept');
});

// Each scripted tier priced at 1 credit a token: the arithmetic of the run is easy to follow.
const PER_TOKEN = { fast: { input: 1e6, output: 1e6 }, standard: { input: 1e6, output: 1e6 }, strongest: { input: 1e6, output: 1e6 } };

test('Run Tasks stops before the request that would pass loom.budget.credits: nothing is sent, the message says how far it got', async () => {
  const h = harness({}, { creditBudget: 10, creditPrices: PER_TOKEN });
  made.push(h);
  h.models.script('implementer', ...implementerDone('T1'));
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'budget-exceeded', result.message);
  assert.equal(h.models.requests.length, 0, 'the prompt alone would pass the budget: it is not sent');
  assert.match(result.message, /credits budget would be passed: 0\.00 of 10\.00 credits used, and the next request is estimated at \d+\.\d\d credits; raise loom\.budget\.credits/);
});

test('a run’s credits are kept in pipeline.state.json with its tokens, per task, and read again by the next run', async () => {
  const h = harness({}, { creditPrices: PER_TOKEN });
  made.push(h);
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  const usage = h.repo.json(`${SPEC}/pipeline.state.json`).metadata.token_usage;
  const tokens = usage.total.input + usage.total.output;
  assert.equal(usage.credits.total, tokens, 'at 1 credit a token, the credits are the tokens');
  assert.ok(usage.credits.tasks.T1 > 0 && usage.credits.tasks.T2 > 0, JSON.stringify(usage.credits.tasks));
  assert.deepEqual(usage.credits.unpriced.models, []);
  assert.equal(new TokenLedger(usage).creditsUsed(), tokens);
});

test('status --json and the dashboard report the credits the state records, naming a model without a price', async () => {
  const r = new TempRepo();
  const out: string[] = [];
  try {
    const ledger = new TokenLedger();
    ledger.add({ stage: 'executing', role: 'implementer', task: 'T1', input: 1_000_000, output: 100_000, model: { id: 'gpt-5-mini' } });
    ledger.add({ stage: 'executing', role: 'reviewer', task: 'T1', input: 5, output: 5, model: { id: 'o9' } });
    r.write(`${LOGIN}/pipeline.state.json`, state('executing', { metadata: { token_usage: ledger.toJSON(NOW) } }));
    assert.equal(await main(['status', '--cwd', r.root, '--spec-dir', LOGIN, '--json'], { out: (s) => out.push(s), err: () => undefined }), 0);
    const status = JSON.parse(out.join('\n'));
    assert.deepEqual(
      { ...status.credits, source: undefined, prices: undefined },
      { total: 45, stages: { executing: 45 }, unpriced_models: ['o9'], unpriced_tokens: { input: 5, output: 5 }, source: undefined, prices: undefined },
      'a model without a price is named and its own tokens said, outside the total',
    );
    assert.match(status.credits.source, /models-and-pricing/);
    assert.match(status.credits.prices['GPT-5 mini'], /models-and-pricing.*, \d{4}-\d\d-\d\d$/, 'each priced model says where its price came from');
    const model = buildDashboardModel(new LoomRepository(r.root).load().get(LOGIN)!);
    assert.equal(model.tokenUsage?.credits?.total, 45);
    assert.deepEqual(model.tokenUsage?.credits?.tasks, [{ id: 'T1', credits: 45 }]);
    assert.deepEqual(model.tokenUsage?.credits?.unpricedModels, ['o9']);
    assert.equal(model.tokenUsage?.credits?.unpricedTokens, 10);
    assert.deepEqual(model.tokenUsage?.credits?.stages, [{ id: 'executing', credits: 45 }]);
    assert.deepEqual(
      model.tokenUsage?.credits?.prices?.map((p) => p.model),
      ['GPT-5 mini'],
    );

    // A ledger from before credits: nothing is said about credits.
    r.write(`${LOGIN}/pipeline.state.json`, state('executing', { metadata: { token_usage: { total: { input: 1, output: 1 } } } }));
    out.length = 0;
    await main(['status', '--cwd', r.root, '--spec-dir', LOGIN, '--json'], { out: (s) => out.push(s), err: () => undefined });
    assert.equal(JSON.parse(out.join('\n')).credits, undefined);
    assert.equal(buildDashboardModel(new LoomRepository(r.root).load().get(LOGIN)!).tokenUsage?.credits, undefined);
  } finally {
    r.dispose();
  }
});

test('the run’s notice says what it cost so far, names a model without a price, and a credits stop in its own words', () => {
  const base = { mode: 'direct' as const, triggers: [], finished: ['T1'], skipped: [], tokens: { used: 1200 } };
  const done = describeOutcome('due-dates', { ...base, outcome: 'completed', message: 'all done', credits: { used: 12.345, unpriced: [] } });
  assert.match(done.text, / 12\.35 AI credits so far\.$/);
  const unpriced = describeOutcome('due-dates', { ...base, outcome: 'completed', message: 'all done', credits: { used: 0, unpriced: ['O9 Preview'] } });
  assert.match(unpriced.text, /0\.00 AI credits so far\. O9 Preview: no price known, shown in tokens \(1200\)\.$/);
  // The unpriced model's own tokens, where the run says them; not the run's tokens of priced models too.
  const own = describeOutcome('due-dates', { ...base, outcome: 'completed', message: 'all done', credits: { used: 3, unpriced: ['O9 Preview'], unpricedTokens: 300 } });
  assert.match(own.text, /3\.00 AI credits so far\. O9 Preview: no price known, shown in tokens \(300\)\.$/);
  const stop = new CreditBudgetExceededError(9.5, 10, 0.75);
  const stopped = describeOutcome('due-dates', { ...base, outcome: 'budget-exceeded', message: stop.message, credits: { used: 9.5, unpriced: [] } });
  assert.equal(stopped.kind, 'warning');
  assert.match(stopped.text, /^due-dates: the credits budget would be passed: 9\.50 of 10\.00 credits used, and the next request is estimated at 0\.7500 credits/);
  assert.doesNotMatch(stopped.text, /token budget/);
});
