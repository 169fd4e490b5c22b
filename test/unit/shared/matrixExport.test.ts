import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvCell, markdownCell, matrixToCsv, matrixToMarkdown, neutralizeFormula } from '../../../src/shared/matrixExport';
import type { MatrixModel, MatrixRow } from '../../../src/shared/matrixModel';

const row = (behavior: string, extra: Partial<MatrixRow> = {}): MatrixRow => ({
  requirement: behavior.slice(0, 7),
  behavior,
  category: 'happy-path',
  status: 'passing',
  description: `${behavior} works`,
  tasks: ['T1'],
  tests: [{ ref: 'tests/a.test.ts#logs in', path: 0 }],
  evidence: [{ ref: 'evidence/run.log', path: 1 }],
  closed: true,
  gaps: [],
  line: 3,
  ...extra,
});

function model(rows: MatrixRow[]): MatrixModel {
  return {
    kind: 'matrix',
    specDir: 'specs/s',
    specName: 's',
    requirements: [
      { id: 'REQ-001', requiredCategories: ['happy-path', 'security'], coveredCategories: ['happy-path'], missingCategories: ['security'], behaviors: 2, closed: 1 },
      { id: 'REQ-002', requiredCategories: [], coveredCategories: ['happy-path'], missingCategories: [], behaviors: 1, closed: 1 },
    ],
    rows,
    requirementsPath: 'specs/s/requirements.json',
    taskFiles: { T1: 'specs/s/tasks/T1.md' },
    paths: ['tests/a.test.ts', 'specs/s/evidence/run.log'],
    orphans: { taskBehaviorsUnknown: [], traceBehaviorsUnknown: [], traceRequirementsUnknown: [], behaviorsWithoutTask: [], traceTasksUnknown: [] },
    summary: { behaviors: rows.length, closed: rows.filter((r) => r.closed).length },
    vocabulary: { categories: [], statuses: [], tasks: [] },
  };
}

const rows = [
  row('REQ-001-B01'),
  row('REQ-001-B02', {
    description: 'says "no", then, on a new line,\nstops',
    tasks: ['T9'],
    tests: [{ ref: 'tests/gone.test.ts', reason: 'missing' }],
    evidence: [],
    closed: false,
    gaps: ['unknown-task', 'missing-test', 'no-evidence'],
  }),
  row('REQ-002-B01', { description: '=HYPERLINK("http://evil","click")' }),
];

describe('CSV cells', () => {
  it('quotes cells with quotes, commas or line breaks, doubling the quotes', () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('one\ntwo'), '"one\ntwo"');
    assert.equal(csvCell('one\r\ntwo'), '"one\r\ntwo"');
  });

  it('keeps a spreadsheet from running a cell as a formula', () => {
    for (const c of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) assert.equal(neutralizeFormula(c), `'${c}`);
    assert.equal(neutralizeFormula('a=1'), 'a=1');
    assert.equal(csvCell('=HYPERLINK("x","y")'), `"'=HYPERLINK(""x"",""y"")"`);
    assert.equal(csvCell('-1, or less'), `"'-1, or less"`);
  });
});

describe('matrixToCsv', () => {
  it('writes a header and one line per behavior, CRLF-separated, with missing references marked', () => {
    const csv = matrixToCsv(model(rows));
    const lines = csv.split('\r\n');
    assert.equal(lines[0], 'requirement,behavior,category,status,description,tasks,tests,evidence,closed,gaps');
    assert.equal(lines[1], 'REQ-001,REQ-001-B01,happy-path,passing,REQ-001-B01 works,T1,tests/a.test.ts#logs in,evidence/run.log,yes,');
    assert.equal(
      lines[2],
      'REQ-001,REQ-001-B02,happy-path,passing,"says ""no"", then, on a new line,\nstops",T9 (no task file),tests/gone.test.ts (missing),,no,unknown-task; missing-test; no-evidence',
    );
    assert.equal(lines[3], `REQ-002,REQ-002-B01,happy-path,passing,"'=HYPERLINK(""http://evil"",""click"")",T1,tests/a.test.ts#logs in,evidence/run.log,yes,`);
    assert.equal(lines[4], '');
    assert.equal(lines.length, 5);
  });

  it('exports only the chosen behaviors, and can start with a byte-order mark for Excel', () => {
    const csv = matrixToCsv(model(rows), ['REQ-002-B01'], { bom: true });
    assert.ok(csv.startsWith('\uFEFFrequirement,'));
    assert.equal(csv.split('\r\n').length, 3);
  });
});

describe('matrixToMarkdown', () => {
  it('groups by requirement, names the uncovered categories, and keeps every cell on one table line', () => {
    const md = matrixToMarkdown(model(rows));
    assert.equal(
      md,
      [
        '# Traceability matrix: s',
        '',
        '3 behaviors, 2 closed.',
        '',
        '## REQ-001',
        '',
        'Required categories with no behavior: security',
        '',
        '| behavior | category | status | description | tasks | tests | evidence | closed | gaps |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        '| REQ-001-B01 | happy-path | passing | REQ-001-B01 works | T1 | tests/a.test.ts#logs in | evidence/run.log | ✅ |  |',
        '| REQ-001-B02 | happy-path | passing | says "no", then, on a new line,<br>stops | T9 (no task file) | tests/gone.test.ts (missing) |  | ❌ | unknown-task; missing-test; no-evidence |',
        '',
        '## REQ-002',
        '',
        '| behavior | category | status | description | tasks | tests | evidence | closed | gaps |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        '| REQ-002-B01 | happy-path | passing | =HYPERLINK("http://evil","click") | T1 | tests/a.test.ts#logs in | evidence/run.log | ✅ |  |',
        '',
      ].join('\n'),
    );
  });

  it('escapes pipes, backslashes and HTML', () => {
    assert.equal(markdownCell('a | b'), 'a \\| b');
    assert.equal(markdownCell('C:\\x'), 'C:\\\\x');
    assert.equal(markdownCell('<img src=x onerror=alert(1)>'), '&lt;img src=x onerror=alert(1)&gt;');
  });
});
