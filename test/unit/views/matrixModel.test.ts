import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { behaviorLines, buildMatrixModel } from '../../../src/core/views/matrixModel';
import { matrixTestName, refExists, refPath, taskFile } from '../../../src/shared/matrixModel';
import { SPEC, TempRepo } from '../../helpers/tempRepo';

const repos: TempRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));

const behavior = (id: string, category: string, extra: Record<string, unknown> = {}) => ({ id, category, description: `${id} does its thing`, status: 'failing', acceptance: ['ok'], ...extra });

function spec(files: Record<string, unknown>, repoFiles: Record<string, string> = {}) {
  const r = new TempRepo();
  repos.push(r);
  for (const [p, c] of Object.entries(files)) r.write(`${SPEC}/${p}`, c as string | object);
  for (const [p, c] of Object.entries(repoFiles)) r.write(p, c);
  return { r, snapshot: loadSpec(r.root, r.path(SPEC)) };
}

const task = (id: string) => `---\nowns: [src/${id}.ts]\n---\n# ${id}\n\nDoes it.\n`;

describe('buildMatrixModel', () => {
  const { snapshot } = spec(
    {
      'requirements.json': {
        requirements: [
          {
            id: 'REQ-001',
            status: 'failing',
            acceptance: ['ok'],
            types: ['functional', 'security'],
            behaviors: [behavior('REQ-001-B01', 'happy-path'), behavior('REQ-001-B02', 'boundary', { applicability: 'not-applicable' })],
          },
          { id: 'REQ-002', status: 'failing', acceptance: ['ok'], behaviors: [behavior('REQ-002-B01', 'invalid-input')] },
        ],
      },
      'traceability.json': {
        requirements: {
          'REQ-001': {
            behaviors: {
              'REQ-001-B01': { tasks: ['T1.md'], tests: ['tests/login.test.ts::logs in', 'tests/gone.test.ts'], evidence: ['evidence/run.log'] },
              'REQ-001-B02': { tasks: ['T9'], tests: [], evidence: ['../outside.log'] },
            },
          },
        },
      },
      'tasks/T1.md': task('T1'),
      'tasks/T2.md': task('T2'),
      'evidence/run.log': 'ok\n',
    },
    { 'tests/login.test.ts': 'test("logs in")\n' },
  );
  const m = buildMatrixModel(snapshot);

  it('links every reference to a file that exists, with the test name', () => {
    const b01 = m.rows[0];
    assert.deepEqual(b01.tasks, ['T1']);
    assert.equal(taskFile(m, 'T1'), `${SPEC}/tasks/T1.md`);
    assert.deepEqual(b01.tests, [
      { ref: 'tests/login.test.ts::logs in', path: 0 },
      { ref: 'tests/gone.test.ts', reason: 'missing' },
    ]);
    assert.deepEqual(
      b01.tests.map((t) => [refExists(t), refPath(m, t), matrixTestName(t)]),
      [
        [true, 'tests/login.test.ts', 'logs in'],
        [false, undefined, undefined],
      ],
    );
    assert.deepEqual(b01.evidence, [{ ref: 'evidence/run.log', path: 1 }]);
    assert.equal(refPath(m, b01.evidence[0]), `${SPEC}/evidence/run.log`);
    assert.equal(b01.closed, true);
    assert.deepEqual(b01.gaps, ['missing-test'], 'a closed behavior may still name a file that is gone');
  });

  it('names every gap of an open behavior', () => {
    const b02 = m.rows[1];
    assert.deepEqual(b02.tasks, ['T9']);
    assert.equal(taskFile(m, 'T9'), undefined, 'T9 has no task file');
    assert.deepEqual(b02.evidence, [{ ref: '../outside.log', reason: 'outside-evidence' }]);
    // Not applicable: no test is no gap, but the task and the evidence it names that are not there are.
    assert.deepEqual(b02.gaps, ['unknown-task', 'missing-evidence']);
    assert.equal(b02.applicability, 'not-applicable');
    assert.equal(b02.closed, false);
    assert.deepEqual(m.rows[2].gaps, ['no-task', 'no-test', 'no-evidence']);
  });

  it('points each behavior at its line in requirements.json', () => {
    const lines = readFileSync(join(snapshot.dir, 'requirements.json'), 'utf8').split('\n');
    const lineOf = (id: string) => lines.findIndex((l) => l.includes(`"id": "${id}"`)) + 1;
    assert.equal(m.requirementsPath, `${SPEC}/requirements.json`);
    assert.deepEqual(
      m.rows.map((r) => r.line),
      ['REQ-001-B01', 'REQ-001-B02', 'REQ-002-B01'].map(lineOf),
    );
  });

  it('names each linked file once, for all the rows that link it', () => {
    assert.deepEqual(m.paths, ['tests/login.test.ts', `${SPEC}/evidence/run.log`]);
    assert.deepEqual(m.taskFiles, { T1: `${SPEC}/tasks/T1.md`, T2: `${SPEC}/tasks/T2.md` });
  });

  it('reports each requirement’s required categories that have no behavior', () => {
    assert.deepEqual(
      m.requirements.map((r) => [r.id, r.missingCategories, r.behaviors, r.closed]),
      [
        ['REQ-001', ['security'], 2, 1],
        ['REQ-002', [], 1, 0],
      ],
    );
  });

  it('offers every category, status and task to the filters', () => {
    assert.equal(m.vocabulary.categories.length, 15);
    assert.deepEqual(m.vocabulary.tasks, ['T1', 'T2', 'T9']);
    assert.deepEqual(m.summary, { behaviors: 3, closed: 1 });
    assert.deepEqual(m.orphans.traceTasksUnknown, [{ requirement: 'REQ-001', behavior: 'REQ-001-B02', task: 'T9' }]);
    assert.equal(m.notice, undefined);
  });

  it('is plain JSON', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(m)), m);
  });
});

describe('behaviorLines', () => {
  it('finds the first line naming each behavior, in one pass', () => {
    const { r } = spec({
      'requirements.json': '{\n "requirements": [\n  {"id": "REQ-001",\n   "behaviors": [\n    {"id": "REQ-001-B01"},\n\n    {"id": "REQ-001-B02", "see": "REQ-001-B01"}\n   ]}\n ]\n}\n',
    });
    assert.deepEqual(
      [...behaviorLines(r.path(`${SPEC}/requirements.json`))],
      [
        ['REQ-001-B01', 5],
        ['REQ-001-B02', 7],
      ],
    );
    assert.equal(behaviorLines(r.path('nothing.json')).size, 0);
  });
});

describe('a spec without its ledgers', () => {
  it('says why the matrix is empty', () => {
    const { snapshot } = spec({ 'spec.md': '# x\n' });
    const m = buildMatrixModel(snapshot);
    assert.deepEqual(m.rows, []);
    assert.match(m.notice ?? '', /requirements\.json does not exist yet/);
  });

  it('says when nothing is linked yet', () => {
    const { snapshot } = spec({ 'requirements.json': { requirements: [{ id: 'REQ-001', status: 'failing', acceptance: [], behaviors: [behavior('REQ-001-B01', 'happy-path')] }] } });
    const m = buildMatrixModel(snapshot);
    assert.equal(m.rows.length, 1);
    assert.match(m.notice ?? '', /traceability\.json does not exist yet/);
  });
});
