import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parseJsonDocument } from '../../../src/core/diagnostics/jsonDocument';
import { PIPELINE_STATE_FILE, PipelineStateSchema, plainPipelineState, type PipelineState } from '../../../src/core/files/pipelineState';
import { assertBadInputAsZod, assertPlainAsZod, variants } from './plainAsZod';
import { toJsonText } from '../../../src/core/fs/atomicWrite';

const specDir = resolve(__dirname, '../../fixtures/files/repo/specs/2026-11-20+user-login');
const stateText = readFileSync(join(specDir, PIPELINE_STATE_FILE), 'utf8');
const parse = (text: string) => parseJsonDocument('specs/s/pipeline.state.json', text, PipelineStateSchema());
const brief = (d: { line: number; column: number; message: string }) => `${d.line}:${d.column} ${d.message}`;

describe('pipeline.state.json', () => {
  it('is named as loom names it', () => {
    assert.equal(PIPELINE_STATE_FILE, 'pipeline.state.json');
  });

  it('reads a realistic state with its whole stage_history', () => {
    const { value, diagnostics } = parse(stateText);
    assert.deepEqual(diagnostics, []);
    assert.ok(value);
    assert.equal(value.spec_dir, 'specs/2026-11-20+user-login');
    assert.equal(value.pipeline_type, 'feature');
    assert.equal(value.current_stage, 'executing');
    assert.equal(value.loom_version, '2.3.1');
    assert.equal(value.current_stage_started_at, '2026-11-21T08:00:00.000Z');
    assert.deepEqual(
      value.stage_history.map((h) => `${h.stage}:${h.status}`),
      ['brainstorming:passed', 'detail-expansion:passed', 'planning:retry', 'planning:passed', 'analyze-artifacts:passed', 'approved:passed', 'git-worktree:passed'],
    );
    const retry = value.stage_history[2];
    assert.equal(retry.retry_from, 'planning');
    assert.equal(retry.validator, 'planning-artifacts');
    assert.equal(retry.reason, 'planning-artifacts: REQ-002-B01 maps to no task in traceability.json');
    const approval = value.stage_history[5];
    assert.equal(approval.approval, 'user_confirmed');
    assert.equal(approval.approved_at, '2026-11-21T07:58:00.000Z');
    assert.deepEqual(Object.keys(approval.approval_fingerprints ?? {}), ['spec.md', 'requirements.json', 'plan.md']);
    assert.deepEqual(value.metadata, { convergence_round: 0, branch: 'feature/user-login', worktree: '../user-login-wt' });
  });

  it('keeps unknown keys, at the top level and in history entries', () => {
    const value = parse(stateText).value!;
    assert.deepEqual(value.hook_results, { 'pre-executing': 'ok' });
    assert.equal(value.stage_history[3].duration_ms, 1500000);
  });

  it('round-trips through the extension without losing anything loom wrote', () => {
    const value = parse(stateText).value!;
    assert.deepEqual(JSON.parse(toJsonText(value)), JSON.parse(stateText));
  });

  it('round-trips a state the extension changed, keeping unknown keys, and reads back', () => {
    const value: PipelineState = parse(stateText).value!;
    const next: PipelineState = {
      ...value,
      current_stage: 'failed',
      failure_reason: 'T2 exceeded max_retries',
      stage_history: [...value.stage_history, { stage: 'executing', status: 'failed', reason: 'T2 exceeded max_retries', terminal: true }],
    };
    const text = toJsonText(next);
    assert.ok(text.endsWith('}\n'));
    assert.ok(text.startsWith('{\n  "'));
    const reread = parse(text);
    assert.deepEqual(reread.diagnostics, []);
    assert.equal(reread.value!.current_stage, 'failed');
    assert.equal(reread.value!.stage_history.length, 8);
    assert.equal(reread.value!.stage_history[7].terminal, true);
    assert.deepEqual((JSON.parse(text) as Record<string, unknown>).hook_results, { 'pre-executing': 'ok' });
  });

  it('fills in stage_history and metadata when loom left them out', () => {
    const { value } = parse('{"current_stage": "brainstorming"}');
    assert.deepEqual(value, { current_stage: 'brainstorming', stage_history: [], metadata: {} });
  });

  it('accepts the failed stage with a failure_reason and dynamic_steps', () => {
    const { value, diagnostics } = parse(
      JSON.stringify({
        current_stage: 'failed',
        failure_reason: '验证失败',
        dynamic_steps: [{ id: 'planning' }, 'executing'],
      }),
    );
    assert.deepEqual(diagnostics, []);
    assert.equal(value!.failure_reason, '验证失败');
    assert.deepEqual(value!.dynamic_steps, [{ id: 'planning' }, 'executing']);
  });

  it('reports a missing comma on line 4 at the exact spot', () => {
    const text = ['{', '  "spec_dir": "specs/2026-11-20+user-login",', '  "pipeline_type": "feature",', '  "current_stage": "planning"', '  "loom_version": "2.3.1"', '}'].join('\n');
    const { value, diagnostics } = parse(text);
    assert.equal(value, undefined);
    assert.deepEqual(diagnostics, [
      {
        file: 'specs/s/pipeline.state.json',
        line: 5,
        column: 3,
        severity: 'error',
        code: 'json-syntax',
        message: `specs/s/pipeline.state.json is not valid JSON: expected ',' or '}' after property value but found '"'`,
      },
    ]);
  });

  it('reports a truncated file (a crash mid-write) at its end', () => {
    const text = stateText.slice(0, stateText.indexOf('"metadata"'));
    const d = parse(text).diagnostics;
    assert.equal(d.length, 1);
    assert.equal(d[0].code, 'json-syntax');
    assert.equal(d[0].line, text.split('\n').length);
  });

  it('reports a wrong history status at the status key of that entry', () => {
    const text = ['{', '  "current_stage": "planning",', '  "stage_history": [', '    {', '      "stage": "brainstorming",', '      "status": "done"', '    }', '  ]', '}'].join('\n');
    assert.deepEqual(parse(text).diagnostics.map(brief), ['6:7 specs/s/pipeline.state.json: "stage_history.0.status": Invalid option: expected one of "passed"|"failed"|"retry"']);
  });

  it('reports a wrong approval value and a wrong type, each at its own key', () => {
    const text = [
      '{',
      '  "current_stage": "approved",',
      '  "metadata": [],',
      '  "stage_history": [',
      '    { "stage": "planning", "status": "passed" },',
      '    {',
      '      "stage": "approved",',
      '      "status": "passed",',
      '      "approval": "yes"',
      '    }',
      '  ]',
      '}',
    ].join('\n');
    assert.deepEqual(parse(text).diagnostics.map(brief), [
      '9:7 specs/s/pipeline.state.json: "stage_history.1.approval": Invalid input: expected "user_confirmed"',
      '3:3 specs/s/pipeline.state.json: "metadata": Invalid input: expected record, received array',
    ]);
  });

  it('reports a missing current_stage at the top level, and a numeric one at its key', () => {
    assert.deepEqual(parse('{\n  "pipeline_type": "feature"\n}').diagnostics.map(brief), ['1:1 specs/s/pipeline.state.json: "current_stage": Invalid input: expected string, received undefined']);
    assert.deepEqual(parse('{\n  "pipeline_type": "feature",\n  "current_stage": 3\n}').diagnostics.map(brief), [
      '3:3 specs/s/pipeline.state.json: "current_stage": Invalid input: expected string, received number',
    ]);
  });

  it('reports a history entry without a stage at that entry', () => {
    const text = '{\n  "current_stage": "x",\n  "stage_history": [\n    { "status": "passed" }\n  ]\n}';
    assert.deepEqual(parse(text).diagnostics.map(brief), ['4:5 specs/s/pipeline.state.json: "stage_history.0.stage": Invalid input: expected string, received undefined']);
  });
});

describe("plainPipelineState (the status run's check without zod)", () => {
  const entry = {
    stage: 'brainstorming',
    entered_at: '2026-11-20T09:00:00.000Z',
    exited_at: '2026-11-20T09:10:00.000Z',
    status: 'passed',
    reason: 'ok',
    approval: 'user_confirmed',
    approved_at: '2026-11-20T09:10:00.000Z',
    approval_fingerprints: { 'spec.md': 'abc' },
    superseded_approvals: [{ approved_at: 'x', approval_fingerprints: { a: 'b' }, superseded_at: 'y', reason: 'z', more: 1 }],
    retry_from: 'planning',
    validator: null,
    recovery_from: 'executing',
    terminal: false,
    kept: 1,
  };
  const entryValues: Record<string, unknown[]> = {
    stage: ['planning', '', 3],
    status: ['failed', 'nonsense'],
    approval: ['someone', null],
    approval_fingerprints: [{ a: 1 }, 'x'],
    superseded_approvals: [[], [{}], [{ reason: 3 }], 'x'],
    validator: ['convergence', 3],
    terminal: [true, 'yes'],
  };
  const good = {
    spec_dir: 'specs/2026-11-20+user-login',
    pipeline_type: 'feature',
    current_stage: 'planning',
    loom_version: '3.0.0',
    started_at: 'a',
    updated_at: 'b',
    current_stage_started_at: 'c',
    stage_history: [entry],
    metadata: { anything: [1, { a: null }] },
    dynamic_steps: [{ id: 'x' }, 'y'],
    failure_reason: 'broke',
    extra: { kept: true },
  };
  const values: Record<string, unknown[]> = {
    spec_dir: [3],
    pipeline_type: ['bugfix', ''],
    current_stage: ['executing', '', null],
    loom_version: [3],
    stage_history: [[], 'x', [null]],
    metadata: [{}, [], null],
    dynamic_steps: [[], 'x'],
    failure_reason: [false],
  };
  const inputs: unknown[] = [
    null,
    [],
    {},
    ...variants(good, values),
    ...variants({ current_stage: 'x' }, values),
    ...variants(entry, entryValues).map((e) => ({ current_stage: 'x', stage_history: [entry, e] })),
  ];

  it('gives what zod gives, key order included, or leaves the value to zod', () => {
    assertPlainAsZod(inputs, plainPipelineState(), PipelineStateSchema());
  });

  it('answers for the state loom writes', () => {
    const raw = JSON.parse(stateText);
    assert.ok(plainPipelineState()(raw));
    assert.equal(JSON.stringify(plainPipelineState()(raw)), JSON.stringify(PipelineStateSchema().parse(raw)));
  });

  it('names the file and the key on bad input, as zod alone does', () => {
    assertBadInputAsZod(
      'specs/s/pipeline.state.json',
      ['{"current_stage": 3}', '{"current_stage": "x", "stage_history": [{"status": "passed"}]}', '{"current_stage": "x", "metadata": []}'],
      plainPipelineState(),
      PipelineStateSchema(),
    );
  });
});
