import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { TransitionRefusedError } from '../../../src/core/errors';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { specDiagnostics } from '../../../src/core/repository/specDiagnostics';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';
import { advance, approve } from '../../helpers/intents';

/**
 * Which checks block a move: exactly those loom 3's PipelineEngine makes for the step as
 * workflow.yaml declares it (pipeline-engine.js advance: checkStageOutputs on the current step's
 * outputs, gate_verdict through isReportPassing, runAdvanceValidators, checkPreconditions on the
 * next step's requires; approve: checkApprovalRequirements and checkReviewFeedbackApproval only).
 * The schema's prose preconditions are the extension's advice, unless the step says
 * `strict_checks: true`. Each fixture was driven through `loom run --advance` / `--approve`.
 */

/** A loom 2.4-style feature pipeline: no traceability.json, no validators. */
const LOOM_24_WORKFLOW = `defaults:
  pipeline_type: feature
  max_retries: 3
  timeout_minutes: 30
pipelines:
  feature:
    steps:
      - id: brainstorming
        skill: loom-brainstorming
        next: planning
        outputs: [spec.md]
      - id: planning
        skill: loom-writing-plans
        next: approved
        requires: [spec.md]
        outputs: [plan.md, tasks/]
      - id: approved
        gate: human-approval
        next: git-worktree
      - id: git-worktree
        skill: loom-using-git-worktrees
        next: executing
        requires: [plan.md]
        outputs: []
      - id: executing
        skill: loom-subagent-driven-development
        next: verification
        requires: [plan.md, tasks/]
        outputs: [test-report.md]
        gate_verdict: test-report.md
      - id: verification
        skill: loom-verification-before-completion
        next: synced
        requires: [test-report.md]
        outputs: [verify-report.md]
        gate_verdict: verify-report.md
      - id: synced
        skill: loom-index-update
        requires: [verify-report.md]
`;

const NOW = '2026-11-29T10:00:00.000Z';

function loom24Repo(stage: string, workflow = LOOM_24_WORKFLOW) {
  const r = new TempRepo();
  r.write('.loom/workflow.yaml', workflow);
  r.write(`${SPEC}/pipeline.state.json`, state(stage, { spec_dir: r.path(SPEC) }));
  r.write(`${SPEC}/spec.md`, '# spec\n\nREQ-001 users log in\n');
  r.write(`${SPEC}/plan.md`, '# plan\n');
  r.write(`${SPEC}/tasks/T1.md`, '---\nowns: [src/a.js]\nrequirements: [REQ-001]\n---\n# T1\nDo it\n');
  return r;
}

describe('preconditions as loom checks them', () => {
  it('a loom 2.4 repository (no traceability.json) goes approved → git-worktree → executing, as loom does', () => {
    // loom 3: approve() checks no requires of the next step; advance() from git-worktree checks
    // executing's requires [plan.md, tasks/] only. The schema's "traceability.json exists" and
    // "worktree exists" are the extension's: advice.
    const r = loom24Repo('approved');
    const repo = new LoomRepository(r.root).load();
    const spec = repo.get(SPEC)!;
    const approved = approve(spec, { now: NOW });
    assert.deepEqual([approved.from, approved.to], ['approved', 'git-worktree']);
    const again = new LoomRepository(r.root).load().get(SPEC)!;
    const [toExecuting] = again.next();
    assert.equal(toExecuting.to, 'executing');
    assert.equal(toExecuting.ready, true);
    assert.deepEqual(toExecuting.unmet, []);
    assert.ok(toExecuting.advice.includes('traceability.json does not exist'), toExecuting.advice.join('; '));
    // Advice is visible where problems are: the Problems panel and `validate` read specDiagnostics.
    const advice = specDiagnostics(again).filter((d) => d.code === 'advice');
    assert.ok(advice.length > 0);
    assert.ok(advice.every((d) => d.severity === 'warning'));
    assert.ok(advice.some((d) => d.message.startsWith('before executing: traceability.json does not exist (advice: loom run --advance does not check this for git-worktree;')));
    assert.equal(advance(again, { now: NOW }).to, 'executing');
    assert.equal(r.json(`${SPEC}/pipeline.state.json`).current_stage, 'executing');
    r.dispose();
  });

  it("what loom checks still blocks: the next step's requires on advance", () => {
    // loom 3: advance() → checkPreconditions(next.requires) → `Preconditions for "executing" not met: tasks/`.
    const r = loom24Repo('git-worktree');
    rmSync(r.path(`${SPEC}/tasks`), { recursive: true });
    const spec = new LoomRepository(r.root).load().get(SPEC)!;
    assert.throws(
      () => advance(spec, { now: NOW }),
      (e: TransitionRefusedError) => e.reasons.includes('tasks/ does not exist'),
    );
    r.dispose();
  });

  it("a step opts in with strict_checks: true, and the schema's preconditions then block", () => {
    const strict = LOOM_24_WORKFLOW.replace('      - id: executing\n', '      - id: executing\n        strict_checks: true\n');
    const r = loom24Repo('git-worktree', strict);
    const spec = new LoomRepository(r.root).load().get(SPEC)!;
    const [toExecuting] = spec.next();
    assert.equal(toExecuting.ready, false);
    assert.ok(toExecuting.unmet.includes('traceability.json does not exist'), toExecuting.unmet.join('; '));
    assert.throws(() => advance(spec, { now: NOW, confirm: true }), TransitionRefusedError);
    r.dispose();
  });
});
