import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { detailExpansionPass } from '../../../src/core/validators/detailExpansion';
import { expandedRequirements, line, load, SPEC, withRepo, type TempRepo } from './validatorFixture';

type Ledger = ReturnType<typeof expandedRequirements>;

/** detail-expansion-pass on expandedRequirements() changed by `edit`; the findings, one line each. */
function findings(edit: (ledger: Ledger) => void = () => {}, setup?: (r: TempRepo) => void): { passed: boolean; lines: string[]; problems: string[] } {
  return withRepo((r) => {
    const ledger = expandedRequirements();
    edit(ledger);
    r.write(`${SPEC}/requirements.json`, ledger);
    setup?.(r);
    const result = detailExpansionPass(load(r));
    assert.equal(result.name, 'detail-expansion-pass');
    return { passed: result.passed, lines: (result.findings ?? []).map(line), problems: result.problems };
  });
}

describe('detail-expansion-pass', () => {
  it('passes a fully expanded ledger', () => {
    assert.deepEqual(findings(), { passed: true, lines: [], problems: [] });
  });

  it('needs a behavior for every required category, declared or implied by types', () => {
    const out = findings((l) => {
      l.requirements[0].behaviors.splice(1, 1); // the invalid-input behavior `input` implies
      l.requirements[1].required_categories = ['boundary'] as never;
    });
    assert.equal(out.passed, false);
    assert.deepEqual(out.lines, [
      'DE-1 error missing requirements.json:4 REQ-001 has no invalid-input behavior (add one, or one marked applicability: not-applicable) → update_requirement: add a invalid-input behavior to REQ-001',
      'DE-2 error missing requirements.json:39 REQ-002 has no boundary behavior (add one, or one marked applicability: not-applicable) → update_requirement: add a boundary behavior to REQ-002',
    ]);
    assert.deepEqual(out.problems, [
      'REQ-001 has no invalid-input behavior (add one, or one marked applicability: not-applicable)',
      'REQ-002 has no boundary behavior (add one, or one marked applicability: not-applicable)',
    ]);
  });

  it('lets a behavior marked not-applicable settle its category', () => {
    const out = findings((l) => {
      Object.assign(l.requirements[0].behaviors[1], { applicability: 'not-applicable' });
    });
    assert.deepEqual(out.lines, []);
  });

  it('needs a non-empty test_plan on every behavior', () => {
    const out = findings((l) => {
      delete (l.requirements[0].behaviors[0] as Partial<Ledger['requirements'][0]['behaviors'][0]>).test_plan;
      Object.assign(l.requirements[1].behaviors[0], { test_plan: { strategy: ' ', inputs: [], expected: [] } });
    });
    assert.deepEqual(out.lines, [
      'DE-1 error missing requirements.json:18 REQ-001-B01 has no test_plan → update_requirement: give REQ-001-B01 a test_plan (strategy, inputs, expected, coverage_target)',
      'DE-2 error missing requirements.json:58 REQ-002-B01 has no test_plan → update_requirement: give REQ-002-B01 a test_plan (strategy, inputs, expected, coverage_target)',
    ]);
  });

  // loom 3 requirements.js validateRequirementsFile(requireTestPlan): "missing structured test_plan (strategy/inputs/expected required)".
  it('needs a strategy, an input and an expected outcome in each test_plan, as loom does', () => {
    const out = findings((l) => {
      Object.assign(l.requirements[0].behaviors[0], { test_plan: { strategy: 'unit', inputs: [], expected: ['ok'] } });
      Object.assign(l.requirements[1].behaviors[0], { test_plan: { coverage_target: 'behavior acceptance' } });
    });
    assert.deepEqual(out.lines, [
      "DE-1 error partial requirements.json:18 REQ-001-B01: the test_plan needs a strategy, at least one input and at least one expected outcome → update_requirement: complete REQ-001-B01's test_plan: strategy, inputs[], expected[]",
      "DE-2 error partial requirements.json:65 REQ-002-B01: the test_plan needs a strategy, at least one input and at least one expected outcome → update_requirement: complete REQ-002-B01's test_plan: strategy, inputs[], expected[]",
    ]);
  });

  it('refuses behaviors that still require clarification', () => {
    const out = findings((l) => Object.assign(l.requirements[0].behaviors[1], { applicability: 'requires-clarification' }));
    assert.deepEqual(out.lines, [
      'DE-1 error partial requirements.json:37 REQ-001-B02 still requires clarification → update_requirement: settle REQ-001-B02: applicability applicable or not-applicable',
    ]);
  });

  it('refuses stub and placeholder descriptions', () => {
    const out = findings((l) => {
      l.requirements[0].behaviors[0].description = 'Verifiable behavior for REQ-001';
      l.requirements[1].behaviors[0].description = 'TBD';
    });
    assert.deepEqual(out.lines, [
      'DE-1 error placeholder requirements.json:18 REQ-001-B01: the description is still a placeholder ("Verifiable behavior for") → update_requirement: describe what REQ-001-B01 must do',
      'DE-2 error placeholder requirements.json:68 REQ-002-B01: the description is still a placeholder ("TBD") → update_requirement: describe what REQ-002-B01 must do',
    ]);
  });

  it('finds behaviors in the object form of requirements.json too', () => {
    const out = findings(
      () => {},
      (r) => {
        const ledger = expandedRequirements();
        delete (ledger.requirements[1].behaviors[0] as Partial<Ledger['requirements'][0]['behaviors'][0]>).test_plan;
        r.write(`${SPEC}/requirements.json`, { requirements: Object.fromEntries(ledger.requirements.map(({ id, ...rest }) => [id, rest])) });
      },
    );
    assert.deepEqual(out.lines, [
      'DE-1 error missing requirements.json:66 REQ-002-B01 has no test_plan → update_requirement: give REQ-002-B01 a test_plan (strategy, inputs, expected, coverage_target)',
    ]);
  });

  it('fails without a readable requirements.json', () => {
    assert.deepEqual(
      withRepo((r) => {
        r.write(`${SPEC}/spec.md`, '# s\n');
        return detailExpansionPass(load(r)).problems;
      }),
      ['requirements.json does not exist'],
    );
    assert.deepEqual(
      withRepo((r) => {
        r.write(`${SPEC}/requirements.json`, '{ "requirements": [ ');
        return detailExpansionPass(load(r)).problems;
      }),
      ['requirements.json could not be read (see the Problems it reports)'],
    );
    assert.deepEqual(
      withRepo((r) => {
        r.write(`${SPEC}/requirements.json`, '{\n  "requirements": [\n    { "id": "REQ-001", }\n  ]\n}\n');
        return (detailExpansionPass(load(r)).findings ?? []).map(line);
      }),
      ['DE-1 error format requirements.json:3 requirements.json could not be read (see the Problems it reports)'],
      'on the line of the syntax error',
    );
  });
});
