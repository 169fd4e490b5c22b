import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { dashboardModel } from './support/dashboardModels';
import { WebviewHarness } from './support/harness';

// Credits in the dashboard (issue 49): the run's cost as Copilot bills it, per task, where the
// prices come from, and a model without a price named in tokens.
let harness: WebviewHarness;
before(async () => {
  harness = await WebviewHarness.start();
});
after(async () => {
  await harness?.close();
});

const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

it('the dashboard says what the run cost in AI credits, per task, and which model has no price', async () => {
  const p = await harness.open('dashboard');
  const m = dashboardModel({ tokens: true });
  assert.ok(m.tokenUsage, 'the model has token usage');
  m.tokenUsage.credits = {
    total: 45.5,
    tasks: [
      { id: 'T1', credits: 40.5 },
      { id: 'T2', credits: 5 },
    ],
    unpricedModels: ['O9 Preview'],
    unpricedTokens: 110_000,
    source: 'https://docs.github.com/en/copilot/reference/copilot-billing/models-and-pricing, 2026-12-07',
  };
  await p.send({ type: 'init', model: m });
  assert.equal(text(await p.page.locator('#credits').textContent()), '45.50 AI credits in all · T1 40.50 · T2 5.00');
  assert.equal(text(await p.page.locator('#credits-unpriced').textContent()), 'O9 Preview: no price known, counted in tokens only (110,000 tokens).');
  assert.match(text(await p.page.locator('#tokens').textContent()), /Priced from https:\/\/docs\.github\.com\/\S+ 2026-12-07; 1 credit = US\$0\.01\./);
});

it('the dashboard says the credits per stage (drafting included) and where each model’s price came from', async () => {
  const p = await harness.open('dashboard');
  const m = dashboardModel({ tokens: true });
  assert.ok(m.tokenUsage, 'the model has token usage');
  m.tokenUsage.credits = {
    total: 12.5,
    tasks: [{ id: 'T1', credits: 12 }],
    stages: [
      { id: 'executing', credits: 12 },
      { id: 'code-review-request', credits: 0.5 },
    ],
    unpricedModels: [],
    unpricedTokens: 0,
    source: 'https://docs.github.com/en/copilot/reference/copilot-billing/models-and-pricing, 2026-12-07',
    prices: [
      { model: 'gpt-5-mini', source: 'VS Code (languageModelPricing)' },
      { model: 'Claude Sonnet 4.5', source: 'loom.credits.prices' },
    ],
  };
  await p.send({ type: 'init', model: m });
  assert.equal(text(await p.page.locator('#credits-stages').textContent()), 'Per stage: executing 12.00 · code-review-request 0.5000');
  assert.equal(text(await p.page.locator('#credits-source').textContent()), 'gpt-5-mini priced by VS Code (languageModelPricing); Claude Sonnet 4.5 priced by loom.credits.prices');
});
