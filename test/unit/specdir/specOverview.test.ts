import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { setDisplayLanguage } from '../../../src/core/messages';
import { specOverview } from '../../../src/core/specdir/specOverview';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

function overview(setup: (r: TempRepo) => void) {
  const r = new TempRepo();
  try {
    setup(r);
    const spec = new LoomRepository(r.root).load().get(SPEC)!;
    return specOverview(spec.snapshot, spec.definition, spec.stage);
  } finally {
    r.dispose();
  }
}

test('a spec at executing: six stages done, executing running, the rest waiting; "6/13"', () => {
  const o = overview((r) => {
    plannedSpec(r);
    r.write(`${SPEC}/pipeline.state.json`, state('executing', { stage_history: [{ stage: 'planning', status: 'passed', entered_at: 'a', exited_at: 'b' }] }));
    r.write(`${SPEC}/task-states/T1.state.json`, { task_id: 'T1', status: 'blocked', retry_count: 2, blocker: 'needs a DB' });
  });
  assert.deepEqual(o.progress, { done: 6, total: 13 });
  assert.equal(o.group, 'in-progress');
  assert.deepEqual(
    o.stages.map((s) => s.status),
    ['done', 'done', 'done', 'done', 'done', 'done', 'running', 'waiting', 'waiting', 'waiting', 'waiting', 'waiting', 'waiting'],
  );
  const executing = o.stages[6];
  assert.equal(executing.current, true);
  assert.equal(executing.enteredAt, '2026-11-29T09:00:00.000Z');
  assert.deepEqual(executing.outputs, [
    { path: 'test-report.md', exists: false },
    { path: 'traceability.json', exists: true },
  ]);
  assert.equal(o.stages[2].visits.length, 1);
  assert.deepEqual(
    o.stages[2].outputs.find((x) => x.path === 'tasks/'),
    { path: 'tasks/', exists: true },
  );
  assert.deepEqual(o.tasks, [{ id: 'T1', title: 'T1 Login', path: 'tasks/T1.md', status: 'blocked', retries: 2, blocker: 'needs a DB', lastReviewerResult: undefined, updatedAt: undefined }]);
});

test('a failed spec: the stage it failed in is failed, it is filed under failed, with its reason', () => {
  const o = overview((r) => {
    plannedSpec(r);
    r.write(`${SPEC}/pipeline.state.json`, state('failed', { failure_reason: 'tests keep failing', stage_history: [{ stage: 'executing', status: 'failed', reason: 'tests keep failing' }] }));
  });
  assert.equal(o.group, 'failed');
  assert.equal(o.failedIn, 'executing');
  assert.equal(o.failureReason, 'tests keep failing');
  assert.equal(o.stages[6].status, 'failed');
  assert.equal(o.stages[6].current, false);
  assert.equal(o.stages[5].status, 'done');
  assert.deepEqual(o.progress, { done: 6, total: 13 });
});

test('a spec at the terminal stage is done, every stage done, "13/13"', () => {
  const o = overview((r) => {
    plannedSpec(r);
    r.write(`${SPEC}/pipeline.state.json`, state('synced'));
  });
  assert.equal(o.group, 'done');
  assert.deepEqual(o.progress, { done: 13, total: 13 });
  assert.ok(o.stages.every((s) => s.status === 'done'));
});

test('a corrupt state file: stage unknown, filed under attention (it has not failed), every stage waiting, its tasks kept', () => {
  const o = overview((r) => {
    plannedSpec(r);
    r.write(`${SPEC}/pipeline.state.json`, '{ "current_stage": ');
  });
  assert.equal(o.group, 'attention');
  assert.deepEqual(o.progress, { done: 0, total: 13 });
  assert.deepEqual(
    o.tasks.map((t) => t.id),
    ['T1'],
  );
  assert.ok(o.stages.every((s) => s.status === 'waiting'));
});

test("the stages' descriptions follow the display language, though they are worded once per pipeline", () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    const spec = new LoomRepository(r.root).load().get(SPEC)!;
    const described = () => specOverview(spec.snapshot, spec.definition, spec.stage).stages.find((s) => s.id === 'planning')!.description;
    setDisplayLanguage('en');
    const english = described();
    setDisplayLanguage('zh');
    const chinese = described();
    setDisplayLanguage('en');
    assert.equal(described(), english);
    assert.notEqual(english, chinese);
    assert.equal(chinese, spec.definition.stages.find((s) => s.id === 'planning')!.description, "loom's own (Chinese) wording of the stage");
  } finally {
    setDisplayLanguage('en');
    r.dispose();
  }
});
