import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardModel } from './support/dashboardModels';
import { WebviewHarness } from './support/harness';

// What a new user met (issue 49): the dashboard drew Advance and Verify both as primary buttons,
// and a batch of one task read "parallel".
let harness: WebviewHarness;
before(async () => {
  harness = await WebviewHarness.start();
});
after(async () => {
  await harness?.close();
});

const primaries = (p: Awaited<ReturnType<WebviewHarness['open']>>) =>
  p.page.locator('vscode-button:not([secondary])').evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { key: string } }).dataset.key));

describe('the dashboard’s one primary button', () => {
  it('at verification with Advance there too: Verify is the one primary button', async () => {
    const p = await harness.open('dashboard');
    const m = dashboardModel({ tripped: false, stage: 'verification' });
    m.actions = { ...m.actions, advance: true, verify: true };
    await p.send({ type: 'init', model: m });
    assert.deepEqual(await primaries(p), ['verify']);
    assert.ok((await p.page.locator('vscode-button[data-key=advance]').count()) === 1, 'Advance is still there, as a secondary button');
  });

  it('with a breaker waiting and Advance offered: the breaker’s first choice alone is primary', async () => {
    const p = await harness.open('dashboard');
    await p.send({ type: 'init', model: dashboardModel() });
    const keys = await primaries(p);
    assert.equal(keys.length, 1, keys.join(', '));
    assert.match(keys[0], /^breaker-T3-A$/);
  });

  it('a batch of one task is just its number; a batch of two says how they run', async () => {
    const p = await harness.open('dashboard');
    await p.send({ type: 'init', model: dashboardModel({ tripped: false }) });
    const batchOf = async (row: number) => ((await p.page.locator('#tasks tbody tr').nth(row).locator('td').nth(8).textContent()) ?? '').trim();
    assert.equal(await batchOf(0), '#1', 'T1 runs alone: neither serial nor parallel');
    assert.equal(await batchOf(1), '#2 parallel');
    assert.equal(await batchOf(3), '#3');
  });
});
