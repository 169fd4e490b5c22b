import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPipelineDefinition, stageOf, transitionsFrom } from '../../../src/core/pipeline/pipelineDefinition';
import { bundledPipelineSchema } from '../../../src/core/pipeline/pipelineSchema';
import { compilePrecondition } from '../../../src/core/pipeline/preconditionGuards';
import { parseWorkflow } from '../../../src/core/files/workflow';

const schema = bundledPipelineSchema();

test('without workflow.yaml the full feature pipeline of the schema, in loom order', () => {
  const def = buildPipelineDefinition(schema, undefined, 'feature');
  assert.equal(def.source, 'schema');
  assert.deepEqual(
    def.stages.map((s) => s.id),
    [
      'brainstorming',
      'detail-expansion',
      'planning',
      'analyze-artifacts',
      'approved',
      'git-worktree',
      'executing',
      'converge',
      'verification',
      'code-review-request',
      'review-gate',
      'code-review-response',
      'synced',
    ],
  );
  assert.equal(def.initial, 'brainstorming');
  assert.deepEqual(def.recoveryTargets, ['brainstorming', 'executing', 'verification']);
  assert.equal(stageOf(def, 'synced')!.terminal, true);
  assert.equal(stageOf(def, 'approved')!.confirmation, false);
  assert.equal(stageOf(def, 'brainstorming')!.confirmation, true);
});

test('forward, retry and fail transitions come from allowedTransitions', () => {
  const def = buildPipelineDefinition(schema, undefined, 'feature');
  const converge = transitionsFrom(def, 'converge').map((t) => `${t.kind}:${t.to}`);
  assert.deepEqual(converge, ['forward:verification', 'retry:executing', 'fail:failed']);
  assert.deepEqual(
    transitionsFrom(def, 'verification').map((t) => `${t.kind}:${t.to}`),
    ['forward:code-review-request', 'retry:executing', 'fail:failed'],
  );
  assert.deepEqual(transitionsFrom(def, 'synced'), []);
  const retry = transitionsFrom(def, 'converge').find((t) => t.kind === 'retry')!;
  assert.ok(retry.guards.some((g) => g.type === 'convergenceRoundsLeft'));
  assert.ok(
    retry.guards.some((g) => g.type === 'worktreeExists'),
    'entering executing needs the worktree',
  );
});

test('schema preconditions compile into named guards', () => {
  const def = buildPipelineDefinition(schema, undefined, 'feature');
  const types = (id: string) => stageOf(def, id)!.enter.map((g) => (g.type === 'fileExists' ? `file:${g.params.path}` : g.type));
  assert.deepEqual(types('approved'), ['file:plan.md', 'file:tasks/', 'file:traceability.json', 'file:spec.md', 'file:requirements.json', 'file:artifact-analysis.json', 'analysisHasNoBlocker']);
  assert.deepEqual(types('executing'), ['file:plan.md', 'file:tasks/', 'file:traceability.json', 'worktreeExists']);
  assert.ok(types('verification').includes('traceabilityClosed'));
  assert.ok(types('verification').includes('convergenceConverged'));
  assert.ok(types('verification').includes('reviewerPassed'));
  assert.ok(types('verification').includes('reportPasses'));
  // Loom validates a receipt only where a step says evidence_required, so the schema's checks do not.
  assert.deepEqual(types('synced'), ['reportPasses', 'testsExitZero']);
  // "通过 review-gate 前 review-feedback.md 必须存在" is a condition for leaving review-gate.
  assert.ok(stageOf(def, 'review-gate')!.exit.some((g) => g.type === 'fileExists' && g.params.path === 'review-feedback.md'));
  assert.ok(!stageOf(def, 'review-gate')!.enter.some((g) => g.type === 'fileExists' && g.params.path === 'review-feedback.md'));
});

test('outputs that loom does not require for advancing are not exit checks', () => {
  const def = buildPipelineDefinition(schema, undefined, 'feature');
  assert.deepEqual(stageOf(def, 'analyze-artifacts')!.outputs, ['handoffs/analyze-artifacts.json']);
  assert.deepEqual(stageOf(def, 'planning')!.outputs, ['plan.md', 'tasks/', 'traceability.json']);
  assert.deepEqual(stageOf(def, 'converge')!.outputs, ['handoffs/converge.json']);
});

test('a precondition in words nothing can check is kept for the user to confirm', () => {
  const compiled = compilePrecondition({ type: 'review', description: '产品经理已签字', check: '产品经理签字' });
  assert.deepEqual(compiled.enter, []);
  assert.deepEqual(compiled.manual, ['产品经理已签字']);
  assert.deepEqual(compilePrecondition({ type: 'input', description: '用户提供需求描述', check: 'requirement 非空' }).manual, []);
});

const WORKFLOW = `defaults:
  pipeline_type: feature
  max_retries: 2
  timeout_minutes: 20
pipelines:
  bugfix:
    steps:
      - { id: brainstorming, next: planning, outputs: [spec.md], gate: human-approval }
      - { id: planning, next: executing, outputs: [plan.md, tasks/], validators: [planning-artifacts, artifact-analysis-pass] }
      - id: executing
        next: verification
        requires: [plan.md]
        gate_verdict: test-report.md
        evidence_required: true
        config: { max_retries: 5 }
      - { id: verification, next: null, validators: [verification-artifacts] }
`;

test('workflow.yaml steps define the pipeline of their type', () => {
  const { workflow, diagnostics } = parseWorkflow('.loom/workflow.yaml', WORKFLOW);
  assert.deepEqual(diagnostics, []);
  const def = buildPipelineDefinition(schema, workflow, 'bugfix');
  assert.equal(def.source, 'workflow');
  assert.deepEqual(
    def.stages.map((s) => s.id),
    ['brainstorming', 'planning', 'executing', 'verification'],
  );
  const executing = stageOf(def, 'executing')!;
  assert.equal(executing.maxRetries, 5);
  assert.equal(stageOf(def, 'planning')!.maxRetries, 2);
  assert.equal(executing.timeoutMinutes, 20);
  assert.ok(executing.enter.some((g) => g.type === 'fileExists' && g.params.path === 'plan.md'));
  assert.ok(executing.exit.some((g) => g.type === 'reportPasses' && g.params.path === 'test-report.md'));
  assert.ok(executing.exit.some((g) => g.type === 'evidenceReceiptValid' && g.params.required === true));
  assert.deepEqual(stageOf(def, 'planning')!.validators, ['planning-artifacts', 'artifact-analysis-pass']);
  assert.equal(stageOf(def, 'brainstorming')!.humanApproval, true);
  assert.equal(stageOf(def, 'verification')!.terminal, true);
  assert.deepEqual(
    transitionsFrom(def, 'verification').map((t) => `${t.kind}:${t.to}`),
    ['retry:executing'],
  );
  assert.deepEqual(def.recoveryTargets, ['brainstorming', 'executing', 'verification']);
  // A type the workflow does not declare falls back to the schema's full pipeline.
  assert.equal(buildPipelineDefinition(schema, workflow, 'feature').stages.length, 13);
});

// loom 3 pipeline-engine.js PipelineEngine.nextStep: the step after in the list; `next` is not read,
// so a checkpoint the steps omit (approved) is not a stage, and nothing is taken from the schema.
test('a next naming a stage the steps omit is not followed: the list order is the way forward', () => {
  const { workflow, diagnostics } = parseWorkflow(
    'w',
    `pipelines:\n  feature:\n    steps:\n      - { id: analyze-artifacts, next: approved }\n      - { id: git-worktree, next: executing }\n      - { id: executing }\n`,
  );
  const def = buildPipelineDefinition(schema, workflow, 'feature');
  assert.deepEqual(
    def.stages.map((s) => s.id),
    ['analyze-artifacts', 'git-worktree', 'executing'],
  );
  assert.deepEqual(
    transitionsFrom(def, 'analyze-artifacts')
      .filter((t) => t.kind === 'forward')
      .map((t) => t.to),
    ['git-worktree'],
  );
  assert.deepEqual(
    diagnostics.map((d) => [d.severity, d.line]),
    [['warning', 4]],
  );
});

test("a workflow step gives the exit checks loom's run --advance / --approve make", () => {
  const { workflow } = parseWorkflow(
    'w',
    [
      'pipelines:',
      '  feature:',
      '    steps:',
      '      - { id: executing, next: verification, requires: [plan.md], outputs: [test-report.md, tasks/], gate_verdict: test-report.md, evidence_required: true, validators: [task-state-closure] }',
      '      - { id: verification, next: review-gate, requires: [test-report.md], gate_verdict: review-feedback.md }',
      '      - { id: review-gate, gate: human-approval, approval_requires: [review-feedback.md], next: synced }',
      '      - { id: synced }',
      '',
    ].join('\n'),
  );
  const def = buildPipelineDefinition(schema, workflow, 'feature');
  const exit = (id: string) => stageOf(def, id)!.exit.map((g) => `${g.type}:${JSON.stringify(g.params)}`);
  // loom's advance checks the step's outputs (checkStageOutputs); the schema's traceability.json output is advice.
  assert.deepEqual(exit('executing'), [
    'fileExists:{"path":"test-report.md","noPlaceholders":true}',
    'fileExists:{"path":"tasks/","noPlaceholders":true}',
    'fileExists:{"path":"test-report.md"}',
    'reportPasses:{"path":"test-report.md"}',
    'evidenceReceiptValid:{"path":"test-report.md","required":true}',
    'validatorPasses:{"name":"task-state-closure","stage":"executing"}',
    'validatorPasses:{"name":"requirement-task-closure","stage":"executing"}',
  ]);
  // A gate_verdict is read as any report; the review rule belongs to a gate's approval_requires.
  assert.ok(exit('verification').includes('reportPasses:{"path":"review-feedback.md"}'));
  assert.ok(!exit('verification').some((g) => g.startsWith('evidenceReceiptValid')));
  assert.ok(exit('review-gate').includes('fileExists:{"path":"review-feedback.md","noPlaceholders":true}'));
  assert.ok(exit('review-gate').includes('reviewFeedbackPasses:{}'));
  assert.deepEqual(
    stageOf(def, 'executing')!.exitAdvice.map((g) => `${g.type}:${JSON.stringify(g.params)}`),
    ['fileExists:{"path":"traceability.json"}'],
  );
  assert.deepEqual(stageOf(def, 'executing')!.approvalArtifacts, ['plan.md', 'test-report.md', 'tasks/']);
  assert.deepEqual(stageOf(def, 'review-gate')!.approvalArtifacts, ['review-feedback.md']);
});
