import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardModel } from './support/dashboardModels';
import { WebviewHarness } from './support/harness';

const SPEC = 'specs/2026-11-29+login';
let harness: WebviewHarness;
before(async () => {
  harness = await WebviewHarness.start();
});
after(async () => {
  await harness?.close();
});

const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

describe('dashboard webview', () => {
  it('says ready, then renders the stepper, the next step, tasks, handoffs, findings and tokens', async () => {
    const p = await harness.open('dashboard');
    assert.deepEqual(await p.posted(), [{ type: 'ready', view: 'dashboard', protocol: 2 }]);
    await p.send({ type: 'init', model: dashboardModel() });
    const page = p.page;

    const steps = page.locator('.stepper > .step');
    assert.equal(await steps.count(), 13);
    assert.equal(await page.locator('.step.done').count(), 6);
    assert.equal(await page.locator('.step.current').getAttribute('data-stage'), 'executing');
    assert.equal(await page.locator('.step[aria-current=step]').count(), 1);
    assert.match(text(await page.locator('.step[data-stage=planning] .visits').textContent()), /sent back .* plan\.md missed the rate-limit requirement/);
    assert.match(text(await page.locator('.step[data-stage=converge]').textContent()), /round 1 of 3/);
    assert.match(text(await page.locator('.step[data-stage=brainstorming] .step-times').textContent()), /entered .* exited .* 1 h 0 min/);

    const pre = page.locator('#next .preconditions > li');
    assert.deepEqual(await pre.evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { holds: string } }).dataset.holds)), ['true', 'false', 'false']);
    assert.match(text(await pre.nth(1).textContent()), /✗ every task passed review\s*T3 has not passed review/);
    assert.equal(await page.locator('#next vscode-button[data-command=advance]').getAttribute('disabled'), '', 'Advance waits for the preconditions');

    const rows = page.locator('#tasks tbody tr');
    assert.equal(await rows.count(), 4);
    assert.deepEqual((await rows.nth(2).locator('td').allTextContents()).map(text), [
      'T3',
      'Lock the account after failed attempts',
      '✗ failed',
      '4/3',
      'FAIL: the failure counter is not persisted',
      'circuit breaker: review failed 4 times (max_retries 3)',
      'src/auth/t3.ts',
      'T1',
      '#2 parallel',
      '—',
    ]);

    assert.match(text(await page.locator('#handoffs tr[data-handoff=T1]').textContent()), /⚠ stale: src\/auth\/login\.ts/);
    assert.match(text(await page.locator('#handoffs tr[data-handoff=planning]').textContent()), /✓ fresh/);
    assert.deepEqual(await page.locator('#findings .finding').evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { severity: string; source: string } }).dataset.source)), [
      'convergence',
      'artifact-analysis',
      'omission-hunter',
    ]);
    assert.deepEqual(await page.locator('#tokens table').first().locator('tr', { hasText: 'T3' }).locator('td').allTextContents(), ['T3', '391,700', '48,900', '440,600']);
    await p.finish();
  });

  it('lists the open review threads with links to their lines, and Refine with the model runs refineSpec', async () => {
    const p = await harness.open('dashboard', { reply: { type: 'init', model: dashboardModel() } });
    const section = p.page.locator('#review-threads');
    assert.match(text(await section.locator('h2').textContent()), /^Review threads \(1 open\)$/);
    assert.match(text(await section.locator('li[data-thread=t1a2b3c]').textContent()), /^spec\.md:4-5 Mei, .*Say which password rules apply\. \(\+1 reply\)$/);
    await section.locator('a.file-link').click();
    await section.locator('vscode-button[data-command=refineSpec]').click();
    assert.deepEqual(await p.postedOf('openFile'), [{ type: 'openFile', path: `${SPEC}/spec.md`, line: 4 }]);
    assert.deepEqual(await p.postedOf('runCommand'), [{ type: 'runCommand', specDir: SPEC, command: 'refineSpec' }]);
    await p.finish();
  });

  it('hides the token section without token data', async () => {
    const p = await harness.open('dashboard', { reply: { type: 'init', model: dashboardModel({ tokens: false }) } });
    assert.equal(await p.page.locator('#tokens').count(), 0);
    await p.finish();
  });

  it("offers Review Changes, Reject a File and Rewind for a task with a checkpoint, each sent as the palette's command", async () => {
    const p = await harness.open('dashboard', { reply: { type: 'init', model: dashboardModel() } });
    const t1 = p.page.locator('#tasks tr[data-task=T1]');
    assert.match((await t1.locator('.actions').getAttribute('title')) ?? '', /^checkpoint 4f2a9c1e: src\/auth\/login\.ts, test\/auth\/login\.test\.ts$/);
    for (const command of ['reviewChanges', 'rejectFile', 'rewindTask']) await t1.locator(`vscode-button[data-command=${command}]`).click();
    assert.deepEqual(
      await p.postedOf('runCommand'),
      ['reviewChanges', 'rejectFile', 'rewindTask'].map((command) => ({ type: 'runCommand', specDir: SPEC, command, args: { taskId: 'T1' } })),
    );
    assert.equal(await p.page.locator('#tasks tr[data-task=T2] vscode-button[data-command=reviewChanges]').count(), 0, 'no checkpoint, no buttons');
    await p.finish();
  });

  it("says beside Review Changes what of a task's change was reviewed, what changed since, and its open comments", async () => {
    const model = dashboardModel();
    model.tasks[0].review = { files: 2, reviewed: 1, changed: ['test/auth/login.test.ts'], openThreads: 1 };
    const p = await harness.open('dashboard', { reply: { type: 'init', model } });
    assert.equal(text(await p.page.locator('#tasks tr[data-task=T1] .task-review').textContent()), '1/2 reviewed · changed since reviewed: test/auth/login.test.ts · 1 open comment');
    assert.equal(await p.page.locator('#tasks tr[data-task=T2] .task-review').count(), 0);
    await p.finish();
  });

  it('shows the circuit breaker and its A/B/C actions only for a tripped task', async () => {
    const p = await harness.open('dashboard', { reply: { type: 'init', model: dashboardModel({ tripped: true }) } });
    const breaker = p.page.locator('.breaker');
    assert.equal(await breaker.count(), 1);
    assert.equal(await breaker.getAttribute('data-task'), 'T3');
    assert.match(
      text(await breaker.textContent()),
      /Stopped: review failed 4 times \(max_retries 3\)\. .*The failure counter is kept in memory and lost on restart.*Finished tasks: T1, T2\s*Depending on it: T4/,
    );
    for (const choice of ['A', 'B', 'C']) await breaker.locator('vscode-button', { hasText: `[${choice}]` }).click();
    assert.deepEqual(
      await p.postedOf('runCommand'),
      ['A', 'B', 'C'].map((choice) => ({ type: 'runCommand', specDir: SPEC, command: 'breakerChoice', args: { taskId: 'T3', choice } })),
    );

    // Once the choice is recorded, the report stays but the choice is not offered again.
    const chosen = dashboardModel({ tripped: true });
    chosen.tasks[2].breaker!.chosen = { choice: 'B', at: '2026-11-29T18:00:00.000Z' };
    await p.send({ type: 'update', model: chosen });
    assert.equal(await p.page.locator('.breaker').count(), 1);
    assert.match(text(await p.page.locator('.breaker .chosen').textContent()), /You chose \[B\] I'll fix it by hand/);
    assert.equal(await p.page.locator('vscode-button[data-command=breakerChoice]').count(), 0);

    await p.send({ type: 'update', model: dashboardModel({ tripped: false }) });
    assert.equal(await p.page.locator('.breaker').count(), 0);
    assert.equal(await p.page.locator('vscode-button[data-command=breakerChoice]').count(), 0);
    await p.finish();
  });

  it('runs Advance, Mark Failed and a retry through runCommand', async () => {
    const model = dashboardModel({ tripped: false });
    model.next[0].ready = true;
    model.next.push({ to: 'executing', kind: 'retry', ready: true, interactive: true, preconditions: [], confirmations: ['converge is left only once you confirm it is done'] });
    model.actions.approve = true;
    const p = await harness.open('dashboard', { reply: { type: 'init', model } });
    await p.page.locator('vscode-button[data-command=advance][data-key=advance]').click();
    await p.page.locator('vscode-button[data-command=approve]').click();
    await p.page.locator('vscode-button[data-command=markFailed]').click();
    await p.page.locator('vscode-button[data-key=retry-executing]').click();
    await p.page.locator('vscode-button[data-key=open-matrix]').click();
    await p.page.locator('#tasks tbody tr[data-task=T1] a.file-link').click();
    assert.deepEqual(await p.posted(), [
      { type: 'ready', view: 'dashboard', protocol: 2 },
      { type: 'runCommand', specDir: SPEC, command: 'advance' },
      { type: 'runCommand', specDir: SPEC, command: 'approve' },
      { type: 'runCommand', specDir: SPEC, command: 'markFailed' },
      { type: 'runCommand', specDir: SPEC, command: 'advance', args: { to: 'executing' } },
      { type: 'openMatrix', specDir: SPEC },
      { type: 'openFile', path: `${SPEC}/tasks/T1.md` },
    ]);
    await p.finish();
  });

  it('runs Check stage for the spec where the stage has validators, and hides it where it has none', async () => {
    const p = await harness.open('dashboard', { viewport: { width: 1000, height: 700 }, reply: { type: 'init', model: dashboardModel({ tripped: false }) } });
    const check = p.page.locator('#next .section-head vscode-button[data-key=check-stage]');
    assert.equal(await check.getAttribute('title'), 'Run task-state-closure, requirement-task-closure and write their reports');
    assert.equal(text(await check.textContent()), 'Check stage');
    await p.screenshot('dashboard-check-stage');
    await check.click();
    assert.deepEqual(await p.postedOf('runCommand'), [{ type: 'runCommand', specDir: SPEC, command: 'checkStage' }]);

    const none = dashboardModel({ tripped: false });
    none.actions.checkStage = [];
    await p.send({ type: 'update', model: none });
    assert.equal(await p.page.locator('vscode-button[data-command=checkStage]').count(), 0);
    await p.finish();
  });

  it('offers Approve again for each stale approval of a gate already passed, and posts its stage', async () => {
    const model = dashboardModel({ tripped: false });
    model.actions.reapprove = ['approved'];
    model.next[0].ready = false;
    model.next[0].preconditions.push({ label: 'no approval is stale', holds: false, reasons: ['the approval of approved is stale: plan.md changed since; approve it again'] });
    const p = await harness.open('dashboard', { viewport: { width: 1000, height: 700 }, reply: { type: 'init', model } });
    const again = p.page.locator('#next .section-head vscode-button[data-key=reapprove-approved]');
    assert.equal(text(await again.textContent()), 'Approve approved again');
    assert.equal(await again.getAttribute('title'), 'The files approved at approved changed since; review them, then approve approved again');
    assert.match(text(await p.page.locator('#next .preconditions li.unmet').last().textContent()), /approval of approved is stale: plan\.md changed since/);
    await p.screenshot('dashboard-approve-again');
    await again.click();
    assert.deepEqual(await p.postedOf('runCommand'), [{ type: 'runCommand', specDir: SPEC, command: 'reapprove', args: { stage: 'approved' } }]);

    model.actions.reapprove = [];
    await p.send({ type: 'update', model });
    assert.equal(await p.page.locator('vscode-button[data-command=reapprove]').count(), 0);
    await p.finish();
  });

  it('opens the dispatch transcripts from the token usage', async () => {
    const p = await harness.open('dashboard', { reply: { type: 'init', model: dashboardModel() } });
    await p.page.locator('#tokens vscode-button[data-key=show-transcripts]').click();
    assert.deepEqual(await p.postedOf('runCommand'), [{ type: 'runCommand', specDir: SPEC, command: 'showTranscripts' }]);
    await p.finish();
  });

  it('does not post a disabled action', async () => {
    const p = await harness.open('dashboard', { reply: { type: 'init', model: dashboardModel() } });
    await p.page.locator('vscode-button[data-key=advance]').click({ force: true });
    assert.deepEqual(await p.postedOf('runCommand'), []);
    await p.finish();
  });

  it('offers recovery for a failed spec', async () => {
    const model = dashboardModel({ tripped: false });
    model.stage = 'failed';
    model.failureReason = 'verification found placeholders';
    model.next = [{ to: 'planning', kind: 'recover', ready: true, interactive: false, preconditions: [{ label: 'spec.md exists', holds: true, reasons: [] }], confirmations: [] }];
    model.actions = { advance: false, approve: false, markFailed: false, checkStage: [], recoverTo: ['planning'], reapprove: [] };
    const p = await harness.open('dashboard', { reply: { type: 'init', model } });
    assert.match(text(await p.page.locator('.notice.error').first().textContent()), /Failed: verification found placeholders/);
    assert.equal(await p.page.locator('vscode-button[data-command=advance]').count(), 0);
    await p.page.locator('vscode-button[data-command=recover]').click();
    assert.deepEqual(await p.postedOf('runCommand'), [{ type: 'runCommand', specDir: SPEC, command: 'recover', args: { to: 'planning' } }]);
    await p.finish();
  });

  it('names a file that cannot be read with a button that opens it at its error, and says beside "the files it reads" which one it does not read', async () => {
    const model = dashboardModel();
    model.problems = { errors: 1, warnings: 0 };
    model.unreadable = [{ path: `${SPEC}/requirements.json`, file: 'requirements.json', line: 12, message: `${SPEC}/requirements.json is not valid JSON: expected a value` }];
    model.next[0].preconditions[0] = {
      label: 'the files it reads can be read',
      holds: true,
      reasons: [],
      caveat: 'requirements.json cannot be read: this step does not read it, but a later one will. Fix it before then.',
    };
    const p = await harness.open('dashboard', { reply: { type: 'init', model } });
    const notice = p.page.locator('.notice.error', { hasText: 'requirements.json cannot be read (line 12)' });
    assert.match(text(await notice.textContent()), /requirements\.json is not valid JSON: expected a value/);
    await notice.locator('vscode-button', { hasText: 'Open requirements.json at the Error' }).click();
    assert.deepEqual(await p.postedOf('openFile'), [{ type: 'openFile', path: `${SPEC}/requirements.json`, line: 12 }]);
    const readable = p.page.locator('#next .preconditions > li').first();
    assert.match(text(await readable.textContent()), /^✓ the files it reads can be read ?⚠ requirements\.json cannot be read: this step does not read it/);
    await p.finish();
  });

  it('with a corrupt pipeline.state.json, offers to open it at the error, as the tree and the toast do', async () => {
    const model = dashboardModel();
    model.stage = null;
    model.stageSource = 'unknown';
    model.next = [];
    model.unreadable = [{ path: `${SPEC}/pipeline.state.json`, file: 'pipeline.state.json', line: 3, message: 'not valid JSON' }];
    const p = await harness.open('dashboard', { reply: { type: 'init', model } });
    const notice = p.page.locator('.notice.error', { hasText: 'pipeline.state.json is corrupt' });
    await notice.locator('vscode-button', { hasText: 'Open pipeline.state.json at the Error' }).click();
    assert.deepEqual(await p.postedOf('openFile'), [{ type: 'openFile', path: `${SPEC}/pipeline.state.json`, line: 3 }]);
    assert.equal(await p.page.locator('.notice', { hasText: 'pipeline.state.json cannot be read' }).count(), 0, 'said once, in the corrupt-state notice');
    await p.finish();
  });

  it('keeps the selected task, scroll and focus across updates, and restores them after a reload', async () => {
    const viewport = { width: 1000, height: 500 };
    const p = await harness.open('dashboard', { viewport, reply: { type: 'init', model: dashboardModel() } });
    await p.page.locator('#tasks tbody tr[data-task=T2] td.title').click();
    await p.page.keyboard.press('ArrowDown');
    assert.equal(await p.page.locator('#tasks tr.selected').getAttribute('data-task'), 'T3');
    await p.page.evaluate('window.scrollTo(0, 400)');
    await p.settle(250);
    const focusedBefore = await p.page.evaluate('document.activeElement.dataset.key');
    assert.equal(focusedBefore, 'task-T3');
    // What the user sees stays put: the selected row keeps its place in the viewport.
    const rowTop = (page: typeof p.page) =>
      page.locator('#tasks tr[data-task=T3]').evaluate((el) => Math.round((el as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top));
    const topBefore = await rowTop(p.page);

    const updated = dashboardModel();
    updated.tasks[3].status = 'executing';
    await p.send({ type: 'update', model: updated });
    await p.settle(250);
    assert.equal(await p.page.locator('#tasks tr.selected').getAttribute('data-task'), 'T3');
    assert.equal(await rowTop(p.page), topBefore);
    assert.equal(await p.page.evaluate('document.activeElement.dataset.key'), 'task-T3', 'focus survives the re-render');
    assert.match(text(await p.page.locator('#tasks tr[data-task=T4]').textContent()), /▶ executing/);

    const saved = await p.state();
    const scrollY = await p.page.evaluate('window.scrollY');
    assert.deepEqual(saved, { view: 'dashboard', specDir: SPEC, ui: { scrollY, selectedTask: 'T3' } });
    await p.finish();

    const again = await harness.open('dashboard', { viewport, state: saved, reply: { type: 'init', model: updated } });
    await again.settle(250);
    assert.equal(await again.page.locator('#tasks tr.selected').getAttribute('data-task'), 'T3');
    assert.ok(Math.abs((await rowTop(again.page)) - topBefore) <= 2, 'the restored page shows the same place');
    await again.finish();
  });

  it('ignores a saved state of the other view', async () => {
    const state = { view: 'matrix' as const, specDir: SPEC, ui: { selectedTask: 'T2', scrollY: 300 } };
    const p = await harness.open('dashboard', { state, reply: { type: 'init', model: dashboardModel() } });
    assert.equal(await p.page.locator('#tasks tr.selected').count(), 0);
    await p.finish();
  });
});
