import assert from 'node:assert/strict';
import fs, { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it, mock } from 'node:test';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import type { SpecSnapshot } from '../../../src/core/specdir/specSnapshot';
import { buildTraceabilityMatrix } from '../../../src/core/trace/traceabilityMatrix';
import * as jsonDocument from '../../../src/core/diagnostics/jsonDocument';
import { TraceabilityFileSchema } from '../../../src/core/files/traceability';

const SPEC = 'specs/2026-01-01+login';
const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A repository in a temp dir; `spec` paths are inside the spec directory, `repo` paths from the root. */
function fixture(spec: Record<string, unknown>, repo: Record<string, string> = {}): SpecSnapshot {
  const repoRoot = mkdtempSync(join(tmpdir(), 'loom-trace-'));
  roots.push(repoRoot);
  const write = (path: string, content: unknown) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  };
  const dir = join(repoRoot, SPEC);
  mkdirSync(dir, { recursive: true });
  for (const [p, c] of Object.entries(spec)) write(join(dir, p), c);
  for (const [p, c] of Object.entries(repo)) write(join(repoRoot, p), c);
  const snapshot = loadSpec(repoRoot, dir);
  assert.deepEqual(snapshot.diagnostics, [], 'the fixture itself must load cleanly');
  return snapshot;
}

const behavior = (id: string, category: string, extra: Record<string, unknown> = {}) => ({
  id,
  category,
  description: `${id} does its thing`,
  status: 'failing',
  acceptance: ['it works'],
  ...extra,
});
const requirement = (behaviors: unknown[], extra: Record<string, unknown> = {}) => ({ status: 'failing', acceptance: ['ok'], behaviors, ...extra });
const taskMd = (frontmatter: string) => `---\n${frontmatter}\n---\n# A task\n\nDoes work.\n`;

/** Object form of both ledgers, aliases, both test-ref suffixes and every orphan kind. */
function objectFormSpec(): SpecSnapshot {
  return fixture(
    {
      'requirements.json': {
        requirements: {
          'REQ-001': requirement([behavior('REQ-001-B01', 'happy-path'), behavior('REQ-001-B02', 'boundary', { applicability: 'not-applicable' })], {
            types: ['functional', 'Input'],
            required_categories: ['boundary'],
          }),
          'REQ-002': requirement([behavior('REQ-002-B01', 'security'), behavior('REQ-002-B02', 'authorization'), behavior('REQ-002-B03', 'happy-path')], {
            types: ['security', 'auth', 'unknown-type'],
          }),
        },
      },
      'traceability.json': {
        requirements: {
          'REQ-001': {
            tasks: ['T1'],
            behaviors: {
              'REQ-001-B01': { task_ids: ['T1.md', 'T1'], test_refs: ['tests/login.test.ts#logs the user in'], receipts: ['evidence/run.log'] },
              'REQ-001-B02': {
                tasks: ['T2'],
                test_ids: ['tests/local_test.py::test_long_name'],
                evidence_refs: ['evidence/missing.log', 'plan.md', 'evidence/../plan.md', '../2026-02-02+other/evidence/x.log'],
              },
              'REQ-001-B09': { tasks: ['T1'] },
            },
          },
          'REQ-002': {
            tasks: [],
            behaviors: {
              'REQ-002-B01': { tasks: ['T7'], tests: ['tests/nope.test.ts', 'tests/'], evidence: [`${SPEC}/evidence/run.log`] },
            },
          },
          'REQ-404': { tasks: ['T1'], behaviors: { 'REQ-404-B01': { tasks: ['T1'] } } },
        },
      },
      'tasks/T1.md': taskMd('owns: [src/login.ts]\nbehavior_ids: [REQ-001-B01, REQ-009-B01]'),
      'tasks/T2.md': taskMd('owns: [src/names.ts]\nrequirements: [REQ-002]\nbehavior_ids:\n  - REQ-002-B03'),
      'plan.md': '# Plan\n',
      'evidence/run.log': 'ok\n',
      'tests/local_test.py': 'def test_long_name(): pass\n',
    },
    {
      'tests/login.test.ts': '// test\n',
      'tests/nope.keep': '',
      'specs/2026-02-02+other/evidence/x.log': 'elsewhere\n',
    },
  );
}

/** 1-based line of the first line of a spec file containing `needle` (after line `from`). */
function lineOf(snapshot: SpecSnapshot, file: string, needle: string, from = 0): number {
  const lines = readFileSync(join(snapshot.dir, file), 'utf8').split('\n');
  const i = lines.findIndex((l, n) => n >= from && l.includes(needle));
  assert.ok(i >= 0, `${needle} is in ${file}`);
  return i + 1;
}

describe('buildTraceabilityMatrix (object form)', () => {
  const snapshot = objectFormSpec();
  const matrix = buildTraceabilityMatrix(snapshot);

  it('builds one row per behavior in requirements.json order, resolving every ref', () => {
    assert.deepEqual(matrix.rows, [
      {
        requirement: 'REQ-001',
        behavior: 'REQ-001-B01',
        category: 'happy-path',
        status: 'failing',
        tasks: ['T1'],
        tests: [{ ref: 'tests/login.test.ts#logs the user in', exists: true, path: 'tests/login.test.ts' }],
        evidence: [{ ref: 'evidence/run.log', exists: true, path: `${SPEC}/evidence/run.log` }],
        closed: true,
        description: 'REQ-001-B01 does its thing',
      },
      {
        requirement: 'REQ-001',
        behavior: 'REQ-001-B02',
        category: 'boundary',
        status: 'failing',
        tasks: ['T2'],
        tests: [{ ref: 'tests/local_test.py::test_long_name', exists: true, path: `${SPEC}/tests/local_test.py` }],
        evidence: [
          { ref: 'evidence/missing.log', exists: false, reason: 'missing' },
          { ref: 'plan.md', exists: false, reason: 'outside-evidence' },
          { ref: 'evidence/../plan.md', exists: false, reason: 'outside-evidence' },
          { ref: '../2026-02-02+other/evidence/x.log', exists: false, reason: 'outside-evidence' },
        ],
        closed: false,
        description: 'REQ-001-B02 does its thing',
        applicability: 'not-applicable',
      },
      {
        requirement: 'REQ-002',
        behavior: 'REQ-002-B01',
        category: 'security',
        status: 'failing',
        tasks: ['T7'],
        tests: [
          { ref: 'tests/nope.test.ts', exists: false, reason: 'missing' },
          // loom's resolveProjectReference + existsSync: the spec's own tests/ folder is there, and a folder counts.
          { ref: 'tests/', exists: true, path: `${SPEC}/tests` },
        ],
        evidence: [{ ref: `${SPEC}/evidence/run.log`, exists: true, path: `${SPEC}/evidence/run.log` }],
        closed: true,
        description: 'REQ-002-B01 does its thing',
      },
      {
        requirement: 'REQ-002',
        behavior: 'REQ-002-B02',
        category: 'authorization',
        status: 'failing',
        tasks: [],
        tests: [],
        evidence: [],
        closed: false,
        description: 'REQ-002-B02 does its thing',
      },
      {
        // Named by T2's behavior_ids, but tasks come from traceability.json only.
        requirement: 'REQ-002',
        behavior: 'REQ-002-B03',
        category: 'happy-path',
        status: 'failing',
        tasks: [],
        tests: [],
        evidence: [],
        closed: false,
        description: 'REQ-002-B03 does its thing',
      },
    ]);
  });

  it('summarises closure', () => {
    assert.deepEqual(matrix.summary, { behaviors: 5, closed: 2 });
  });

  it('derives required categories from the declared list and the types', () => {
    assert.deepEqual(matrix.requirements, [
      {
        id: 'REQ-001',
        required_categories: ['boundary', 'happy-path', 'invalid-input'],
        covered_categories: ['happy-path', 'boundary'],
        missing_categories: ['invalid-input'],
      },
      {
        id: 'REQ-002',
        required_categories: ['security', 'authorization'],
        covered_categories: ['happy-path', 'authorization', 'security'],
        missing_categories: [],
      },
    ]);
  });

  it('reports each kind of orphan', () => {
    assert.deepEqual(matrix.orphans, {
      task_behaviors_unknown: [{ task: 'T1', behavior: 'REQ-009-B01' }],
      trace_behaviors_unknown: [
        { requirement: 'REQ-001', behavior: 'REQ-001-B09' },
        { requirement: 'REQ-404', behavior: 'REQ-404-B01' },
      ],
      trace_requirements_unknown: ['REQ-404'],
      behaviors_without_task: ['REQ-002-B02'],
      trace_tasks_unknown: [{ requirement: 'REQ-002', behavior: 'REQ-002-B01', task: 'T7' }],
    });
  });

  it('turns orphans into diagnostics on the lines that hold them', () => {
    const trace = `${SPEC}/traceability.json`;
    const at = (needle: string, from = 0) => lineOf(snapshot, 'traceability.json', needle, from);
    assert.deepEqual(
      matrix.diagnostics.map((d) => [d.file, d.line, d.column, d.severity, d.code]),
      [
        [`${SPEC}/tasks/T1.md`, 3, 1, 'error', 'unknown-behavior'],
        [trace, at('"REQ-404": {'), 5, 'warning', 'trace-unknown-requirement'],
        [trace, at('"REQ-001-B09": {'), 9, 'warning', 'trace-unknown-behavior'],
        [trace, at('"REQ-002-B01": {'), 9, 'error', 'trace-unknown-task'],
        // The `id` of the second behavior of REQ-002.
        [`${SPEC}/requirements.json`, lineOf(snapshot, 'requirements.json', '"id": "REQ-002-B02"'), 11, 'warning', 'behavior-without-task'],
      ],
    );
    assert.ok(at('"REQ-404": {') > 40, 'the located lines are real positions, not the top of the file');
    assert.equal(matrix.diagnostics[0].message, 'T1 names behavior REQ-009-B01, which requirements.json does not declare');
    assert.equal(matrix.diagnostics[3].message, 'traceability.json maps REQ-002-B01 to T7, but tasks/T7.md does not exist');
  });

  it('is plain JSON', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(matrix)), matrix);
  });
});

describe('buildTraceabilityMatrix (array form)', () => {
  const snapshot = fixture(
    {
      'requirements.json': {
        requirements: [{ id: 'REQ-010', ...requirement([behavior('REQ-010-B01', 'happy-path'), behavior('REQ-010-B02', 'recovery')], { types: ['recovery'] }) }],
      },
      'traceability.json': {
        requirements: [
          {
            id: 'REQ-010',
            task_ids: ['T3'],
            behaviors: {
              'REQ-010-B01': { task_ids: ['T3'], test_refs: ['tests/both.test.ts::retries'], evidence_refs: ['evidence/logs/run.log'] },
              'REQ-010-B02': { task_ids: ['T3'], test_refs: ['tests/both.test.ts#x'], receipts: ['evidence\\logs\\run.log'] },
            },
          },
          { id: 'REQ-011', tasks: [] },
        ],
      },
      'tasks/T3.md': taskMd('owns: [src/retry.ts]'),
      'tests/both.test.ts': '// the spec copy\n',
      'evidence/logs/run.log': 'ok\n',
    },
    { 'tests/both.test.ts': '// the repository copy\n' },
  );
  const matrix = buildTraceabilityMatrix(snapshot);

  it('resolves a test against the spec directory before the repository root', () => {
    assert.deepEqual(
      matrix.rows.map((r) => [r.behavior, r.tests, r.evidence.map((e) => e.exists), r.closed]),
      [
        ['REQ-010-B01', [{ ref: 'tests/both.test.ts::retries', exists: true, path: `${SPEC}/tests/both.test.ts` }], [true], true],
        ['REQ-010-B02', [{ ref: 'tests/both.test.ts#x', exists: true, path: `${SPEC}/tests/both.test.ts` }], [true], true],
      ],
    );
    assert.deepEqual(matrix.summary, { behaviors: 2, closed: 2 });
  });

  it('reports an unknown requirement at its id in the array', () => {
    assert.deepEqual(matrix.orphans.trace_requirements_unknown, ['REQ-011']);
    assert.deepEqual(matrix.requirements, [{ id: 'REQ-010', required_categories: ['recovery'], covered_categories: ['happy-path', 'recovery'], missing_categories: [] }]);
    assert.deepEqual(
      matrix.diagnostics.map((d) => [d.line, d.column, d.code]),
      [[lineOf(snapshot, 'traceability.json', '"id": "REQ-011"'), 7, 'trace-unknown-requirement']],
    );
  });
});

describe('buildTraceabilityMatrix edge cases', () => {
  it('keeps keys named like Object.prototype members as plain data', () => {
    const matrix = buildTraceabilityMatrix(
      fixture({
        'requirements.json': { requirements: { 'REQ-001': requirement([behavior('REQ-001-B01', 'happy-path')]) } },
        'traceability.json': {
          requirements: {
            'REQ-001': { tasks: [], behaviors: { constructor: { tasks: ['T1'] }, toString: { tasks: [] }, hasOwnProperty: { tests: ['x'] } } },
          },
        },
        'tasks/T1.md': taskMd('owns: [a]\nbehavior_ids: [constructor, __proto__, toString]'),
      }),
    );
    assert.deepEqual(
      matrix.rows.map((r) => [r.behavior, r.tasks, r.closed]),
      [['REQ-001-B01', [], false]],
    );
    assert.deepEqual(matrix.orphans.trace_behaviors_unknown, [
      { requirement: 'REQ-001', behavior: 'constructor' },
      { requirement: 'REQ-001', behavior: 'toString' },
      { requirement: 'REQ-001', behavior: 'hasOwnProperty' },
    ]);
    assert.deepEqual(matrix.orphans.task_behaviors_unknown, [
      { task: 'T1', behavior: 'constructor' },
      { task: 'T1', behavior: '__proto__' },
      { task: 'T1', behavior: 'toString' },
    ]);
    assert.deepEqual(matrix.orphans.behaviors_without_task, ['REQ-001-B01']);
  });

  it('reports a __proto__ behavior key in traceability.json instead of dropping it silently', () => {
    const { parseJsonDocument } = jsonDocument;
    const text = '{ "requirements": {\n  "REQ-001": { "tasks": [], "behaviors": { "__proto__": { "tasks": ["T1"] } } } } }';
    const parsed = parseJsonDocument('specs/x/traceability.json', text, TraceabilityFileSchema());
    assert.ok(parsed.value, 'the rest of the ledger still loads');
    assert.deepEqual(
      parsed.diagnostics.map((d) => [d.line, d.column, d.severity, d.code]),
      [[2, 44, 'warning', 'reserved-key']],
    );
  });

  it('has no rows and judges nothing unknown without requirements.json', () => {
    const matrix = buildTraceabilityMatrix(
      fixture({
        'traceability.json': { requirements: { 'REQ-001': { tasks: ['T5'], behaviors: { 'REQ-001-B01': { tasks: ['T1'] } } } } },
        'tasks/T1.md': taskMd('owns: [a]\nbehavior_ids: [REQ-001-B01]'),
      }),
    );
    assert.deepEqual(matrix.rows, []);
    assert.deepEqual(matrix.summary, { behaviors: 0, closed: 0 });
    assert.deepEqual(matrix.orphans, {
      task_behaviors_unknown: [],
      trace_behaviors_unknown: [],
      trace_requirements_unknown: [],
      behaviors_without_task: [],
      trace_tasks_unknown: [{ requirement: 'REQ-001', behavior: null, task: 'T5' }],
    });
  });

  it('gives every behavior empty lists without traceability.json', () => {
    const snapshot = fixture({
      'requirements.json': { requirements: { 'REQ-001': requirement([behavior('REQ-001-B01', 'happy-path'), behavior('REQ-001-B02', 'boundary')]) } },
      'tasks/T1.md': taskMd('owns: [a]\nbehavior_ids: [REQ-001-B02]'),
    });
    const matrix = buildTraceabilityMatrix(snapshot);
    assert.deepEqual(
      matrix.rows.map((r) => [r.tasks, r.tests, r.evidence, r.closed]),
      [
        [[], [], [], false],
        [[], [], [], false],
      ],
    );
    assert.deepEqual(matrix.orphans.behaviors_without_task, ['REQ-001-B01']);
    assert.deepEqual(
      matrix.diagnostics.map((d) => [d.file, d.line, d.code]),
      [[`${SPEC}/requirements.json`, lineOf(snapshot, 'requirements.json', '"id": "REQ-001-B01"'), 'behavior-without-task']],
    );
  });

  it('asks the file system once per path, however many behaviors cite it', () => {
    const behaviors = Array.from({ length: 200 }, (_, i) => behavior(`REQ-001-B${String(i + 1).padStart(3, '0')}`, 'happy-path'));
    const snapshot = fixture({
      'requirements.json': { requirements: { 'REQ-001': requirement(behaviors) } },
      'traceability.json': {
        requirements: {
          'REQ-001': {
            tasks: ['T1'],
            behaviors: Object.fromEntries(behaviors.map((b) => [b.id, { tasks: ['T1'], tests: [`tests/a.test.ts#${b.id}`], evidence: ['evidence/run.log'] }])),
          },
        },
      },
      'tasks/T1.md': taskMd('owns: [a]'),
      'tests/a.test.ts': '',
      'evidence/run.log': '',
    });
    const stat = mock.method(fs, 'statSync');
    const exists = mock.method(fs, 'existsSync');
    try {
      const matrix = buildTraceabilityMatrix(snapshot);
      assert.deepEqual(matrix.summary, { behaviors: 200, closed: 200 });
      // One look for the test (loom's existsSync in the spec directory), one for the evidence file.
      assert.equal(stat.mock.callCount() + exists.mock.callCount(), 2);
    } finally {
      stat.mock.restore();
      exists.mock.restore();
    }
  });
});

describe("buildTraceabilityMatrix resolves refs as loom's traceability.js does", () => {
  const snapshot = fixture(
    {
      'pipeline.state.json': {
        spec_dir: SPEC,
        pipeline_type: 'feature',
        current_stage: 'converge',
        stage_history: [],
        metadata: { worktree_path: '.worktrees/login' },
      },
      'requirements.json': { requirements: { 'REQ-020': requirement([behavior('REQ-020-B01', 'happy-path')]) } },
      'traceability.json': {
        requirements: {
          'REQ-020': {
            tasks: ['T1'],
            tests: [],
            evidence: [],
            behaviors: { 'REQ-020-B01': { tasks: ['T1'], tests: ['tests/new.test.ts#adds it'], evidence: ['evidence/run.log#L3'] } },
          },
        },
      },
      'tasks/T1.md': taskMd('owns: [src/new.ts]'),
      'evidence/run.log': 'ok\n',
    },
    { '.worktrees/login/tests/new.test.ts': '// only in the feature worktree\n' },
  );

  // loom's resolveProjectReference looks in the spec directory, then projectRootForSpecDir (the
  // repository holding specs/), never in a feature worktree: the test does not count there, and
  // the row says where it is and how loom would find it.
  it('shows a test only the feature worktree has as such, not closed, and strips #name from evidence refs', () => {
    const [row] = buildTraceabilityMatrix(snapshot).rows;
    assert.deepEqual(row.tests, [
      { ref: 'tests/new.test.ts#adds it', exists: false, reason: 'only-in-worktree', path: '.worktrees/login/tests/new.test.ts', recordAs: '.worktrees/login/tests/new.test.ts#adds it' },
    ]);
    assert.deepEqual(row.evidence, [{ ref: 'evidence/run.log#L3', exists: true, path: `${SPEC}/evidence/run.log` }]);
    assert.equal(row.closed, false);
  });
});

describe('buildTraceabilityMatrix: behaviors settled as not-applicable', () => {
  const spec = (entry?: Record<string, unknown>) =>
    fixture({
      'requirements.json': { requirements: { 'REQ-001': requirement([behavior('REQ-001-B01', 'happy-path'), behavior('REQ-001-B02', 'boundary', { applicability: 'not-applicable' })]) } },
      'traceability.json': { requirements: { 'REQ-001': { tasks: [], behaviors: entry ? { 'REQ-001-B02': entry } : {} } } },
    });
  const closed = (entry?: Record<string, unknown>) => buildTraceabilityMatrix(spec(entry)).rows.map((r) => [r.behavior, r.closed]);

  it('are closed with nothing traced, or with only files that exist; an applicable one with nothing is open', () => {
    assert.deepEqual(closed(), [
      ['REQ-001-B01', false],
      ['REQ-001-B02', true],
    ]);
    assert.deepEqual(closed({ tasks: [], tests: [], evidence: [] }), [
      ['REQ-001-B01', false],
      ['REQ-001-B02', true],
    ]);
  });

  it('are open while they name a test or evidence file that is not there', () => {
    assert.deepEqual(closed({ tasks: [], tests: ['tests/gone.test.ts'] }), [
      ['REQ-001-B01', false],
      ['REQ-001-B02', false],
    ]);
    assert.deepEqual(closed({ tasks: [], evidence: ['evidence/gone.log'] }), [
      ['REQ-001-B01', false],
      ['REQ-001-B02', false],
    ]);
  });
});
