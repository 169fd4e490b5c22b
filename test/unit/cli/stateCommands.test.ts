import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { main } from '../../../src/cli/main';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

// Issue #11 point 9: loom's `run --task --task-status` and `run --verdict` (commands/run.js,
// state-store.js updateTask/initTask) and `handoff write` (commands/handoff.js, writeHandoff),
// as loom-vscode task, verdict and handoff.

const WORKFLOW = `pipelines:
  feature:
    steps:
      - id: planning
        next: executing
        outputs: [plan.md, tasks/]
      - id: executing
        next: verification
        outputs: [test-report.md]
      - id: verification
`;

async function cli(r: TempRepo, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...argv, '--cwd', r.root], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function repo(): TempRepo {
  const r = new TempRepo();
  r.write('.loom/workflow.yaml', WORKFLOW);
  plannedSpec(r);
  r.write(`${SPEC}/pipeline.state.json`, state('executing'));
  return r;
}

test('task: a new state as initTask writes it; failed counts a retry only when a state existed; the blocker is kept unless given', async () => {
  const r = repo();
  try {
    assert.equal((await cli(r, 'task', '--spec-dir', SPEC, '--id', 'T1', '--status', 'failed')).code, 0);
    const first = r.json(`${SPEC}/task-states/T1.state.json`);
    assert.deepEqual([first.task_id, first.status, first.retry_count, first.agent_session_id, first.last_reviewer_result, first.blocker], ['T1', 'failed', 0, null, null, null]);
    assert.equal(first.spec_dir, r.path(SPEC), 'absolute, as loom writes it');
    await cli(r, 'task', '--spec-dir', SPEC, '--id', 'T1', '--status', 'blocked', '--blocker', 'db down');
    await cli(r, 'task', '--spec-dir', SPEC, '--id', 'T1', '--status', 'failed');
    const third = r.json(`${SPEC}/task-states/T1.state.json`);
    assert.deepEqual([third.status, third.retry_count, third.blocker, third.created_at], ['failed', 1, 'db down', first.created_at]);
    assert.match(r.read(`${SPEC}/progress.md`), /T1/);
    assert.equal(existsSync(r.path(`${SPEC}/.loom-run.lock`)), false, 'the run lock is released');

    const bad = await cli(r, 'task', '--spec-dir', SPEC, '--id', 'T1', '--status', 'finished');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--status finished is not a task status/);
    assert.equal(r.json(`${SPEC}/task-states/T1.state.json`).status, 'failed', 'nothing written');
  } finally {
    r.dispose();
  }
});

test('verdict: PASS exits 0, PARTIAL 2, FAIL or no verdict 1; a missing report exits 1 naming it', async () => {
  const r = repo();
  try {
    const missing = await cli(r, 'verdict', '--spec-dir', SPEC);
    assert.deepEqual([missing.code, /qa-report\.md not found/.test(missing.err)], [1, true]);
    for (const [text, word, code] of [
      ['verdict: PASS\n', 'PASS', 0],
      ['**Verdict:** PARTIAL\n', 'PARTIAL', 2],
      ['## 结论：不通过\n', 'FAIL', 1],
      ['no verdict here\n', 'FAIL', 1],
    ] as const) {
      r.write(`${SPEC}/qa-report.md`, text);
      const run = await cli(r, 'verdict', '--spec-dir', SPEC);
      assert.deepEqual([run.out, run.code], [word, code], text);
    }
    r.write(`${SPEC}/test-report.md`, 'verdict: PASS\n');
    assert.equal((await cli(r, 'verdict', '--spec-dir', SPEC, '--file', 'test-report.md')).code, 0);
  } finally {
    r.dispose();
  }
});

test("handoff: written with loom's basis fingerprints and without a summary when none is given; --refresh keeps the rest and clears the staleness", async () => {
  const r = repo();
  try {
    assert.equal((await cli(r, 'handoff', '--spec-dir', SPEC, '--stage', 'planning')).code, 0);
    const written = r.json(`${SPEC}/handoffs/planning.json`);
    assert.deepEqual([written.status, written.stage, written.task_id, 'summary' in written], ['done', 'planning', 'planning', false]);
    assert.deepEqual(Object.keys(written.basis_fingerprints).sort(), ['plan.md', 'spec.md', 'tasks/']);

    await cli(r, 'handoff', '--spec-dir', SPEC, '--stage', 'planning', '--status', 'partial', '--summary', 'Two tasks', '--artifacts', 'plan.md,traceability.json');
    r.write(`${SPEC}/plan.md`, '# Plan, with T2\n');
    const stale = await cli(r, 'status', '--spec-dir', SPEC, '--json');
    assert.match(stale.out, /handoffs\/planning\.json is stale: plan\.md changed/);

    assert.equal((await cli(r, 'handoff', '--spec-dir', SPEC, '--stage', 'planning', '--refresh')).code, 0);
    const refreshed = r.json(`${SPEC}/handoffs/planning.json`);
    assert.deepEqual([refreshed.status, refreshed.summary, refreshed.artifacts], ['partial', 'Two tasks', ['plan.md', 'traceability.json']]);
    assert.deepEqual(Object.keys(refreshed.artifact_fingerprints), ['plan.md'], 'traceability.json is a mutable ledger');
    assert.doesNotMatch((await cli(r, 'status', '--spec-dir', SPEC, '--json')).out, /is stale/);

    const unknown = await cli(r, 'handoff', '--spec-dir', SPEC, '--stage', 'shipping');
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /shipping is not a stage of the feature pipeline/);
    assert.equal((await cli(r, 'handoff', '--spec-dir', SPEC, '--task', 'T1', '--refresh')).code, 2, 'nothing to refresh');
    assert.equal((await cli(r, 'handoff', '--spec-dir', SPEC, '--stage', 'planning', '--status', 'pending')).code, 2, "loom's writer takes four statuses");
  } finally {
    r.dispose();
  }
});
