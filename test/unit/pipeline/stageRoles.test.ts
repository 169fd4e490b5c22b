import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseWorkflow } from '../../../src/core/files/workflow';
import { buildPipelineDefinition } from '../../../src/core/pipeline/pipelineDefinition';
import { bundledPipelineSchema } from '../../../src/core/pipeline/pipelineSchema';
import { stageWithRole, type StageRole } from '../../../src/core/pipeline/stageRoles';
import { applyStageChange } from '../../../src/core/pipeline/stateRecord';
import { reviewGateOf } from '../../../src/core/review/codeReview';
import { handoffBasisPaths } from '../../../src/core/specdir/handoffFingerprints';
import type { PipelineState } from '../../../src/core/files/pipelineState';

const schema = bundledPipelineSchema();
const ROLES: StageRole[] = ['planning', 'analysis', 'worktree', 'tasks', 'convergence', 'verification', 'reviewGate'];

// A team's own names for loom's stages: the roles come from the steps' skills and gates, not the ids.
const RENAMED = `pipelines:
  team:
    steps:
      - { id: idea, skill: loom-brainstorming, outputs: [spec.md] }
      - { id: plan-it, skill: loom-writing-plans, outputs: [plan.md, tasks/] }
      - { id: cross-check, skill: loom-analyze-artifacts, outputs: [] }
      - { id: branch, skill: loom-using-git-worktrees, outputs: [] }
      - { id: build, skill: loom-subagent-driven-development, outputs: [test-report.md] }
      - { id: gaps, skill: loom-converge, outputs: [] }
      - { id: prove, skill: loom-verification-before-completion, outputs: [verify-report.md] }
      - { id: await-reviewer, gate: human-approval, approval_requires: [review-feedback.md] }
      - { id: ship }
`;

test("a pipeline's special stages are found from the steps' data, whatever their ids", () => {
  const { workflow, diagnostics } = parseWorkflow('.loom/workflow.yaml', RENAMED);
  assert.deepEqual(diagnostics, []);
  const def = buildPipelineDefinition(schema, workflow, 'team');
  assert.deepEqual(
    ROLES.map((role) => [role, stageWithRole(def, role)?.id]),
    [
      ['planning', 'plan-it'],
      ['analysis', 'cross-check'],
      ['worktree', 'branch'],
      ['tasks', 'build'],
      ['convergence', 'gaps'],
      ['verification', 'prove'],
      ['reviewGate', 'await-reviewer'],
    ],
  );
  assert.equal(reviewGateOf(def)?.id, 'await-reviewer', 'the comments on code follow the gate that waits for review-feedback.md');
  assert.equal(def.stages.find((s) => s.id === 'idea')!.role, undefined);
  assert.equal(def.stages.find((s) => s.id === 'ship')!.role, undefined);
});

test("without workflow.yaml, loom's own stages play their roles", () => {
  const def = buildPipelineDefinition(schema, undefined, 'feature');
  assert.deepEqual(
    ROLES.map((role) => stageWithRole(def, role)?.id),
    ['planning', 'analyze-artifacts', 'git-worktree', 'executing', 'converge', 'verification', 'review-gate'],
  );
});

test('the rounds of convergence are counted on leaving the convergence stage, as the caller that knows the pipeline says', () => {
  const base = { current_stage: 'gaps', stage_history: [], metadata: { convergence_round: 1 } } as unknown as PipelineState;
  const back = applyStageChange(base, { from: 'gaps', to: 'build', kind: 'retry', now: '2026-12-01T00:00:00.000Z', fromConvergence: true });
  assert.equal(back.metadata.convergence_round, 2);
  const elsewhere = applyStageChange({ ...base, current_stage: 'converge' }, { from: 'converge', to: 'executing', kind: 'retry', now: '2026-12-01T00:00:00.000Z', fromConvergence: false });
  assert.equal(elsewhere.metadata.convergence_round, 1, 'a stage called converge that is not the convergence stage counts nothing');
});

// loom 3 state-store.js writeHandoff: the basis follows the handoff's name (planning, executing, verification, T<n>).
test("a handoff's basis follows loom's names for the stages, through the roles", () => {
  assert.deepEqual(handoffBasisPaths('planning'), ['spec.md', 'plan.md', 'tasks/']);
  assert.deepEqual(handoffBasisPaths('executing'), ['spec.md', 'plan.md', 'tasks/']);
  assert.deepEqual(handoffBasisPaths('verification'), ['spec.md', 'plan.md', 'test-report.md']);
  assert.deepEqual(handoffBasisPaths('T3'), ['spec.md', 'plan.md', 'tasks/T3.md']);
  assert.deepEqual(handoffBasisPaths('converge'), ['spec.md', 'plan.md']);
});
