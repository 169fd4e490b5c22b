import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { dashboardDrift } from '../../src/core/drift/driftView';
import type { SpecDrift } from '../../src/core/drift/driftScan';
import { dashboardModel } from './support/dashboardModels';
import { WebviewHarness } from './support/harness';

// The dashboard's drift section (issue 47): a drifted spec's baseline, the files and commits since,
// each file's diff from the baseline one click away, and Accept as Accurate.
let harness: WebviewHarness;
before(async () => {
  harness = await WebviewHarness.start();
});
after(async () => {
  await harness?.close();
});

const SPEC = 'specs/2026-11-29+login';
const BASE = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const C1 = 'c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1';
const C2 = 'c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2';
const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

const drifted: SpecDrift = {
  specDir: SPEC,
  status: 'drifted',
  baseline: { commit: BASE, source: 'accepted', recorded_at: '2026-12-01T10:00:00.000Z', by: 'Ada <ada@example.com> (Loom: Accept Spec as Accurate)', reason: 'the lockout is per account' },
  files: [
    { path: 'src/login.ts', change: 'modified', commits: [C1], tasks: ['T1'], behaviors: [] },
    { path: 'src/session.ts', change: 'renamed', renamedTo: 'src/sessions.ts', commits: [C2], tasks: ['T2'], behaviors: [] },
    { path: 'test/login.test.ts', change: 'deleted', commits: [C2], tasks: [], behaviors: ['REQ-001-B01'] },
  ],
  commits: [
    { commit: C2, subject: 'split sessions', author: 'Bo', date: '2026-12-03T09:00:00Z', files: ['src/session.ts', 'test/login.test.ts'] },
    { commit: C1, subject: 'tweak login', author: 'Mei', date: '2026-12-02T09:00:00Z', files: ['src/login.ts'] },
  ],
  goneTests: [{ file: 'test/login.test.ts', behaviors: ['REQ-001-B01'], commit: C2 }],
};

it('a drifted spec lists its files since the baseline, each with Show diff, its commits, Reconcile and Accept as Accurate', async () => {
  const p = await harness.open('dashboard', { reply: { type: 'init', model: { ...dashboardModel({ stage: 'synced' }), drift: dashboardDrift(drifted) } } });
  const section = p.page.locator('#drift');
  assert.equal(await section.getAttribute('data-status'), 'drifted');
  assert.match(text(await section.locator('h2').textContent()), /^Drift from the code3 files changed since a1b2c3d$/);
  assert.match(
    text(await section.locator('.baseline').textContent()),
    /^Baseline a1b2c3d — accepted as accurate by Ada <ada@example\.com> \(Loom: Accept Spec as Accurate\), .*: the lockout is per account$/,
  );
  const rows = section.locator('tbody tr');
  assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { file: string; change: string } }).dataset.file)), [
    'src/login.ts',
    'src/session.ts',
    'test/login.test.ts',
  ]);
  assert.deepEqual((await rows.nth(1).locator('td').allTextContents()).map(text), ['src/session.ts', 'renamed to src/sessions.ts', 'c2c2c2c', 'T2', 'Show diff']);
  assert.match(text(await section.locator('.gone-tests').textContent()), /test\/login\.test\.ts is gone: REQ-001-B01 no longer have their test/);
  assert.deepEqual(await section.locator('.drift-commits li').evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { commit: string } }).dataset.commit)), [C2, C1]);
  await rows.nth(1).locator('vscode-button[data-command=showDriftDiff]').click();
  await section.locator('vscode-button[data-command=reconcileSpec]').click();
  await section.locator('vscode-button[data-command=acceptAsAccurate]').click();
  // A renamed file opens under its new name; the diff names the file as the spec does.
  await rows.nth(0).locator('a.file-link').click();
  assert.deepEqual(await p.postedOf('runCommand'), [
    { type: 'runCommand', specDir: SPEC, command: 'showDriftDiff', args: { file: 'src/session.ts' } },
    { type: 'runCommand', specDir: SPEC, command: 'reconcileSpec' },
    { type: 'runCommand', specDir: SPEC, command: 'acceptAsAccurate' },
  ]);
  assert.deepEqual(await p.postedOf('openFile'), [{ type: 'openFile', path: 'src/login.ts' }]);
  await p.finish();
});

it('a spec true to its code says so with its baseline and offers nothing to accept; a spec not synced has no drift section', async () => {
  const clean: SpecDrift = { specDir: SPEC, status: 'clean', baseline: { commit: BASE, source: 'inferred' }, files: [], commits: [], goneTests: [] };
  let p = await harness.open('dashboard', { reply: { type: 'init', model: { ...dashboardModel({ stage: 'synced' }), drift: dashboardDrift(clean) } } });
  assert.match(text(await p.page.locator('#drift h2').textContent()), /true to the code since a1b2c3d \(inferred from git history\)/);
  assert.match(text(await p.page.locator('#drift .baseline').textContent()), /^Baseline a1b2c3d — inferred from git history$/);
  assert.equal(await p.page.locator('#drift vscode-button').count(), 0);
  await p.finish();
  p = await harness.open('dashboard', { reply: { type: 'init', model: dashboardModel() } });
  assert.equal(await p.page.locator('#drift').count(), 0);
  await p.finish();
});
