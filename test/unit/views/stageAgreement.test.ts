import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildPipelineDefinition } from '../../../src/core/pipeline/pipelineDefinition';
import { bundledPipelineSchema } from '../../../src/core/pipeline/pipelineSchema';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { specOverview } from '../../../src/core/specdir/specOverview';
import { buildDashboardModel } from '../../../src/core/views/dashboardModel';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

/**
 * The tree (specOverview, read by its rows and the status bar) and the dashboard's stepper say the
 * same of every stage: both read core/specdir/stageStatus. The dashboard calls `running` `current`.
 */
const repos: TempRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));

const passed = (stage: string) => ({ stage, entered_at: '2026-11-29T08:00:00.000Z', exited_at: '2026-11-29T08:30:00.000Z', status: 'passed' });
/** loom's feature pipeline, as the schema gives it (no workflow.yaml in these repositories). */
const FEATURE = buildPipelineDefinition(bundledPipelineSchema(), undefined, 'feature').stages.map((s) => s.id);

function bothViews(stateFile: string | object) {
  const r = new TempRepo();
  repos.push(r);
  plannedSpec(r);
  r.write(`${SPEC}/pipeline.state.json`, stateFile);
  const spec = new LoomRepository(r.root).load().get(SPEC)!;
  const overview = specOverview(spec.snapshot, spec.definition, spec.stage);
  const tree = Object.fromEntries(overview.stages.map((s) => [s.id, s.status]));
  const dashboard = Object.fromEntries(buildDashboardModel(spec).steps.map((s) => [s.id, s.status === 'current' ? 'running' : s.status]));
  return { overview, tree, dashboard };
}

describe('the tree and the dashboard agree on every stage', () => {
  it('at the last stage: every stage done, the spec filed as done', () => {
    const { overview, tree, dashboard } = bothViews(state('synced', { stage_history: FEATURE.slice(0, -1).map(passed) }));
    assert.deepEqual(dashboard, tree);
    assert.ok(Object.values(tree).every((s) => s === 'done'));
    assert.equal(overview.group, 'done');
    assert.deepEqual(overview.progress, { done: 13, total: 13 });
  });

  it('with a cut-off pipeline.state.json: nothing is known, every stage waiting', () => {
    const { overview, tree, dashboard } = bothViews('{ "current_stage": "executing", "stage_history": [');
    assert.deepEqual(dashboard, tree);
    assert.ok(Object.values(tree).every((s) => s === 'waiting'));
    assert.equal(overview.group, 'attention');
  });

  it('with a state file naming no stage of the pipeline: the passes it records are done, nothing is running', () => {
    const { overview, tree, dashboard } = bothViews(state('implementing', { stage_history: ['brainstorming', 'detail-expansion', 'planning'].map(passed) }));
    assert.deepEqual(dashboard, tree);
    assert.deepEqual(
      FEATURE.map((id) => tree[id]),
      ['done', 'done', 'done', ...Array(10).fill('waiting')],
    );
    assert.equal(overview.group, 'attention', 'its stage is as unknown as an unreadable one');
  });

  it('in the middle and after a failure', () => {
    const middle = bothViews(state('executing', { stage_history: FEATURE.slice(0, 6).map(passed) }));
    assert.deepEqual(middle.dashboard, middle.tree);
    assert.equal(middle.tree.executing, 'running');
    const failed = bothViews(state('failed', { stage_history: [...FEATURE.slice(0, 6).map(passed), { stage: 'executing', status: 'failed', reason: 'x' }] }));
    assert.deepEqual(failed.dashboard, failed.tree);
    assert.equal(failed.tree.executing, 'failed');
    assert.equal(failed.overview.group, 'failed');
  });
});
