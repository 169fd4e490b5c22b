import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MINUTES, parseWorkflow, WORKFLOW_FILE } from '../../../src/core/files/workflow';

const repo = resolve(__dirname, '../../fixtures/files/repo');
const parse = (text: string) => parseWorkflow('.loom/workflow.yaml', text);
const brief = (d: { line: number; column: number; message: string; code?: string }) => `${d.line}:${d.column} ${d.code} ${d.message.replace('.loom/workflow.yaml', '')}`;

describe('.loom/workflow.yaml', () => {
  it("lives where loom keeps it, with loom's defaults", () => {
    assert.equal(WORKFLOW_FILE, '.loom/workflow.yaml');
    assert.equal(DEFAULT_MAX_RETRIES, 3);
    assert.equal(DEFAULT_TIMEOUT_MINUTES, 30);
  });

  it('reads a realistic workflow: defaults, pipelines, inline lists, gates, step config', () => {
    const { workflow, diagnostics } = parse(readFileSync(resolve(repo, WORKFLOW_FILE), 'utf8'));
    assert.deepEqual(diagnostics, []);
    assert.ok(workflow);
    assert.deepEqual(workflow.defaults, { pipeline_type: 'feature', max_retries: 3, timeout_minutes: 30 });
    assert.deepEqual(Object.keys(workflow.pipelines ?? {}), ['feature', 'hotfix']);
    const feature = workflow.pipelines!.feature.steps;
    assert.deepEqual(
      feature.map((s) => s.id),
      ['brainstorming', 'detail-expansion', 'planning', 'approved', 'executing', 'verification', 'review-gate', 'synced'],
    );
    const executing = feature[4];
    assert.equal(executing.skill, 'loom-subagent-driven-development');
    assert.equal(executing.next, 'verification');
    assert.deepEqual(executing.requires, ['spec.md', 'requirements.json', 'plan.md', 'tasks/', 'traceability.json']);
    assert.deepEqual(executing.outputs, ['test-report.md', 'traceability.json', 'handoffs/executing.json']);
    assert.equal(executing.gate_verdict, 'test-report.md');
    assert.equal(executing.evidence_required, true);
    assert.deepEqual(executing.validators, ['task-state-closure', 'requirement-task-closure']);
    const approved = feature[3];
    assert.equal(approved.gate, 'human-approval');
    assert.deepEqual([approved.requires, approved.outputs, approved.validators, approved.approval_requires], [[], [], [], []]);
    assert.deepEqual(feature[6].approval_requires, ['review-feedback.md']);
    assert.equal(feature[7].next, undefined);
    const hotfix = workflow.pipelines!.hotfix.steps;
    assert.deepEqual(hotfix[0].config, { max_retries: 1 });
    assert.equal(hotfix[1].skill, null);
  });

  it('keeps unknown keys: step descriptions, reporting, step_catalog', () => {
    const { workflow } = parse(readFileSync(resolve(repo, WORKFLOW_FILE), 'utf8'));
    assert.deepEqual(workflow!.reporting, { on_complete: { enabled: true } });
    assert.deepEqual(workflow!.step_catalog, { brainstorming: { skill: 'loom-brainstorming' } });
    assert.equal(workflow!.pipelines!.feature.description, '新功能开发');
  });

  it('reads block lists too', () => {
    const { workflow, diagnostics } = parse('pipelines:\n  chore:\n    steps:\n      - id: executing\n        outputs:\n          - handoffs/executing.json\n');
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(workflow!.pipelines!.chore.steps[0].outputs, ['handoffs/executing.json']);
  });

  // loom 3's loadWorkflow throws "Failed to parse workflow from …" on an empty file or one of only
  // comments, and (requirePipelines, as loom run --advance asks) "Failed to parse any pipelines"
  // on one without pipelines or with `pipelines: {}`: each is an error, and no workflow is returned.
  it('refuses an empty file, one of comments only, and one without pipelines, as loom run does', () => {
    const empty = '1:1 schema : the file is empty (or only comments), and loom run refuses it ("Failed to parse workflow"); give it its pipelines (pipelines: <name>: steps: - id: …)';
    assert.deepEqual([parse('').workflow, parse('').diagnostics.map((d) => `${d.severity} ${brief(d)}`)], [undefined, [`error ${empty}`]]);
    assert.deepEqual(parse('# only a comment\n').diagnostics.map(brief), [empty]);
    const none = 'schema : no pipelines are declared, and loom run refuses that ("Failed to parse any pipelines"); add them (pipelines: <name>: steps: - id: …)';
    const defaultsOnly = parse('defaults:\n  max_retries: "3"\n');
    assert.deepEqual([defaultsOnly.workflow, defaultsOnly.diagnostics.map(brief)], [undefined, [`1:1 ${none}`]]);
    assert.deepEqual(parse('defaults:\n  pipeline_type: feature\npipelines: {}\n').diagnostics.map(brief), [`3:1 ${none}`]);
  });

  it('reports a YAML syntax error at its line', () => {
    const text = 'defaults:\n  max_retries: 3\npipelines:\n  feature:\n    steps:\n      - id: planning\n        outputs: [plan.md, tasks/\n      - id: executing\n';
    const { workflow, diagnostics } = parse(text);
    assert.equal(workflow, undefined);
    assert.equal(diagnostics.length > 0, true);
    assert.ok(diagnostics.every((d) => d.code === 'yaml-syntax' && d.severity === 'error' && d.file === '.loom/workflow.yaml'));
    assert.deepEqual(
      diagnostics.map((d) => d.line),
      [8],
    );
  });

  it('reports a duplicate key at the second one', () => {
    assert.deepEqual(parse('defaults:\n  max_retries: 3\n  max_retries: 4\n').diagnostics.map(brief), ['3:3 yaml-syntax  is not valid YAML: Map keys must be unique']);
  });

  it('reports tabs used for indentation', () => {
    const d = parse('pipelines:\n  feature:\n    steps:\n\t- id: a\n').diagnostics;
    assert.equal(d[0].line, 4);
    assert.equal(d[0].message, '.loom/workflow.yaml is not valid YAML: Tabs are not allowed as indentation');
  });

  it('reports what loom would misread as an error, what it reads its own way as a warning, each at its key', () => {
    const text = [
      'defaults:',
      '  max_retries: 3',
      'pipelines:',
      '  feature:',
      '    steps:',
      '      - id: planning',
      '        requires: plan.md',
      '      - id: executing',
      '        evidence_required: "yes"',
      '        config:',
      '          max_retries: five',
    ].join('\n');
    const { workflow, diagnostics } = parse(text);
    assert.equal(workflow, undefined);
    assert.deepEqual(
      diagnostics.map((d) => `${d.severity} ${brief(d)}`),
      [
        'error 7:9 schema : "requires" of step "planning" must be a list such as [a, b] (loom would read the text letter by letter)',
        'warning 9:9 schema : "evidence_required" of step "executing" is "yes"; loom requires evidence only for true, so it is read as false',
        'warning 11:11 schema : "pipelines.feature.steps.1.config.max_retries" is "five", which is not a count the extension can use; it uses 3 (loom does not read it)',
      ],
    );
  });

  it('warns of steps written as a mapping at the pipeline and reads it as no steps (loom normalizePipelines)', () => {
    const text = 'pipelines:\n  feature:\n    steps:\n      id: planning\n  bugfix:\n    - id: executing\n';
    const { workflow, diagnostics } = parse(text);
    assert.deepEqual(
      diagnostics.map((d) => `${d.severity} ${brief(d)}`),
      ['warning 2:3 schema : pipeline "feature" is not a list of steps (loom would read it as a pipeline with no steps)'],
    );
    assert.deepEqual([workflow!.pipelines!.feature.steps, workflow!.pipelines!.bugfix.steps.map((s) => s.id)], [[], ['executing']]);
  });

  it('reports a step without an id at that step', () => {
    const text = 'pipelines:\n  feature:\n    steps:\n      - id: a\n      - skill: loom-writing-plans\n        next: approved\n';
    assert.deepEqual(parse(text).diagnostics.map(brief), ['5:9 schema : pipeline "feature" has a step missing "id"']);
  });

  it('says which defaults cannot be used, and uses its own', () => {
    const text = 'defaults:\n  pipeline_type: feature\n  max_retries: -1\n  timeout_minutes: 0\npipelines:\n  feature: [{ id: a }]\n';
    const { workflow, diagnostics } = parse(text);
    assert.deepEqual(workflow?.defaults, { pipeline_type: 'feature' });
    assert.deepEqual(
      diagnostics.map((d) => `${d.severity} ${brief(d)}`),
      [
        'warning 3:3 schema : "defaults.max_retries" is -1, which is not a count the extension can use; it uses 3 (loom does not read it)',
        'warning 4:3 schema : "defaults.timeout_minutes" is 0, which is not a count the extension can use; it uses 30 (loom does not read it)',
      ],
    );
  });

  it('reports a file that is not a mapping at the top level', () => {
    assert.deepEqual(parse('- a\n- b\n').diagnostics.map(brief), ['1:1 schema  is not a mapping; loom cannot read a workflow from it (check the 2-space indentation)']);
  });

  it('reports an alias bomb instead of throwing', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let n = 0; n < 8; n++)
      lines.push(
        `${String.fromCharCode(98 + n)}: &${String.fromCharCode(98 + n)} [${Array(10)
          .fill(`*${String.fromCharCode(97 + n)}`)
          .join(', ')}]`,
      );
    const { workflow, diagnostics } = parse(lines.join('\n'));
    assert.equal(workflow, undefined);
    assert.equal(diagnostics.length, 1);
    assert.equal(brief(diagnostics[0]), '1:1 yaml-syntax  is not valid YAML: Excessive alias count indicates a resource exhaustion attack');
  });
});
