import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TransitionRefusedError } from '../../../src/core/errors';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { staleHandoffs } from '../../../src/core/specdir/handoffStaleness';
import { writeHandoffRecord } from '../../../src/core/store/stateStore';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';
import { advance } from '../../helpers/intents';

// Issue #11 point 7: converge going back, decided as loom 3's engine decides it
// (pipeline-engine.js PipelineEngine.advance and ADVANCE_VALIDATORS['convergence-pass'];
// state-store.js writeHandoff and MUTABLE_LEDGER_ARTIFACTS; findStaleHandoffs).

const NOW = '2026-11-29T10:00:00.000Z';

/** loom 3's feature pipeline from executing on, as its workflow.yaml declares it. */
const LOOM3_WORKFLOW = `defaults:
  pipeline_type: feature
pipelines:
  feature:
    steps:
      - id: executing
        skill: loom-subagent-driven-development
        next: converge
        outputs: [test-report.md, traceability.json, handoffs/executing.json]
        validators: [task-state-closure, requirement-task-closure]
      - id: converge
        skill: loom-converge
        next: verification
        requires: [spec.md, requirements.json, plan.md, tasks/, traceability.json, test-report.md]
        outputs: [handoffs/converge.json]
        validators: [convergence-pass]
      - id: verification
        skill: loom-verification-before-completion
        outputs: [verify-report.md]
`;

/** loom 2.4: no converge stage, nothing sends a spec back. */
const LOOM24_WORKFLOW = `pipelines:
  feature:
    steps:
      - id: executing
        next: verification
        outputs: [test-report.md]
      - id: verification
        outputs: [verify-report.md]
`;

/** A spec at converge whose behaviors have no tests yet: convergence-pass fails. */
function atConverge(r: TempRepo, workflow = LOOM3_WORKFLOW, metadata: Record<string, unknown> = {}) {
  r.write('.loom/workflow.yaml', workflow);
  plannedSpec(r);
  r.write(`${SPEC}/test-report.md`, '# Test report\n\nverdict: PASS\n');
  r.write(`${SPEC}/handoffs/converge.json`, { stage: 'converge', task_id: 'converge', status: 'partial', summary: 'gaps found', artifacts: [] });
  r.write(`${SPEC}/pipeline.state.json`, state('converge', { metadata }));
}

const load = (r: TempRepo) => new LoomRepository(r.root).load().get(SPEC)!;

test('loom 3: plain Advance at converge goes back to executing while rounds are left, recording retry, retry_from, validator and the round', () => {
  const r = new TempRepo();
  try {
    atConverge(r);
    // loom 3's advance asks for compression before the return too (_requiresStageCompression: the
    // converge step's outputs include handoffs/converge.json), after the validator decided on it.
    const before = r.read(`${SPEC}/pipeline.state.json`);
    assert.throws(
      () => advance(load(r), { confirm: true, now: NOW }),
      (e: TransitionRefusedError) =>
        e.message === `${SPEC} cannot move from converge to executing` &&
        e.details.codes?.includes('compression-required') === true &&
        /converge requires context compression/.test(e.reasons.join('\n')),
    );
    assert.equal(r.read(`${SPEC}/pipeline.state.json`), before, 'nothing written');
    const result = advance(load(r), { confirm: true, compressionConfirmed: true, now: NOW });
    assert.deepEqual([result.from, result.to], ['converge', 'executing']);
    const written = r.json(`${SPEC}/pipeline.state.json`);
    const entry = written.stage_history.at(-1);
    assert.deepEqual([entry.stage, entry.status, entry.retry_from, entry.validator], ['converge', 'retry', 'converge', 'convergence-pass']);
    assert.match(entry.reason, /^convergence-pass: /, "the validator's findings, as loom records validatorCheck.error");
    assert.equal(written.metadata.convergence_round, 1);
  } finally {
    r.dispose();
  }
});

test('loom 3: converge does not go back once round 3 would start (round >= 3 fails instead)', () => {
  const r = new TempRepo();
  try {
    atConverge(r, LOOM3_WORKFLOW, { convergence_round: 2 });
    const before = r.read(`${SPEC}/pipeline.state.json`);
    assert.throws(() => advance(load(r), { confirm: true, now: NOW }), TransitionRefusedError);
    assert.equal(r.read(`${SPEC}/pipeline.state.json`), before, 'nothing written');
  } finally {
    r.dispose();
  }
});

test('loom 3: going back checks handoffs, approvals and the stage outputs first, as advance does before any validator', () => {
  const r = new TempRepo();
  try {
    atConverge(r);
    // A planning handoff recorded plan.md; a convergence round appended a task to it.
    r.write(`${SPEC}/handoffs/planning.json`, { stage: 'planning', task_id: 'planning', status: 'done', basis_fingerprints: { 'plan.md': r.sha256(`${SPEC}/plan.md`) } });
    r.write(`${SPEC}/plan.md`, '# Plan\n\n| Task | Title |\n|---|---|\n| T1 | Login |\n| T2 | Added by converge |\n');
    const refused = (pattern: RegExp) =>
      assert.throws(
        () => advance(load(r), { confirm: true, compressionConfirmed: true, now: NOW }),
        (e: TransitionRefusedError) => e.reasons.some((reason) => pattern.test(reason)),
      );
    refused(/handoffs\/planning\.json is stale: plan\.md changed/);

    r.write(`${SPEC}/handoffs/planning.json`, { stage: 'planning', task_id: 'planning', status: 'done', basis_fingerprints: { 'plan.md': r.sha256(`${SPEC}/plan.md`) } });
    const approval = { stage: 'approved', entered_at: NOW, exited_at: NOW, status: 'passed', approval: 'user_confirmed', approved_at: NOW, approval_fingerprints: { 'spec.md': '0'.repeat(64) } };
    r.write(`${SPEC}/pipeline.state.json`, state('converge', { stage_history: [approval] }));
    refused(/the approval of approved is stale: spec\.md/);

    r.write(`${SPEC}/pipeline.state.json`, state('converge'));
    r.write(`${SPEC}/handoffs/converge.json`, '');
    r.write(`${SPEC}/handoffs/converge.json`, { stage: 'converge', status: 'partial' });
    assert.equal(advance(load(r), { confirm: true, compressionConfirmed: true, now: NOW }).to, 'executing');
  } finally {
    r.dispose();
  }
});

test("loom 3: a converge handoff leaves convergence-report.json and findings/ out of its fingerprints, so converge's own rewrite leaves it fresh", () => {
  const r = new TempRepo();
  try {
    atConverge(r);
    r.write(`${SPEC}/convergence-report.json`, { round: 1, status: 'needs_another_round' });
    r.write(`${SPEC}/findings/omission-hunter.json`, { findings: [] });
    const snapshot = loadSpec(r.root, r.path(SPEC));
    writeHandoffRecord(
      snapshot,
      'converge',
      { stage: 'converge', status: 'partial', summary: 'round 1', artifacts: ['convergence-report.json', 'findings/omission-hunter.json', 'traceability.json', 'spec.md'] },
      NOW,
    );
    const written = r.json(`${SPEC}/handoffs/converge.json`);
    // writeHandoff: spec.md and plan.md as the basis, artifacts without the mutable ledgers.
    assert.deepEqual(Object.keys(written.basis_fingerprints).sort(), ['plan.md', 'spec.md']);
    assert.deepEqual(Object.keys(written.artifact_fingerprints), ['spec.md']);
    r.write(`${SPEC}/convergence-report.json`, { round: 2, status: 'converged' });
    assert.deepEqual(staleHandoffs(loadSpec(r.root, r.path(SPEC))), []);
  } finally {
    r.dispose();
  }
});

test('loom 2.4: no stage goes back by itself (only a move the user names, verification → executing)', () => {
  const r = new TempRepo();
  try {
    r.write('.loom/workflow.yaml', LOOM24_WORKFLOW);
    plannedSpec(r);
    r.write(`${SPEC}/pipeline.state.json`, state('executing'));
    const spec = load(r);
    assert.deepEqual(
      spec.definition.transitions.filter((t) => t.auto).map((t) => `${t.from} → ${t.to}`),
      [],
    );
    // Going back, where the schema allows it, checks handoffs and approvals as any advance does.
    for (const back of spec.definition.transitions.filter((t) => t.kind === 'retry')) {
      assert.ok(back.guards.some((g) => g.type === 'handoffsFresh') && back.guards.some((g) => g.type === 'approvalsFresh'), `${back.from} → ${back.to}`);
    }
  } finally {
    r.dispose();
  }
});
