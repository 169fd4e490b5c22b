import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { applyTextEdits } from '../../helpers/textEdits';
import { findingFixEdits, type FindingFix } from '../../../src/core/validators/findingFix';
import { planningArtifacts } from '../../../src/core/validators/planningArtifacts';
import type { ValidatorResult } from '../../../src/core/validators/validatorResult';
import { expandedRequirements, line, load, plannedSpec, SPEC, taskText, withRepo, type TempRepo } from './validatorFixture';

const trace = (tasks: string[], behaviors?: Record<string, object>) => ({ tasks, tests: [], evidence: [], ...(behaviors ? { behaviors } : {}) });

/** planning-artifacts on plannedSpec() changed by `setup`: its result, its findings one per line, and its fixes by finding id. */
function planning(r: TempRepo, setup: (r: TempRepo) => void = () => {}) {
  plannedSpec(r);
  setup(r);
  const result = planningArtifacts(load(r));
  assert.equal(result.name, 'planning-artifacts');
  return { result, lines: (result.findings ?? []).map(line), fixes: Object.fromEntries(result.fixes ?? []) as Record<string, FindingFix> };
}

/** Applies every fix of `result` to the spec's files, each to the file as the fixes before it left it. */
function applyFixes(r: TempRepo, result: ValidatorResult): void {
  for (const fix of (result.fixes ?? new Map()).values()) {
    const file = `${SPEC}/${fix.file}`;
    const text = r.read(file);
    r.write(file, applyTextEdits(text, findingFixEdits(file, text, fix)));
  }
}

describe('planning-artifacts', () => {
  it('passes a planned spec, with no findings', () => {
    withRepo((r) => {
      const { result } = planning(r);
      assert.deepEqual([result.passed, result.problems, result.findings], [true, [], []]);
    });
  });

  // loom 3 validate-plan.mjs: once plan.md names one task file as tasks/TN.md (any case), every task file must be
  // named so ("plan.md Task overview does not reference tasks/T2.md"). loom's planning-artifacts gate
  // (pipeline-engine.js ADVANCE_VALIDATORS) does not read plan.md, so here it is shown and does not block.
  it('a task file the task overview leaves out, where it links others as tasks/TN.md, is a warning that does not block', () => {
    withRepo((r) => {
      const { result, lines } = planning(r, (x) => x.write(`${SPEC}/plan.md`, '# Plan\n\n| Task |\n|---|\n| [T1](TASKS/t1.md) |\n| T2 |\n'));
      assert.equal(result.passed, true);
      assert.deepEqual(lines, ['PA-1 warning missing plan.md:1 plan.md names other task files as tasks/TN.md but not tasks/T2.md → : add [T2](tasks/T2.md) to the task overview in plan.md']);
      // A plan.md that names no task file as tasks/TN.md is left alone, as validate-plan.mjs leaves it.
      assert.deepEqual(planning(r, (x) => x.write(`${SPEC}/plan.md`, '# Plan\n\nT1.md, then T2.md\n')).lines, []);
      assert.deepEqual(planning(r).lines, []);
    });
  });

  it('puts each gap on its line of traceability.json, with the fix that fills it from the task files', () => {
    withRepo((r) => {
      const { result, lines, fixes } = planning(r, (x) =>
        x.write(`${SPEC}/traceability.json`, {
          requirements: { 'REQ-001': trace([], { 'REQ-001-B01': trace(['T1', 'T7.md']) }) },
        }),
      );
      assert.equal(result.passed, false);
      assert.deepEqual(lines, [
        "PA-1 error missing traceability.json:3 REQ-001 maps to no task in traceability.json → update_traceability: add T1 to REQ-001's tasks",
        "PA-2 error missing traceability.json:8 REQ-001-B01 maps to T7.md, but tasks/T7.md does not exist → update_traceability: remove T7.md from REQ-001-B01's tasks, or create tasks/T7.md",
        "PA-3 error missing traceability.json:7 REQ-001-B02 maps to no task in traceability.json → update_traceability: add T1 to REQ-001-B02's tasks",
        'PA-4 error missing traceability.json:2 REQ-002 is missing from traceability.json → update_traceability: add REQ-002 to traceability.json with T2',
      ]);
      assert.deepEqual(result.problems, [
        'REQ-001 maps to no task in traceability.json',
        'REQ-001-B01 maps to T7.md, but tasks/T7.md does not exist',
        'REQ-001-B02 maps to no task in traceability.json',
        'REQ-002 is missing from traceability.json',
      ]);
      assert.deepEqual(
        result.findings!.map((f) => [f.requirement_id, f.behavior_id, f.artifact]),
        [
          ['REQ-001', undefined, 'traceability.json'],
          ['REQ-001', 'REQ-001-B01', 'traceability.json'],
          ['REQ-001', 'REQ-001-B02', 'traceability.json'],
          ['REQ-002', undefined, 'traceability.json'],
        ],
      );
      assert.deepEqual(fixes, {
        'PA-1': { type: 'traceability', file: 'traceability.json', change: { op: 'add-tasks', requirement: 'REQ-001', tasks: ['T1'] } },
        'PA-2': { type: 'traceability', file: 'traceability.json', change: { op: 'remove-tasks', requirement: 'REQ-001', behavior: 'REQ-001-B01', tasks: ['T7.md'] } },
        'PA-3': { type: 'traceability', file: 'traceability.json', change: { op: 'add-tasks', requirement: 'REQ-001', behavior: 'REQ-001-B02', tasks: ['T1'] } },
        'PA-4': { type: 'traceability', file: 'traceability.json', change: { op: 'add-requirement', requirement: 'REQ-002', tasks: ['T2'], behaviors: [{ id: 'REQ-002-B01', tasks: ['T2'] }] } },
      });

      applyFixes(r, result);
      assert.deepEqual(planningArtifacts(load(r)).findings, [], 'the fixes close every gap');
      assert.deepEqual(r.json(`${SPEC}/traceability.json`), {
        requirements: {
          'REQ-001': trace(['T1'], { 'REQ-001-B01': trace(['T1']), 'REQ-001-B02': trace(['T1']) }),
          'REQ-002': trace(['T2'], { 'REQ-002-B01': trace(['T2']) }),
        },
      });
    });
  });

  it('fixes the array form too, keeping it', () => {
    withRepo((r) => {
      const { result, lines } = planning(r, (x) =>
        x.write(`${SPEC}/traceability.json`, {
          requirements: [{ id: 'REQ-001', ...trace(['T1'], { 'REQ-001-B01': trace(['T1']), 'REQ-001-B02': trace(['T1']) }) }],
        }),
      );
      assert.deepEqual(lines, ['PA-1 error missing traceability.json:2 REQ-002 is missing from traceability.json → update_traceability: add REQ-002 to traceability.json with T2']);
      applyFixes(r, result);
      assert.equal(planningArtifacts(load(r)).passed, true);
      assert.deepEqual(
        r.json(`${SPEC}/traceability.json`).requirements.map((e: { id: string }) => e.id),
        ['REQ-001', 'REQ-002'],
      );
    });
  });

  it('offers no fix where no task file says which task implements it', () => {
    withRepo((r) => {
      const { result, lines } = planning(r, (x) => {
        x.write(`${SPEC}/tasks/T1.md`, taskText({ owns: ['src/login.ts'], requirements: [], behavior_ids: ['REQ-001-B01'] }, 'T1: Login'));
        x.write(`${SPEC}/tasks/T2.md`, taskText({ owns: ['src/logout.ts'], requirements: [], behavior_ids: [] }, 'T2: Logout'));
        x.write(`${SPEC}/traceability.json`, {
          requirements: { 'REQ-001': trace(['T1'], { 'REQ-001-B01': trace(['T1']) }), 'REQ-002': trace([], { 'REQ-002-B01': trace([]) }) },
        });
      });
      assert.deepEqual(lines, [
        'PA-1 error missing traceability.json:9 REQ-001-B02 maps to no task in traceability.json → update_task: add REQ-001-B02 to the behavior_ids of the task that implements it, then to its tasks here',
        "PA-2 error missing traceability.json:19 REQ-002 maps to no task in traceability.json → create_task: create a task for REQ-002 and list it in REQ-002's tasks",
        'PA-3 error missing traceability.json:24 REQ-002-B01 maps to no task in traceability.json → update_task: add REQ-002-B01 to the behavior_ids of the task that implements it, then to its tasks here',
      ]);
      assert.deepEqual(result.fixes, new Map());
    });
  });

  // loom 3 traceability.js validateTraceabilityFile knows no applicability: a not-applicable behavior is traced to its task too.
  it('traces a behavior settled as not-applicable like any other in a requirement it adds', () => {
    withRepo((r) => {
      const { result, lines, fixes } = planning(r, (x) => {
        const ledger = expandedRequirements();
        Object.assign(ledger.requirements[0].behaviors[1], { applicability: 'not-applicable' });
        x.write(`${SPEC}/requirements.json`, ledger);
        x.write(`${SPEC}/traceability.json`, { requirements: { 'REQ-002': trace(['T2'], { 'REQ-002-B01': trace(['T2']) }) } });
      });
      assert.deepEqual(lines, ['PA-1 error missing traceability.json:2 REQ-001 is missing from traceability.json → update_traceability: add REQ-001 to traceability.json with T1']);
      assert.deepEqual(fixes['PA-1'], {
        type: 'traceability',
        file: 'traceability.json',
        change: {
          op: 'add-requirement',
          requirement: 'REQ-001',
          tasks: ['T1'],
          behaviors: [
            { id: 'REQ-001-B01', tasks: ['T1'] },
            { id: 'REQ-001-B02', tasks: ['T1'] },
          ],
        },
      });
      applyFixes(r, result);
      assert.equal(planningArtifacts(load(r)).passed, true);
      assert.deepEqual(Object.keys(r.json(`${SPEC}/traceability.json`).requirements), ['REQ-001', 'REQ-002'], 'REQ-001 goes before REQ-002');
    });
  });

  it('a requirement spec.md names must be traced; one nobody names is unrequested, with no fix', () => {
    withRepo((r) => {
      const { result, lines } = planning(r, (x) => {
        x.write(`${SPEC}/spec.md`, '# Login\n\nREQ-001, REQ-002 and REQ-003.\n');
        const t = x.json(`${SPEC}/traceability.json`);
        t.requirements['REQ-009'] = trace(['T1']);
        x.write(`${SPEC}/traceability.json`, t);
      });
      assert.deepEqual(lines, [
        'PA-1 error missing traceability.json:2 REQ-003 is missing from traceability.json → update_traceability: add REQ-003 to traceability.json',
        'PA-2 error unrequested traceability.json:42 traceability.json traces REQ-009, which neither spec.md nor requirements.json names → update_traceability: remove REQ-009 from traceability.json, or declare it in spec.md and requirements.json',
      ]);
      assert.deepEqual([...result.fixes!.keys()], ['PA-1']);
    });
  });

  it('reports a missing or unreadable file on the file, at the line of its first error, and checks nothing else', () => {
    withRepo((r) => {
      const { result, lines } = planning(r, (x) => {
        rmSync(x.path(`${SPEC}/traceability.json`));
        x.write(`${SPEC}/requirements.json`, '{\n  "requirements": [\n    { "id": "REQ-001", }\n  ]\n}\n');
      });
      assert.deepEqual(lines, [
        'PA-1 error missing traceability.json traceability.json does not exist',
        'PA-2 error format requirements.json:3 requirements.json could not be read (see the Problems it reports)',
      ]);
      assert.deepEqual(result.problems, ['traceability.json does not exist', 'requirements.json could not be read (see the Problems it reports)']);
      assert.equal(result.passed, false);
    });
  });
});
