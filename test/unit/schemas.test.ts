import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import type { z } from 'zod';
import { generateSchemas, SCHEMA_ID_BASE, SCHEMA_TARGETS, TRACEABILITY_ALIASES } from '../../scripts/schemaGeneration';
import { ArtifactAnalysisSchema, ConvergenceReportSchema, FindingsFileSchema } from '../../src/core/files/findings';
import { HandoffSchema } from '../../src/core/files/handoff';
import { PipelineStateSchema } from '../../src/core/files/pipelineState';
import { RequirementsFileSchema } from '../../src/core/files/requirements';
import { TaskFrontmatterSchema } from '../../src/core/files/taskFile';
import { TaskStateSchema } from '../../src/core/files/taskState';
import { TraceabilityFileSchema } from '../../src/core/files/traceability';
import { WorkflowSchema } from '../../src/core/files/workflow';
import { validate, type JsonSchema } from '../support/jsonSchemaSubset';

const repoRoot = resolve(__dirname, '..', '..');
const schemasDir = join(repoRoot, 'schemas');
const referenceDir = join(repoRoot, 'test', 'fixtures', 'reference');

const generated = generateSchemas();
type Schema = Record<string, any>;
const schema = (file: string): Schema => {
  const text = generated.get(file);
  assert.ok(text, `${file} is not generated`);
  return JSON.parse(text) as Schema;
};
const reference = (file: string): Schema => JSON.parse(readFileSync(join(referenceDir, file), 'utf8')) as Schema;

const EXPECTED_FILES = [
  'requirements.schema.json',
  'traceability.schema.json',
  'task-frontmatter.schema.json',
  'handoff.schema.json',
  'pipeline-state.schema.json',
  'task-state.schema.json',
  'workflow.schema.json',
  'findings.schema.json',
  'artifact-analysis.schema.json',
  'convergence-report.schema.json',
];

describe('generated JSON Schemas', () => {
  it('are committed in schemas/ and up to date', () => {
    const stale: string[] = [];
    for (const [file, text] of generated) {
      const path = join(schemasDir, file);
      if (!existsSync(path)) stale.push(`schemas/${file} is missing`);
      else if (readFileSync(path, 'utf8') !== text) stale.push(`schemas/${file} is stale`);
    }
    assert.deepEqual(stale, [], `${stale.join('; ')}. Run \`npm run schemas\` and commit the result.`);
  });

  it("cover every kind of loom file, and never loom's own pipeline.schema.json", () => {
    assert.deepEqual([...generated.keys()].sort(), [...EXPECTED_FILES].sort());
    assert.ok(!generated.has('pipeline.schema.json'));
  });

  it('are deterministic: 2-space JSON with a trailing newline, identical on every run', () => {
    assert.deepEqual(generateSchemas(), generated);
    for (const [file, text] of generated) {
      assert.equal(text, `${JSON.stringify(JSON.parse(text), null, 2)}\n`, file);
    }
  });

  it('each declare draft-07, an $id, a title and the loom file they describe', () => {
    for (const target of SCHEMA_TARGETS) {
      const s = schema(target.file);
      assert.deepEqual(Object.keys(s).slice(0, 4), ['$schema', '$id', 'title', 'description'], target.file);
      assert.equal(s.$schema, 'http://json-schema.org/draft-07/schema#', target.file);
      assert.equal(s.$id, `${SCHEMA_ID_BASE}${target.file}`);
      assert.match(s.title, /^loom /, target.file);
      assert.match(s.description, /\.json|\.yaml|\.md/, `${target.file} should name the loom file it describes`);
      assert.match(s.description, /npm run schemas/, target.file);
    }
  });
});

describe('schemas/pipeline.schema.json', () => {
  it("is loom's published pipeline definition, byte for byte", () => {
    assert.ok(
      readFileSync(join(schemasDir, 'pipeline.schema.json')).equals(readFileSync(join(referenceDir, 'pipeline.schema.json'))),
      "schemas/pipeline.schema.json differs from test/fixtures/reference/pipeline.schema.json (loom's copy)",
    );
  });
});

interface Sample {
  name: string;
  value: unknown;
  valid: boolean;
  /** Also valid under loom's own published schema of that name (test/fixtures/reference/). */
  loomReference?: string;
}

const behavior = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  category: 'happy-path',
  description: 'Exports the report as CSV',
  status: 'failing',
  acceptance: ['a CSV file is downloaded'],
  ...extra,
});
const requirement = (extra: Record<string, unknown> = {}) => ({
  status: 'in_progress',
  types: ['functional'],
  required_categories: ['happy-path'],
  acceptance: ['export works'],
  behaviors: [behavior('REQ-001-B01')],
  ...extra,
});
const finding = { id: 'F1', kind: 'missing', severity: 'blocker', message: 'REQ-002 has no task', requirement_id: 'REQ-002', location: { file: 'plan.md', line: 3 } };

const SAMPLES: { file: string; zod: z.ZodType; samples: Sample[] }[] = [
  {
    file: 'requirements.schema.json',
    zod: RequirementsFileSchema(),
    samples: [
      { name: 'the array form', valid: true, loomReference: 'requirements.schema.json', value: { requirements: [{ id: 'REQ-001', ...requirement() }] } },
      {
        name: 'the object form keyed by id',
        valid: true,
        loomReference: 'requirements.schema.json',
        value: { requirements: { 'REQ-001': requirement(), 'REQ-1234': requirement({ behaviors: [] }) } },
      },
      {
        name: 'a behavior with test_plan and applicability after detail expansion',
        valid: true,
        value: {
          requirements: [
            {
              id: 'REQ-001',
              ...requirement({
                behaviors: [
                  behavior('REQ-001-B01', {
                    test_plan: { strategy: 'unit', inputs: ['empty report'], expected: [{ rows: 0 }], coverage_target: '100%' },
                    applicability: 'applicable',
                  }),
                ],
              }),
            },
          ],
        },
      },
      { name: 'a behavior without acceptance', valid: false, value: { requirements: [{ id: 'REQ-001', ...requirement({ behaviors: [{ ...behavior('REQ-001-B01'), acceptance: undefined }] }) }] } },
      { name: 'a behavior with an empty acceptance list', valid: false, value: { requirements: [{ id: 'REQ-001', ...requirement({ behaviors: [behavior('REQ-001-B01', { acceptance: [] })] }) }] } },
      { name: 'an unknown behavior category', valid: false, value: { requirements: [{ id: 'REQ-001', ...requirement({ behaviors: [behavior('REQ-001-B01', { category: 'vibes' })] }) }] } },
      { name: 'a malformed requirement id', valid: false, value: { requirements: [{ id: 'REQ-1', ...requirement() }] } },
      { name: 'an unknown status', valid: false, value: { requirements: { 'REQ-001': requirement({ status: 'done' }) } } },
      { name: 'no requirements key', valid: false, value: {} },
    ],
  },
  {
    file: 'traceability.schema.json',
    zod: TraceabilityFileSchema(),
    samples: [
      {
        name: 'the canonical object form',
        valid: true,
        loomReference: 'traceability.schema.json',
        value: {
          requirements: {
            'REQ-001': {
              tasks: ['T1'],
              tests: ['tests/export.test.ts#exports csv'],
              evidence: ['evidence/test.log'],
              behaviors: { 'REQ-001-B01': { tasks: ['T1.md'], tests: ['tests/test_export.py::test_csv'], evidence: [] } },
            },
          },
        },
      },
      { name: 'the array form', valid: true, loomReference: 'traceability.schema.json', value: { requirements: [{ id: 'REQ-001', tasks: ['T1'], tests: [], evidence: [] }] } },
      {
        name: 'the aliases task_ids, test_refs and receipts',
        valid: true,
        value: {
          requirements: [
            {
              id: 'REQ-001',
              task_ids: ['T1'],
              test_refs: ['tests/a.test.ts'],
              receipts: ['evidence/a.log'],
              behaviors: { 'REQ-001-B01': { task_ids: ['T1'], test_ids: ['tests/a.test.ts#b01'], evidence_refs: ['evidence/a.log'] } },
            },
          ],
        },
      },
      { name: 'an entry that names no lists at all', valid: true, value: { requirements: { 'REQ-001': { behaviors: { 'REQ-001-B01': {} } } } } },
      { name: 'tasks given as a string', valid: false, value: { requirements: { 'REQ-001': { tasks: 'T1', tests: [], evidence: [] } } } },
      { name: 'an alias holding a non-list', valid: false, value: { requirements: { 'REQ-001': { test_refs: 7 } } } },
      { name: 'an array entry without id', valid: false, value: { requirements: [{ tasks: [], tests: [], evidence: [] }] } },
    ],
  },
  {
    file: 'task-frontmatter.schema.json',
    zod: TaskFrontmatterSchema(),
    samples: [
      {
        name: 'inline lists',
        valid: true,
        value: { owns: ['src/a/', 'src/b.ts'], reads: [], depends_on: ['T1', 'T2.md'], requirements: ['REQ-001'], behavior_ids: ['REQ-001-B01'], complexity: 'medium' },
      },
      { name: 'a lone string, an empty key and a number', valid: true, value: { owns: 'src/a.ts', reads: null, depends_on: [1] } },
      { name: 'no keys', valid: true, value: {} },
      { name: 'an unknown complexity', valid: false, value: { owns: ['src/a.ts'], complexity: 'extreme' } },
      { name: 'a mapping where a list belongs', valid: false, value: { owns: { path: 'src/a.ts' } } },
    ],
  },
  {
    file: 'handoff.schema.json',
    zod: HandoffSchema(),
    samples: [
      {
        name: 'a stage handoff',
        valid: true,
        value: { status: 'done', summary: 'Plan written', artifacts: ['plan.md'], stage: 'planning', written_at: '2025-01-02T03:04:05Z', basis_fingerprints: { 'spec.md': 'ab'.repeat(32) } },
      },
      {
        name: 'a task handoff',
        valid: true,
        value: {
          task_id: 'T1',
          status: 'partial',
          summary: 'Exporter done',
          artifacts: [],
          exported_interfaces: [{ name: 'exportCsv', path: 'src/export.ts', signature: '(r: Report) => string' }],
          breaking_changes: [],
          requirements_verified: ['REQ-001'],
          notes: ['streaming left for T2'],
          artifact_fingerprints: {},
        },
      },
      // loom's readers take any handoff: `handoff write` without --summary, the compaction hook's pending.
      { name: 'no summary', valid: true, value: { status: 'done' } },
      { name: "the compaction hook's pending status", valid: true, value: { status: 'pending', summary: 'compacted' } },
      { name: 'a status that is not a string', valid: false, value: { status: 3, summary: 'x' } },
    ],
  },
  {
    file: 'pipeline-state.schema.json',
    zod: PipelineStateSchema(),
    samples: [
      {
        name: 'a state with history',
        valid: true,
        value: {
          spec_dir: 'specs/2025-01-02-export',
          pipeline_type: 'feature',
          current_stage: 'planning',
          loom_version: '1.4.0',
          started_at: '2025-01-02T03:04:05Z',
          updated_at: '2025-01-02T04:00:00Z',
          current_stage_started_at: '2025-01-02T04:00:00Z',
          stage_history: [
            {
              stage: 'brainstorming',
              entered_at: '2025-01-02T03:04:05Z',
              exited_at: '2025-01-02T03:30:00Z',
              status: 'passed',
              approval: 'user_confirmed',
              approved_at: '2025-01-02T03:29:00Z',
              approval_fingerprints: { 'spec.md': 'cd'.repeat(32) },
            },
            { stage: 'detail-expansion', status: 'retry', reason: 'placeholders left', retry_from: 'detail-expansion', validator: 'detail-expansion-pass' },
          ],
          metadata: { convergence_round: 1 },
          dynamic_steps: ['security-review'],
        },
      },
      { name: 'a failed pipeline', valid: true, value: { current_stage: 'failed', failure_reason: 'validator crashed', stage_history: [{ stage: 'planning', status: 'failed', terminal: true }] } },
      { name: 'no current_stage', valid: false, value: { pipeline_type: 'feature', stage_history: [] } },
      { name: 'a history status loom does not write', valid: false, value: { current_stage: 'planning', stage_history: [{ stage: 'brainstorming', status: 'done' }] } },
    ],
  },
  {
    file: 'task-state.schema.json',
    zod: TaskStateSchema(),
    samples: [
      {
        name: 'a fresh task',
        valid: true,
        value: {
          task_id: 'T1',
          spec_dir: 'specs/x',
          status: 'pending',
          retry_count: 0,
          agent_session_id: null,
          created_at: '2025-01-02T03:04:05Z',
          updated_at: '2025-01-02T03:04:05Z',
          last_reviewer_result: null,
          blocker: null,
        },
      },
      { name: 'a blocked task without retry_count', valid: true, value: { task_id: 'fix_login-2', status: 'blocked', blocker: 'needs credentials' } },
      { name: 'an unknown status', valid: false, value: { task_id: 'T1', status: 'running' } },
      { name: 'a task id starting with a digit', valid: false, value: { task_id: '1T', status: 'done' } },
      { name: 'a negative retry_count', valid: false, value: { task_id: 'T1', status: 'failed', retry_count: -1 } },
    ],
  },
  {
    file: 'workflow.schema.json',
    zod: WorkflowSchema(),
    samples: [
      {
        name: 'defaults and a pipeline',
        valid: true,
        value: {
          defaults: { pipeline_type: 'feature', max_retries: 3, timeout_minutes: 30 },
          pipelines: {
            feature: {
              steps: [
                { id: 'brainstorming', skill: 'loom-brainstorming', next: 'planning', requires: [], outputs: ['spec.md'], gate: 'human-approval' },
                {
                  id: 'executing',
                  skill: 'loom-subagent-driven-development',
                  requires: ['plan.md'],
                  gate_verdict: 'test-report.md',
                  evidence_required: true,
                  validators: ['task-state-closure'],
                  approval_requires: [],
                  config: { max_retries: 5 },
                },
                { id: 'done', next: null, requires: null },
              ],
            },
          },
        },
      },
      { name: 'an empty file', valid: true, value: {} },
      // loom's normalizePipelines takes a pipeline that is already a list of steps as it is.
      {
        name: 'a bare list of steps with counts in quotes',
        valid: true,
        value: { defaults: { max_retries: '3' }, pipelines: { bugfix: [{ id: 'planning' }, { id: 'executing', config: { max_retries: '2' } }] } },
      },
      { name: 'a list written as text', valid: false, value: { pipelines: { bugfix: [{ id: 'executing', requires: 'plan.md' }] } } },
      { name: 'a step without id', valid: false, value: { pipelines: { feature: { steps: [{ skill: 'x' }] } } } },
      { name: 'a negative max_retries', valid: false, value: { defaults: { max_retries: -1 } } },
    ],
  },
  {
    file: 'findings.schema.json',
    zod: FindingsFileSchema(),
    samples: [
      { name: 'findings with a summary', valid: true, loomReference: 'finding.schema.json', value: { findings: [finding], summary: { blockers: 1 } } },
      { name: 'an unknown severity', valid: false, value: { findings: [{ ...finding, severity: 'fatal' }] } },
      { name: 'an empty message', valid: false, value: { findings: [{ ...finding, message: '' }] } },
    ],
  },
  {
    file: 'artifact-analysis.schema.json',
    zod: ArtifactAnalysisSchema(),
    samples: [
      { name: 'a blocked analysis', valid: true, value: { stage: 'artifact-analysis', status: 'blocked', coverage: { requirement_coverage: '92%' }, findings: [finding], blocker_count: 1 } },
      { name: 'a bare pass', valid: true, value: { status: 'pass' } },
      { name: 'an unknown status', valid: false, value: { status: 'passed' } },
      { name: 'a fractional blocker_count', valid: false, value: { status: 'blocked', blocker_count: 1.5 } },
    ],
  },
  {
    file: 'convergence-report.schema.json',
    zod: ConvergenceReportSchema(),
    samples: [
      {
        name: 'a report needing another round',
        valid: true,
        value: {
          stage: 'convergence',
          round: 2,
          status: 'needs_another_round',
          classification: { 'REQ-001-B01': 'covered', 'REQ-001-B02': 'missing' },
          findings: [finding],
          coverage: {},
          blocker_count: 1,
        },
      },
      { name: 'an unknown status', valid: false, value: { status: 'done' } },
      { name: 'a classification that is not a string', valid: false, value: { status: 'converged', classification: { 'REQ-001-B01': true } } },
    ],
  },
];

describe('generated schemas agree with the zod schemas on sample loom files', () => {
  for (const { file, zod, samples } of SAMPLES) {
    for (const sample of samples) {
      it(`${file} ${sample.valid ? 'accepts' : 'rejects'} ${sample.name}`, () => {
        const errors = validate(schema(file) as JsonSchema, sample.value);
        assert.equal(errors.length === 0, sample.valid, `JSON Schema: ${errors.join('; ') || 'no errors'}`);
        const parsed = zod.safeParse(sample.value);
        assert.equal(parsed.success, sample.valid, `zod: ${parsed.error?.message ?? 'no errors'}`);
        if (sample.loomReference) {
          assert.deepEqual(validate(reference(sample.loomReference) as JsonSchema, sample.value), [], `loom's ${sample.loomReference} rejects the sample`);
        }
      });
    }
  }
});

describe('structural facts', () => {
  it("requirements: a behavior requires at least one acceptance criterion, as in loom's schema", () => {
    const ours = schema('requirements.schema.json').definitions;
    const loom = reference('requirements.schema.json').definitions;
    assert.ok(ours.behavior.required.includes('acceptance'));
    assert.equal(ours.behavior.properties.acceptance.minItems, 1);
    assert.deepEqual(ours.behavior.required, loom.behavior.required);
    assert.deepEqual(ours.requirement.required, loom.requirement.required);
    assert.deepEqual(ours.requirementEntry.required, loom.requirementEntry.required);
  });

  it("requirements: enums and id patterns equal loom's published ones", () => {
    const ours = schema('requirements.schema.json').definitions;
    const loom = reference('requirements.schema.json').definitions;
    for (const key of ['category', 'status', 'id'] as const) {
      const { enum: e, pattern } = ours.behavior.properties[key];
      assert.deepEqual({ enum: e, pattern }, { enum: loom.behavior.properties[key].enum, pattern: loom.behavior.properties[key].pattern }, key);
    }
    assert.deepEqual(ours.requirement.properties.status.enum, loom.requirement.properties.status.enum);
    assert.deepEqual(ours.requirement.properties.required_categories.items.enum, loom.requirement.properties.required_categories.items.enum);
    assert.equal(ours.requirement.properties.id.pattern, loom.requirement.properties.id.pattern);
    assert.deepEqual(ours.behavior.properties.applicability.enum, ['applicable', 'not-applicable', 'requires-clarification']);
    assert.ok(ours.behavior.properties.test_plan);
  });

  it("task-state: status is exactly loom's six statuses", () => {
    const s = schema('task-state.schema.json');
    assert.deepEqual(s.properties.status.enum, ['pending', 'executing', 'reviewing', 'done', 'failed', 'blocked']);
    assert.deepEqual(s.required, ['task_id', 'status']);
    assert.equal(s.properties.task_id.pattern, '^[A-Za-z][A-Za-z0-9_-]{0,63}$');
  });

  it('traceability: every alias is accepted and none of the lists is required', () => {
    const defs = schema('traceability.schema.json').definitions;
    for (const name of ['traceabilityEntry', 'traceabilityEntryWithoutId', 'behaviorTraceability']) {
      const def = defs[name];
      for (const [canonical, aliases] of Object.entries(TRACEABILITY_ALIASES)) {
        assert.ok(!(def.required ?? []).includes(canonical), `${name}.${canonical} must not be required`);
        for (const alias of aliases) {
          const { description: _a, ...aliasSchema } = def.properties[alias] ?? {};
          const { description: _c, ...canonicalSchema } = def.properties[canonical];
          assert.deepEqual(aliasSchema, canonicalSchema, `${name}.${alias}`);
        }
      }
    }
    assert.deepEqual(defs.traceabilityEntry.required, ['id']);
  });

  it('traceability: the alias table matches what TraceabilityFileSchema() parses', () => {
    for (const [canonical, aliases] of Object.entries(TRACEABILITY_ALIASES)) {
      for (const alias of aliases) {
        const parsed = TraceabilityFileSchema().parse({ requirements: { 'REQ-001': { [alias]: ['x'], behaviors: { 'REQ-001-B01': { [alias]: ['y'] } } } } });
        const entry = (parsed.requirements as Record<string, Record<string, any>>)['REQ-001'];
        assert.deepEqual(entry[canonical], ['x'], alias);
        assert.deepEqual(entry.behaviors['REQ-001-B01'][canonical], ['y'], alias);
      }
    }
  });

  it("findings, artifact analysis and convergence report use loom's finding kinds and severities", () => {
    const loom = reference('finding.schema.json').definitions.finding.properties;
    for (const file of ['findings.schema.json', 'artifact-analysis.schema.json', 'convergence-report.schema.json']) {
      const ours = schema(file).definitions.finding.properties;
      // loom's own scripts write other kinds too, so any word is accepted after loom's list.
      assert.deepEqual(ours.kind.anyOf[0].enum, loom.kind.enum, file);
      assert.deepEqual(ours.kind.anyOf[1], { type: 'string', minLength: 1 }, file);
      assert.deepEqual(ours.severity.enum, loom.severity.enum, file);
    }
    assert.deepEqual(schema('artifact-analysis.schema.json').properties.status.enum, ['pass', 'blocked']);
    assert.deepEqual(schema('convergence-report.schema.json').properties.status.enum, ['converged', 'needs_another_round']);
  });

  it("handoff and pipeline-state statuses are loom's", () => {
    // Read as loom reads it (any status); loom's writer, and ours (WritableHandoffSchema), keep to four.
    assert.equal(schema('handoff.schema.json').properties.status.type, 'string');
    const history = schema('pipeline-state.schema.json').definitions.stageHistoryEntry.properties;
    assert.deepEqual(history.status.enum, ['passed', 'failed', 'retry']);
    assert.equal(history.approval.const, 'user_confirmed');
  });
});
