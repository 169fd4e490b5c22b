import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DashboardModel } from '../../src/shared/dashboardModel';
import { dashboardModel } from './support/dashboardModels';
import { WebviewHarness } from './support/harness';

// The dashboard's part of Loom: Run Pipeline (issue 34, item 5): Run Pipeline where the spec can
// move on, the run as it goes with Stop, and "Needs you" with why and the one action that continues.

const SPEC = 'specs/2026-11-29+login';
let harness: WebviewHarness;
before(async () => {
  harness = await WebviewHarness.start();
});
after(async () => {
  await harness?.close();
});

const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

const stopped = (): DashboardModel => ({
  ...dashboardModel(),
  run: {
    running: false,
    mode: 'autopilot',
    stage: 'brainstorming',
    reason: 'approval-gate',
    message: 'brainstorming is a human-approval gate: approve it to move on to detail-expansion.',
    action: 'Approve and Continue',
    stages: [
      {
        stage: 'brainstorming',
        work: 'draft',
        ms: 2400,
        rounds: 1,
        tokens: 2150,
        wrote: ['spec.md', 'requirements.json'],
        transcript: ['/brainstorm: drafting with the model (round 1)', 'Wrote spec.md, requirements.json'],
      },
    ],
  },
});

describe('dashboard: the pipeline run', () => {
  it('offers Run Pipeline, shows the running stage with Stop, then Needs you with the one action that continues', async () => {
    const p = await harness.open('dashboard', { viewport: { width: 1000, height: 800 }, reply: { type: 'init', model: dashboardModel() } });
    await p.page.locator('#pipeline-run vscode-button[data-command=runPipeline]').click();
    assert.deepEqual(await p.postedOf('runCommand'), [{ type: 'runCommand', specDir: SPEC, command: 'runPipeline' }]);

    await p.send({
      type: 'update',
      model: {
        ...dashboardModel(),
        run: {
          running: true,
          mode: 'supervised',
          stage: 'planning',
          stages: [{ stage: 'planning', work: '', ms: 0, rounds: 0, tokens: 0, wrote: [], transcript: ['/plan: drafting with the model (round 1)'] }],
        },
      },
    });
    await p.settle();
    assert.match(text(await p.page.locator('#pipeline-run h2').textContent()), /Pipeline run · Running \(supervised\) at planning/);
    assert.equal(await p.page.locator('#pipeline-run vscode-button[data-command=stopPipeline]').count(), 1);

    await p.send({ type: 'update', model: stopped() });
    await p.settle();
    const card = p.page.locator('#pipeline-run.needs-you');
    assert.match(text(await card.locator('h2').textContent()), /Needs you at brainstorming/);
    assert.match(text(await card.locator('p[data-reason=approval-gate]').textContent()), /human-approval gate/);
    assert.match(text(await card.locator('li[data-stage=brainstorming]').textContent()), /brainstorming · 2\.4 s · 1 round · ~2150 tokens\s*Wrote: spec\.md, requirements\.json/);
    await p.screenshot('dashboard-pipeline-run-needs-you');
    await card.locator('vscode-button[data-command=continuePipeline]').click();
    assert.deepEqual((await p.postedOf('runCommand')).at(-1), { type: 'runCommand', specDir: SPEC, command: 'continuePipeline' });
    await p.finish();
  });

  it('links each stage to its transcript on disk', async () => {
    const model = stopped();
    model.run!.stages[0].file = `${SPEC}/transcripts/run-brainstorming.md`;
    const p = await harness.open('dashboard', { viewport: { width: 1000, height: 800 }, reply: { type: 'init', model } });
    const link = p.page.locator('#pipeline-run li[data-stage=brainstorming] a.file-link');
    assert.equal(text(await link.textContent()), 'Open the transcript (transcripts/run-brainstorming.md)');
    await link.click();
    assert.deepEqual(await p.postedOf('openFile'), [{ type: 'openFile', path: `${SPEC}/transcripts/run-brainstorming.md` }]);
    await p.finish();
  });

  it('says since when the run waits for you (its stop record’s time), and a run you stopped as stopped, not as needing you', async () => {
    const model = stopped();
    model.run!.since = '2026-12-01T14:02:00.000Z';
    const p = await harness.open('dashboard', { viewport: { width: 1000, height: 800 }, reply: { type: 'init', model } });
    const local = new Date(model.run!.since);
    const pad = (n: number) => String(n).padStart(2, '0');
    const time = `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())} ${pad(local.getHours())}:${pad(local.getMinutes())}`;
    assert.equal(text(await p.page.locator('#pipeline-run.needs-you h2').textContent()), `Pipeline run · Needs you at brainstorming since ${time}`);
    await p.send({ type: 'update', model: { ...model, run: { ...model.run!, reason: 'stopped', message: 'Stopped at brainstorming: nothing half-written.', action: 'Run Again' } } });
    await p.settle();
    assert.equal(text(await p.page.locator('#pipeline-run h2').textContent()), 'Pipeline run · Stopped at brainstorming');
    await p.finish();
  });
});
