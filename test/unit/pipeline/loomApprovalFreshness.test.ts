import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { staleApprovals } from '../../../src/core/specdir/staleness';
import { requirements, SPEC, state, TempRepo } from '../../helpers/tempRepo';
import { approve, reapprove } from '../../helpers/intents';

// Issue #11 point 1: which approvals are stale, and how a re-approval clears them, decided as
// loom 3's engine decides (pipeline-engine.js approvalArtifactPaths, checkApprovalFreshness,
// APPROVAL_FINGERPRINT_EXCLUDES; fingerprints.js compareFingerprints).

const NOW = '2026-11-29T10:00:00.000Z';
const LATER = '2026-11-29T12:00:00.000Z';

/** A loom 3 workflow.yaml, trimmed to the steps around its two gates, as `loom init` writes it. */
const LOOM3_WORKFLOW = `defaults:
  pipeline_type: feature
  max_retries: 3
pipelines:
  feature:
    steps:
      - id: brainstorming
        skill: loom-brainstorming
        next: spec-approved
        outputs: [spec.md, requirements.json]
      - id: spec-approved
        gate: human-approval
        next: detail-expansion
      - id: detail-expansion
        skill: loom-detail-expansion
        next: planning
        requires: [spec.md, requirements.json]
        outputs: [requirements.json]
      - id: planning
        skill: loom-writing-plans
        next: approved
        requires: [spec.md, requirements.json]
        outputs: [plan.md, tasks/]
      - id: approved
        gate: human-approval
        next: git-worktree
      - id: git-worktree
        skill: loom-using-git-worktrees
        next: executing
        requires: [spec.md, requirements.json, plan.md, traceability.json]
        outputs: []
      - id: executing
        skill: loom-subagent-driven-development
        requires: [spec.md, plan.md, tasks/]
`;

/** A loom 2.4 workflow.yaml: the released CLI's stages, no validators, no fingerprints. */
const LOOM24_WORKFLOW = `defaults:
  pipeline_type: feature
  max_retries: 3
  timeout_minutes: 30
pipelines:
  feature:
    steps:
      - id: planning
        skill: loom-writing-plans
        next: approved
        outputs: [plan.md, tasks/]
      - id: approved
        gate: human-approval
        next: executing
      - id: executing
        skill: loom-subagent-driven-development
        requires: [plan.md, tasks/]
`;

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function specFiles(r: TempRepo) {
  r.write(`${SPEC}/spec.md`, '# Login\n\nREQ-001: users log in.\n');
  r.write(`${SPEC}/requirements.json`, requirements(1));
  r.write(`${SPEC}/plan.md`, '# Plan\n\n| Task | Title |\n|---|---|\n| T1 | Login |\n');
  r.write(`${SPEC}/tasks/T1.md`, '---\nrequirements: [REQ-001]\n---\n# T1 Login\n');
  r.write(`${SPEC}/traceability.json`, { requirements: {} });
}

/** A history entry of a passed gate, as loom 3's approve() writes it. */
function approvalEntry(stage: string, prints: Record<string, string>, at = NOW) {
  return { stage, entered_at: at, exited_at: at, status: 'passed', approval: 'user_confirmed', approval_fingerprints: prints, approved_at: at };
}

/** loom 3's own rule, restated to check what we wrote: every entry's recorded digests still match. */
function loomWouldAdvance(r: TempRepo): boolean {
  const history = r.json(`${SPEC}/pipeline.state.json`).stage_history as { approval_fingerprints?: Record<string, string> }[];
  return history.every((entry) => Object.entries(entry.approval_fingerprints ?? {}).every(([path, digest]) => sha(readFileSync(join(r.path(SPEC), path), 'utf8')) === digest));
}

const load = (r: TempRepo) => new LoomRepository(r.root).load().get(SPEC)!;

test('loom 3: passing the approved gate fingerprints what approvalArtifactPaths names: the next step requires and the key spec files, never traceability.json or tasks/', () => {
  const r = new TempRepo();
  try {
    r.write('.loom/workflow.yaml', LOOM3_WORKFLOW);
    specFiles(r);
    r.write(`${SPEC}/pipeline.state.json`, state('approved'));
    approve(load(r), { now: NOW });
    const entry = r.json(`${SPEC}/pipeline.state.json`).stage_history[0];
    // The same three keys `loom run --approve` records on this repository (git-worktree requires
    // traceability.json, which APPROVAL_FINGERPRINT_EXCLUDES leaves out; tasks/ is nobody's here).
    assert.deepEqual(Object.keys(entry.approval_fingerprints), ['plan.md', 'requirements.json', 'spec.md']);
    assert.equal(entry.approval_fingerprints['plan.md'], r.sha256(`${SPEC}/plan.md`));
  } finally {
    r.dispose();
  }
});

test('loom 3: detail-expansion rewriting requirements.json makes the earlier gate stale, as checkApprovalFreshness has no exemption for it', () => {
  const r = new TempRepo();
  try {
    r.write('.loom/workflow.yaml', LOOM3_WORKFLOW);
    specFiles(r);
    const prints = { 'requirements.json': r.sha256(`${SPEC}/requirements.json`), 'spec.md': r.sha256(`${SPEC}/spec.md`) };
    r.write(`${SPEC}/pipeline.state.json`, state('detail-expansion', { stage_history: [approvalEntry('spec-approved', prints)] }));
    assert.deepEqual(staleApprovals(load(r).snapshot), []);

    r.write(`${SPEC}/requirements.json`, requirements(2));
    // loom: "Stale approval detected: spec-approved: requirements.json changed".
    assert.deepEqual(
      staleApprovals(load(r).snapshot).map((a) => `${a.stage}: ${a.changed.join(', ')}`),
      ['spec-approved: requirements.json'],
    );
    const next = load(r)
      .status()
      .next.find((n) => n.to === 'planning')!;
    assert.ok(
      next.unmet.some((u) => /approval of spec-approved is stale: requirements\.json/.test(u)),
      next.unmet.join('; '),
    );
  } finally {
    r.dispose();
  }
});

test('loom 3: a convergence round appending to plan.md leaves the plan approval stale; Approve Again renews the entry in place, which loom then accepts', () => {
  const r = new TempRepo();
  try {
    r.write('.loom/workflow.yaml', LOOM3_WORKFLOW);
    specFiles(r);
    const prints = { 'plan.md': r.sha256(`${SPEC}/plan.md`), 'requirements.json': r.sha256(`${SPEC}/requirements.json`), 'spec.md': r.sha256(`${SPEC}/spec.md`) };
    const retry = { stage: 'converge', entered_at: NOW, exited_at: NOW, status: 'retry', retry_from: 'converge', validator: 'convergence-pass', reason: 'missing tests' };
    r.write(`${SPEC}/pipeline.state.json`, state('executing', { stage_history: [approvalEntry('approved', prints), retry], metadata: { convergence_round: 1 } }));
    r.write(`${SPEC}/plan.md`, '# Plan\n\n| Task | Title |\n|---|---|\n| T1 | Login |\n| T2 | Added by converge |\n');
    // An approval made before a convergence round is checked like any other.
    assert.deepEqual(
      staleApprovals(load(r).snapshot).map((a) => a.stage),
      ['approved'],
    );
    assert.equal(loomWouldAdvance(r), false);

    const result = reapprove(load(r), 'approved', { now: LATER, reason: 'reviewed T2' });
    assert.deepEqual(result.changed, ['plan.md']);
    const written = r.json(`${SPEC}/pipeline.state.json`);
    assert.equal(written.stage_history.length, 2, 'no history entry is added');
    assert.equal(written.stage_history[0].approved_at, LATER);
    assert.deepEqual(written.stage_history[0].superseded_approvals, [{ approved_at: NOW, approval_fingerprints: prints, superseded_at: LATER, reason: 'reviewed T2' }]);
    assert.deepEqual(staleApprovals(load(r).snapshot), []);
    assert.equal(loomWouldAdvance(r), true);
  } finally {
    r.dispose();
  }
});

test('loom 3: an older stale approval of a gate stays stale after a newer one, and passing the gate again renews it too', () => {
  const r = new TempRepo();
  try {
    r.write('.loom/workflow.yaml', LOOM3_WORKFLOW);
    specFiles(r);
    const old = { 'plan.md': sha('# old plan\n'), 'spec.md': r.sha256(`${SPEC}/spec.md`) };
    const failed = { stage: 'git-worktree', entered_at: NOW, exited_at: NOW, status: 'failed', reason: 'branch exists' };
    const recovered = { stage: 'failed', entered_at: NOW, exited_at: NOW, status: 'passed', recovery_from: 'failed' };
    r.write(`${SPEC}/pipeline.state.json`, state('approved', { stage_history: [approvalEntry('approved', old), failed, recovered] }));
    assert.deepEqual(
      staleApprovals(load(r).snapshot).map((a) => a.historyIndices),
      [[0]],
    );
    // The gate itself does not look at approvals (loom's approve() checks only handoffs) ...
    approve(load(r), { now: LATER });
    const written = r.json(`${SPEC}/pipeline.state.json`);
    // ... and leaves no stale entry of itself behind, which loom's next advance would refuse on.
    assert.equal(written.stage_history[0].approved_at, LATER);
    assert.equal(written.stage_history.at(-1).approved_at, LATER);
    assert.deepEqual(staleApprovals(load(r).snapshot), []);
    assert.equal(loomWouldAdvance(r), true);
  } finally {
    r.dispose();
  }
});

test('loom 2.4: an approval without fingerprints is never stale, however the plan changes', () => {
  const r = new TempRepo();
  try {
    r.write('.loom/workflow.yaml', LOOM24_WORKFLOW);
    specFiles(r);
    const approved = { stage: 'approved', entered_at: NOW, exited_at: NOW, status: 'passed', approval: 'user_confirmed' };
    r.write(`${SPEC}/pipeline.state.json`, { ...state('executing', { stage_history: [approved] }), loom_version: '2.4.0' });
    r.write(`${SPEC}/plan.md`, '# Plan, rewritten\n');
    assert.deepEqual(staleApprovals(load(r).snapshot), []);
    const next = load(r).status();
    assert.ok(!next.next.some((n) => n.unmet.some((u) => /approval/.test(u))));
  } finally {
    r.dispose();
  }
});
