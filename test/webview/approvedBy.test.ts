import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { dashboardModel } from './support/dashboardModels';
import { WebviewHarness } from './support/harness';

let harness: WebviewHarness;
before(async () => {
  harness = await WebviewHarness.start();
});
after(async () => {
  await harness?.close();
});

const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

// Who approved a stage and through what (the history's approved_by), under the stage in the stepper.
it('the stepper says who approved a stage and through what', async () => {
  const model = dashboardModel();
  const steps = model.steps.map((s) =>
    s.id === 'brainstorming'
      ? { ...s, visits: [{ status: 'passed' as const, approved: true, approvedBy: { by: 'person' as const, through: 'elicitation' } }] }
      : s.id === 'detail-expansion'
        ? { ...s, visits: [{ status: 'passed' as const, approved: true, approvedBy: { by: 'agent' as const, through: 'mcp-agent-word' } }] }
        : s,
  );
  const p = await harness.open('dashboard');
  await p.posted();
  await p.send({ type: 'init', model: { ...model, steps } });
  const page = p.page;
  assert.match(text(await page.locator('.step[data-stage=brainstorming] .visits').textContent()), /approved by the person \(elicitation\)/);
  assert.match(text(await page.locator('.step[data-stage=detail-expansion] .visits').textContent()), /approved on an agent’s word \(mcp-agent-word\)/);
  assert.equal(await page.locator('.step[data-stage=detail-expansion] .approved-by').getAttribute('data-by'), 'agent');
});
