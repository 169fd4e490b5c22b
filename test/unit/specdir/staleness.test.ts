import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { isStale, specStaleness, staleApprovals, staleDerivations, stalenessDiagnostics } from '../../../src/core/specdir/staleness';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

function load(r: TempRepo) {
  return new LoomRepository(r.root).load().get(SPEC)!;
}

function approvedAt(stage: string, prints: Record<string, string>, at = '2026-11-29T09:30:00.000Z') {
  return { stage, entered_at: '2026-11-29T09:00:00.000Z', exited_at: at, status: 'passed', approval: 'user_confirmed', approved_at: at, approval_fingerprints: prints };
}

test('staleApprovals: unchanged approved files are fresh; a recorded traceability.json counts, as loom 3 compares every recorded path', () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    const prints = { 'spec.md': r.sha256(`${SPEC}/spec.md`), 'plan.md': r.sha256(`${SPEC}/plan.md`) };
    r.write(`${SPEC}/pipeline.state.json`, state('executing', { stage_history: [approvedAt('planning', prints)] }));
    assert.deepEqual(staleApprovals(load(r).snapshot), []);
    // approvalArtifactPaths never records traceability.json (APPROVAL_FINGERPRINT_EXCLUDES); once recorded, compareFingerprints checks it.
    r.write(`${SPEC}/pipeline.state.json`, state('executing', { stage_history: [approvedAt('planning', { ...prints, 'traceability.json': '0'.repeat(64) })] }));
    assert.deepEqual(
      staleApprovals(load(r).snapshot).map((a) => a.changed),
      [['traceability.json']],
    );
  } finally {
    r.dispose();
  }
});

test('staleApprovals reports changed and deleted files; every approval of a stage counts, as loom 3 checks them', () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    const old = { 'spec.md': r.sha256(`${SPEC}/spec.md`), 'plan.md': r.sha256(`${SPEC}/plan.md`) };
    r.write(`${SPEC}/spec.md`, '# Login, changed\n');
    r.write(`${SPEC}/pipeline.state.json`, state('executing', { stage_history: [approvedAt('planning', { ...old, 'gone.md': 'ab'.repeat(32) })] }));
    assert.deepEqual(staleApprovals(load(r).snapshot), [{ stage: 'planning', approvedAt: '2026-11-29T09:30:00.000Z', historyIndex: 0, historyIndices: [0], changed: ['spec.md', 'gone.md'] }]);

    // pipeline-engine.js checkApprovalFreshness: a newer approval of the stage does not hide the old one.
    const fresh = { 'spec.md': r.sha256(`${SPEC}/spec.md`), 'plan.md': r.sha256(`${SPEC}/plan.md`) };
    r.write(`${SPEC}/pipeline.state.json`, state('executing', { stage_history: [approvedAt('planning', old), approvedAt('planning', fresh, '2026-11-29T09:50:00.000Z')] }));
    assert.deepEqual(staleApprovals(load(r).snapshot), [{ stage: 'planning', approvedAt: '2026-11-29T09:30:00.000Z', historyIndex: 0, historyIndices: [0], changed: ['spec.md'] }]);
  } finally {
    r.dispose();
  }
});

function age(r: TempRepo, path: string, secondsAgo: number) {
  const t = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(r.path(`${SPEC}/${path}`), t, t);
}

test('staleDerivations: an output of a finished stage older than a file the stage reads', () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    r.write(`${SPEC}/pipeline.state.json`, state('executing'));
    for (const f of ['spec.md', 'requirements.json', 'handoffs/detail-expansion.json', 'plan.md', 'traceability.json', 'tasks/T1.md']) age(r, f, 600);
    let spec = load(r);
    assert.deepEqual(staleDerivations(spec.snapshot, spec.definition, spec.stage), []);

    age(r, 'spec.md', 10);
    spec = load(r);
    assert.deepEqual(staleDerivations(spec.snapshot, spec.definition, spec.stage), [
      { stage: 'detail-expansion', output: 'requirements.json', input: 'spec.md' },
      { stage: 'detail-expansion', output: 'handoffs/detail-expansion.json', input: 'spec.md' },
      { stage: 'planning', output: 'plan.md', input: 'spec.md' },
    ]);

    age(r, 'spec.md', 599);
    spec = load(r);
    assert.deepEqual(staleDerivations(spec.snapshot, spec.definition, spec.stage), [], 'a second apart counts as the same time');
  } finally {
    r.dispose();
  }
});

test("staleDerivations ignores the current stage, traceability.json and a stage's own in-place outputs", () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    for (const f of ['spec.md', 'requirements.json', 'handoffs/detail-expansion.json', 'plan.md', 'tasks/T1.md']) age(r, f, 600);
    age(r, 'traceability.json', 5);
    r.write(`${SPEC}/pipeline.state.json`, state('planning'));
    age(r, 'handoffs/detail-expansion.json', 5);
    let spec = load(r);
    assert.deepEqual(staleDerivations(spec.snapshot, spec.definition, spec.stage), [], 'planning is where the spec stands: its outputs are being worked on');

    age(r, 'handoffs/detail-expansion.json', 600);
    r.write(`${SPEC}/pipeline.state.json`, state('analyze-artifacts'));
    spec = load(r);
    assert.deepEqual(staleDerivations(spec.snapshot, spec.definition, spec.stage), [], 'a newer traceability.json never makes plan.md stale');
  } finally {
    r.dispose();
  }
});

test('staleDerivations of a failed spec look at the stages before the one it failed in', () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    r.write(`${SPEC}/pipeline.state.json`, state('failed', { stage_history: [{ stage: 'executing', status: 'failed', reason: 'x' }] }));
    for (const f of ['spec.md', 'requirements.json', 'handoffs/detail-expansion.json', 'plan.md', 'traceability.json', 'tasks/T1.md']) age(r, f, 600);
    age(r, 'requirements.json', 1);
    const spec = load(r);
    assert.deepEqual(staleDerivations(spec.snapshot, spec.definition, spec.stage), [{ stage: 'planning', output: 'plan.md', input: 'requirements.json' }]);
  } finally {
    r.dispose();
  }
});

test('stalenessDiagnostics point at the handoff fingerprint and at the approval entry', () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    const prints = { 'spec.md': r.sha256(`${SPEC}/spec.md`) };
    r.write(`${SPEC}/handoffs/planning.json`, { status: 'done', summary: 's', artifacts: [], basis_fingerprints: prints });
    r.write(`${SPEC}/pipeline.state.json`, state('executing', { stage_history: [approvedAt('planning', prints)] }));
    r.write(`${SPEC}/spec.md`, '# changed\n');
    const spec = load(r);
    const st = specStaleness(spec.snapshot, spec.definition, spec.stage);
    assert.equal(isStale(st), true);
    assert.deepEqual(st.handoffs, [{ handoff: 'handoffs/planning.json', changed: ['spec.md'] }]);
    const diags = stalenessDiagnostics(spec.snapshot, st);
    const handoff = diags.find((d) => d.code === 'stale-handoff')!;
    assert.equal(handoff.file, `${SPEC}/handoffs/planning.json`);
    assert.equal(r.read(`${SPEC}/handoffs/planning.json`).split('\n')[handoff.line - 1].trim().startsWith('"spec.md"'), true);
    const approval = diags.find((d) => d.code === 'stale-approval')!;
    assert.equal(approval.file, `${SPEC}/pipeline.state.json`);
    assert.match(r.read(`${SPEC}/pipeline.state.json`).split('\n')[approval.line - 1], /"approval_fingerprints"/);
    assert.match(approval.message, /re-approval is needed/);
  } finally {
    r.dispose();
  }
});

test('SpecPipeline.actor is restored at the current stage and stopped by dispose', () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    r.write(`${SPEC}/pipeline.state.json`, state('executing'));
    const spec = load(r);
    const actor = spec.actor;
    // The stage that runs tasks waits for Run Tasks (its run is the child statechart).
    assert.deepEqual(actor.getSnapshot().value, { executing: 'idle' });
    assert.equal(spec.actor, actor, 'one actor per spec');
    spec.dispose();
    assert.equal(actor.getSnapshot().status, 'stopped');
  } finally {
    r.dispose();
  }
});

test('a convergence round does not re-open the plan for handoffs: plan.md and tasks/ recorded before it count, as loom 3 findStaleHandoffs compares every recorded path', () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    const prints = { 'plan.md': r.sha256(`${SPEC}/plan.md`), 'tasks/': 'ab'.repeat(32), 'spec.md': r.sha256(`${SPEC}/spec.md`) };
    r.write(`${SPEC}/handoffs/planning.json`, { status: 'done', summary: 'planned', artifacts: [], written_at: '2026-11-29T09:00:00.000Z', artifact_fingerprints: prints });
    r.write(`${SPEC}/plan.md`, '# Plan\n\n| T1 | Login |\n\n## Convergence round 1\n\n- T2 (tasks/T2.md)\n');
    const retry = { stage: 'converge', status: 'retry', retry_from: 'converge', entered_at: '2026-11-29T10:00:00.000Z', exited_at: '2026-11-29T10:05:00.000Z' };
    r.write(`${SPEC}/pipeline.state.json`, state('executing', { stage_history: [retry] }));
    assert.deepEqual(specStaleness(load(r).snapshot, load(r).definition, 'executing').handoffs, [{ handoff: 'handoffs/planning.json', changed: ['plan.md', 'tasks/'] }]);
  } finally {
    r.dispose();
  }
});
