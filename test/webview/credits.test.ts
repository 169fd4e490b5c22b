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
