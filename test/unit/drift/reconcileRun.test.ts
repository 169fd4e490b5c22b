import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINE_KEY } from '../../../src/core/drift/baseline';
import { runPipeline } from '../../../src/core/pipelineRun/pipelineRun';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SPEC } from '../../helpers/tempRepo';
import { block, QueueModel } from '../authoring/authoringFixture';
import { autopilotPorts } from '../pipelineRun/autopilotPorts';
import { driftedSpec, ledger } from './helpers/driftRepos';

const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

const baselineOf = (root: string) => JSON.parse(readFileSync(join(root, SPEC, 'pipeline.state.json'), 'utf8')).metadata[BASELINE_KEY];

test('Run Pipeline reconciles only when asked: then, after the sync, a drifted spec is amended by the model, checked, written, and its baseline moves', async () => {
  const { root, head, baseline } = await driftedSpec(made);
  const spec = new LoomRepository(root).load().get(SPEC)!;
  // Not asked: the sync ends the run, no model is asked and the baseline stays.
  const plain = await runPipeline(
    spec,
    autopilotPorts(spec, async () => assert.fail('no model without reconcile')),
  );
  assert.equal(plain.reason, 'done', plain.message);
  assert.deepEqual([baselineOf(root).commit, baselineOf(root).source], [baseline, 'synced']);
  const model = new QueueModel([`B02 is gone from the code.\n${block({ path: 'requirements.json', content: ledger({ status: 'superseded' }) })}`]);
  const stop = await runPipeline(
    spec,
    autopilotPorts(spec, async () => model, { reconcile: true }),
  );
  assert.equal(stop.reason, 'done', stop.message);
  assert.equal(model.requests.length, 1);
  assert.match(model.requests[0].at(-1)!.content as string, /-v2\n\+v3/);
  assert.ok(stop.stages[0].wrote.includes('requirements.json'), JSON.stringify(stop.stages[0]));
  assert.ok(
    stop.stages[0].transcript.some((l) => /^Reconcile: wrote requirements\.json; the baseline is now [0-9a-f]{7}\.$/.test(l)),
    stop.stages[0].transcript.join('\n'),
  );
  const b = baselineOf(root);
  assert.deepEqual([b.commit, b.source, b.by], [head, 'reconciled', 'Loom: Run Pipeline (autopilot)']);
  const behaviors = JSON.parse(readFileSync(join(root, SPEC, 'requirements.json'), 'utf8')).requirements[0].behaviors;
  assert.equal(behaviors[1].status, 'superseded');
});
