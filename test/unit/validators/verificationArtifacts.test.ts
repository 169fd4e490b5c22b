import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { verificationArtifacts } from '../../../src/core/validators/verificationArtifacts';
import { applyTextEdits } from '../../helpers/textEdits';
import { findingFixEdits } from '../../../src/core/validators/findingFix';
import { line, load, plannedSpec, sha256, SPEC, withRepo, type TempRepo } from './validatorFixture';

const receipt = (log: string) => `- evidence-command: npm test\n- evidence-exit-code: 0\n- evidence-file: evidence/test.log\n- evidence-sha256: ${sha256(log)}\n`;
const report = (title: string) => `# ${title}\n\n| REQ-001 | PASS |\n| REQ-002 | PASS |\n\n${receipt('all passed\n')}\nverdict: PASS\n`;

/** An executed spec whose reports pass and cover every REQ. */
function verifiedSpec(r: TempRepo): void {
  plannedSpec(r, { executed: true });
  r.write(`${SPEC}/test-report.md`, report('Test report'));
  r.write(`${SPEC}/verify-report.md`, report('Verify report'));
}

function lines(setup: (r: TempRepo) => void): string[] {
  return withRepo((r) => {
    verifiedSpec(r);
    setup(r);
    const result = verificationArtifacts(load(r));
    assert.equal(
      result.passed,
      (result.findings ?? []).every((f) => f.severity !== 'error' && f.severity !== 'blocker'),
    );
    return (result.findings ?? []).map(line);
  });
}

describe('verification-artifacts', () => {
  it('passes passing reports that cover every REQ, with closed traceability', () => {
    assert.deepEqual(
      lines(() => {}),
      [],
    );
  });

  it('needs both reports, each with a verdict: PASS line', () => {
    assert.deepEqual(
      lines((r) => {
        rmSync(r.path(`${SPEC}/verify-report.md`));
        r.write(`${SPEC}/test-report.md`, '# Test report\n\nAll green.\n');
      }),
      ['VA-1 error missing test-report.md test-report.md has no verdict: PASS line', 'VA-2 error missing verify-report.md verify-report.md does not exist'],
    );
  });

  it('a PASS must name every REQ of spec.md and carry a valid evidence receipt', () => {
    assert.deepEqual(
      lines((r) => {
        r.write(`${SPEC}/test-report.md`, report('Test report').replace('| REQ-002 | PASS |\n', ''));
        r.write(`${SPEC}/verify-report.md`, report('Verify report').replace(sha256('all passed\n'), sha256('other')));
      }),
      [
        'VA-1 error missing test-report.md:10 test-report.md says PASS but does not mention REQ-002',
        'VA-2 error stale verify-report.md:11 verify-report.md: the sha256 of evidence/test.log does not match evidence-sha256 (the log changed after the report)',
      ],
    );
  });

  it('a failure without a known-warning context fails, a known one does not', () => {
    assert.deepEqual(
      lines((r) => r.write(`${SPEC}/verify-report.md`, report('Verify report').replace('| REQ-002 | PASS |', '| REQ-002 | FAIL |'))),
      [
        'VA-1 error contradicts verify-report.md:4 verify-report.md line 4 reports a failure without a known-warning context (loom refuses a report that says FAIL, in any case, unless it also says WARN or known)',
      ],
    );
    assert.deepEqual(
      lines((r) => r.write(`${SPEC}/verify-report.md`, report('Verify report').replace('| REQ-002 | PASS |', '| REQ-002 | FAIL (known flaky, WARN) |'))),
      [],
    );
  });

  // loom 3 verify-artifacts.mjs: PLACEHOLDER_RE = /\b(TBD|TODO|implement later|fill in details)\b/i, any case.
  it('placeholders in the reports, spec.md, plan.md or progress.md fail, in any case as loom matches them', () => {
    assert.deepEqual(
      lines((r) => {
        r.write(`${SPEC}/plan.md`, '# Plan\n\nTodo list, T1, T2.\n\nRollout: TBD\n');
        r.write(`${SPEC}/progress.md`, '# progress\n\n| Updated | YYYY-MM-DD HH:mm |\n');
      }),
      [
        `VA-1 error placeholder plan.md:3 plan.md line 3 holds "Todo", which loom's placeholder rule (TBD, TODO, implement later, fill in details; case ignored) refuses: reword it`,
        'VA-2 error placeholder progress.md:3 progress.md still holds the literal HH:mm',
      ],
    );
  });

  // loom 3 traceability.js validateTraceabilityFile: "REQ-001 has no test references" / "evidence reference not found".
  it('a requirement itself needs a test and evidence that exist, as loom asks', () => {
    assert.deepEqual(
      lines((r) => {
        const trace = r.json(`${SPEC}/traceability.json`);
        trace.requirements['REQ-001'].tests = [];
        trace.requirements['REQ-002'].evidence = ['evidence/gone.log'];
        r.write(`${SPEC}/traceability.json`, trace);
      }),
      [
        'VA-1 error missing traceability.json:3 REQ-001 itself has no test in traceability.json → update_traceability: give REQ-001 its task, test and evidence',
        'VA-2 error missing traceability.json:36 REQ-002: evidence/gone.log does not exist → update_traceability: point REQ-002 at files that exist',
      ],
    );
  });

  it('traceability must be closed and every file it names must exist', () => {
    assert.deepEqual(
      lines((r) => {
        const trace = r.json(`${SPEC}/traceability.json`);
        trace.requirements['REQ-001'].behaviors['REQ-001-B02'] = { tasks: ['T1', 'T8'], tests: ['tests/gone.test.ts'], evidence: ['evidence/test.log'] };
        trace.requirements['REQ-002'].behaviors['REQ-002-B01'] = { tasks: ['T2'], tests: ['tests/logout.test.ts'], evidence: [] };
        r.write(`${SPEC}/traceability.json`, trace);
      }),
      [
        'VA-1 error missing traceability.json:25 REQ-001-B02: tests/gone.test.ts does not exist → update_traceability: point REQ-001-B02 at files that exist',
        'VA-2 error missing traceability.json:50 REQ-002-B01 is not closed: no evidence → update_traceability: give REQ-002-B01 its task, test and evidence',
        'VA-3 error missing traceability.json:25 traceability.json names T8, but tasks/T8.md does not exist',
      ],
    );
  });
});

describe('verification-artifacts: behaviors settled as not-applicable', () => {
  /** REQ-001-B02 marked not-applicable, with nothing traced for it but what `entry` gives. */
  const notApplicable = (entry?: object) => (r: TempRepo) => {
    const reqs = r.json(`${SPEC}/requirements.json`);
    Object.assign(reqs.requirements[0].behaviors[1], { applicability: 'not-applicable' });
    r.write(`${SPEC}/requirements.json`, reqs);
    const trace = r.json(`${SPEC}/traceability.json`);
    if (entry) trace.requirements['REQ-001'].behaviors['REQ-001-B02'] = entry;
    else delete trace.requirements['REQ-001'].behaviors['REQ-001-B02'];
    r.write(`${SPEC}/traceability.json`, trace);
  };

  // loom 3 traceability.js checkBehaviorTraceability knows no applicability: every behavior needs a task, a test and evidence.
  it('need their task, test and evidence like any behavior, as loom asks', () => {
    assert.deepEqual(lines(notApplicable()), [
      'VA-1 error missing traceability.json:13 REQ-001-B02 is not closed: no task, no test, no evidence → update_traceability: give REQ-001-B02 its task, test and evidence',
    ]);
    assert.equal(lines(notApplicable({ tasks: [], tests: [], evidence: [] })).length, 1);
  });

  it('still may not name files that do not exist', () => {
    assert.deepEqual(lines(notApplicable({ tasks: [], tests: ['tests/gone.test.ts'], evidence: [] })), [
      'VA-1 error missing traceability.json:25 REQ-001-B02: tests/gone.test.ts does not exist → update_traceability: point REQ-001-B02 at files that exist',
    ]);
  });

  it('an applicable behavior with nothing traced still fails', () => {
    assert.deepEqual(
      lines((r) => {
        const trace = r.json(`${SPEC}/traceability.json`);
        trace.requirements['REQ-001'].behaviors['REQ-001-B02'] = { tasks: [], tests: [], evidence: [] };
        r.write(`${SPEC}/traceability.json`, trace);
      }),
      ['VA-1 error missing traceability.json:25 REQ-001-B02 is not closed: no task, no test, no evidence → update_traceability: give REQ-001-B02 its task, test and evidence'],
    );
  });
});

describe('verification-artifacts: fixes', () => {
  it('a task traceability.json names that does not exist is removed by its fix; an untraced REQ is added with its tasks', () => {
    withRepo((r) => {
      verifiedSpec(r);
      const trace = r.json(`${SPEC}/traceability.json`);
      trace.requirements['REQ-001'].behaviors['REQ-001-B02'].tasks = ['T1', 'T8'];
      delete trace.requirements['REQ-002'];
      r.write(`${SPEC}/traceability.json`, trace);
      const result = verificationArtifacts(load(r));
      assert.deepEqual((result.findings ?? []).map(line), [
        'VA-1 error missing traceability.json:2 traceability.json does not trace REQ-002 → update_traceability: add REQ-002 to traceability.json',
        'VA-2 error missing traceability.json:2 REQ-002-B01 is not closed: no task, no test, no evidence → update_traceability: give REQ-002-B01 its task, test and evidence',
        'VA-3 error missing traceability.json:25 traceability.json names T8, but tasks/T8.md does not exist',
      ]);
      assert.deepEqual(Object.fromEntries(result.fixes ?? []), {
        'VA-1': { type: 'traceability', file: 'traceability.json', change: { op: 'add-requirement', requirement: 'REQ-002', tasks: ['T2'], behaviors: [{ id: 'REQ-002-B01', tasks: ['T2'] }] } },
        'VA-3': { type: 'traceability', file: 'traceability.json', change: { op: 'remove-tasks', requirement: 'REQ-001', behavior: 'REQ-001-B02', tasks: ['T8'] } },
      });
      const text = r.read(`${SPEC}/traceability.json`);
      r.write(`${SPEC}/traceability.json`, applyTextEdits(text, findingFixEdits(`${SPEC}/traceability.json`, text, result.fixes!.get('VA-3')!)));
      assert.deepEqual(r.json(`${SPEC}/traceability.json`).requirements['REQ-001'].behaviors['REQ-001-B02'].tasks, ['T1']);
    });
  });
});
