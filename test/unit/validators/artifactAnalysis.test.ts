import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { CorruptArtifactError, OverrideRefusedError, TransitionRefusedError } from '../../../src/core/errors';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { evaluateGuard } from '../../../src/core/pipeline/guards';
import { analyzeArtifacts, artifactAnalysisPass, recordOverride, writeArtifactAnalysis } from '../../../src/core/validators/artifactAnalysis';
import { state } from '../../helpers/tempRepo';
import { applyTextEdits } from '../../helpers/textEdits';
import { findingFixEdits } from '../../../src/core/validators/findingFix';
import { line, load, NOW, plannedSpec, SPEC, taskText, withRepo, type TempRepo } from './validatorFixture';
import { advance } from '../../helpers/intents';

/** The analysis of plannedSpec() changed by `setup`. */
function analysis(setup: (r: TempRepo) => void = () => {}) {
  return withRepo((r) => {
    plannedSpec(r);
    setup(r);
    const report = analyzeArtifacts(load(r), NOW);
    return { status: report.status, blocker_count: report.blocker_count, coverage: report.coverage, lines: report.findings.map(line) };
  });
}

const FULL = { requirement_coverage: '100%', behavior_coverage: '100%', required_category_coverage: '100%', traceability_req_coverage: '100%', traceability_behavior_coverage: '100%' };

describe('artifact-analysis-pass: the analysis', () => {
  it('passes consistent planning artifacts with full coverage', () => {
    assert.deepEqual(analysis(), { status: 'pass', blocker_count: 0, coverage: FULL, lines: [] });
  });

  it('spec.md and requirements.json must name the same requirements, and each needs a task and a trace', () => {
    const out = analysis((r) => r.write(`${SPEC}/spec.md`, '# Login\n\n- REQ-001: users log in.\n- REQ-003: audit.\n'));
    assert.equal(out.status, 'blocked');
    assert.equal(out.blocker_count, 4);
    assert.deepEqual(out.coverage, { ...FULL, requirement_coverage: '50%', traceability_req_coverage: '67%' });
    assert.deepEqual(out.lines, [
      'F-1 blocker missing spec.md:4 requirements.json does not declare REQ-003, which spec.md names → update_requirement: add REQ-003 to requirements.json',
      'F-2 error unrequested requirements.json:58 requirements.json declares REQ-002, which spec.md does not name → update_requirement: remove REQ-002 or describe it in spec.md',
      "F-3 blocker missing spec.md:4 REQ-003 is not in any task's requirements → update_task: add REQ-003 to T1's requirements, or create a task for it",
      'F-4 blocker missing traceability.json:2 traceability.json does not trace REQ-003 → update_traceability: add REQ-003 with its tasks to traceability.json',
    ]);
  });

  it('a behavior no task implements is a blocker whose fix names the task to add it to; so is a task naming an unknown behavior', () => {
    const out = analysis((r) => r.write(`${SPEC}/tasks/T1.md`, taskText({ owns: ['src/login.ts'], requirements: ['REQ-001'], behavior_ids: ['REQ-001-B01', 'REQ-009-B01'] }, 'T1: Login')));
    assert.equal(out.coverage.behavior_coverage, '67%');
    assert.deepEqual(out.lines, [
      "F-1 blocker unrequested tasks/T1.md:4 T1 names behavior REQ-009-B01, which requirements.json does not declare → update_task: remove REQ-009-B01 from T1's behavior_ids",
      "F-2 blocker missing requirements.json:37 REQ-001-B02 is not in any task's behavior_ids → update_task: add REQ-001-B02 to T1's behavior_ids",
    ]);
  });

  // loom 3 analyze-artifacts.mjs knows no applicability: a not-applicable behavior without a task or trace blocks.
  it('a behavior settled as not-applicable still needs its task and trace, and counts in both behavior figures', () => {
    const out = analysis((r) => {
      const reqs = r.json(`${SPEC}/requirements.json`);
      Object.assign(reqs.requirements[0].behaviors[1], { applicability: 'not-applicable' });
      r.write(`${SPEC}/requirements.json`, reqs);
      r.write(`${SPEC}/tasks/T1.md`, taskText({ owns: ['src/login.ts'], requirements: ['REQ-001'], behavior_ids: ['REQ-001-B01'] }, 'T1: Login'));
      const trace = r.json(`${SPEC}/traceability.json`);
      delete trace.requirements['REQ-001'].behaviors['REQ-001-B02'];
      r.write(`${SPEC}/traceability.json`, trace);
    });
    assert.deepEqual(out, {
      status: 'blocked',
      blocker_count: 2,
      coverage: { ...FULL, behavior_coverage: '67%', traceability_behavior_coverage: '67%' },
      lines: [
        "F-1 blocker missing requirements.json:37 REQ-001-B02 is not in any task's behavior_ids → update_task: add REQ-001-B02 to T1's behavior_ids",
        'F-2 error missing traceability.json:3 traceability.json does not trace REQ-001-B02 → update_traceability: trace REQ-001-B02 to the task that implements it',
      ],
    });
  });

  it('a dependency cycle is a blocker, an owns conflict an error', () => {
    const out = analysis((r) => {
      r.write(`${SPEC}/tasks/T1.md`, taskText({ owns: ['src/'], depends_on: ['T2'], requirements: ['REQ-001'], behavior_ids: ['REQ-001-B01', 'REQ-001-B02'] }, 'T1: Login'));
      r.write(`${SPEC}/tasks/T3.md`, taskText({ owns: ['src/login.ts'], requirements: ['REQ-001'], behavior_ids: [] }, 'T3: More'));
      r.write(`${SPEC}/plan.md`, '# Plan\nT1.md T2.md T3.md\n');
    });
    assert.deepEqual(out.lines, [
      'F-1 blocker contradicts tasks/T1.md:3 T1, T2 depend on each other in a cycle → update_task: break the cycle in the depends_on of T1, T2',
      'F-2 error contradicts tasks/T1.md:2 T1 and T3 may run together but both touch src/login.ts → update_task: make T3 depend on T1, or split what they own',
    ]);
  });

  it('traceability.json: a missing requirement blocks; untraced behaviors, unknown entries and task files that do not exist are errors', () => {
    const out = analysis((r) =>
      r.write(`${SPEC}/traceability.json`, {
        requirements: {
          'REQ-001': {
            tasks: ['T1', 'T7'],
            tests: [],
            evidence: [],
            behaviors: { 'REQ-001-B01': { tasks: ['T1'], tests: [], evidence: [] }, 'REQ-001-B09': { tasks: ['T1'], tests: [], evidence: [] } },
          },
          'REQ-005': { tasks: [], tests: [], evidence: [] },
        },
      }),
    );
    assert.deepEqual(out.coverage, { ...FULL, traceability_req_coverage: '50%', traceability_behavior_coverage: '33%' });
    assert.deepEqual(out.lines, [
      'F-1 error missing traceability.json:3 traceability.json does not trace REQ-001-B02 → update_traceability: trace REQ-001-B02 to the task that implements it',
      'F-2 error unrequested traceability.json:18 traceability.json traces REQ-001-B09, which REQ-001 does not declare → update_traceability: remove REQ-001-B09 from traceability.json',
      "F-3 error missing traceability.json:3 traceability.json traces REQ-001 to T7, but tasks/T7.md does not exist → update_traceability: remove T7 from REQ-001's tasks",
      'F-4 blocker missing traceability.json:2 traceability.json does not trace REQ-002 → update_traceability: add REQ-002 with its tasks to traceability.json',
      'F-5 error unrequested traceability.json:27 traceability.json traces REQ-005, which neither spec.md nor requirements.json declares → update_traceability: remove REQ-005 from traceability.json',
    ]);
  });

  it('its traceability.json findings carry fixes that, applied one after another, close them', () => {
    withRepo((r) => {
      plannedSpec(r);
      r.write(`${SPEC}/traceability.json`, {
        requirements: {
          'REQ-001': { tasks: ['T1', 'T7'], tests: [], evidence: [], behaviors: { 'REQ-001-B01': { tasks: ['T1'], tests: [], evidence: [] } } },
        },
      });
      const first = artifactAnalysisPass(load(r));
      assert.deepEqual(Object.fromEntries(first.fixes ?? []), {
        'F-1': { type: 'traceability', file: 'traceability.json', change: { op: 'add-tasks', requirement: 'REQ-001', behavior: 'REQ-001-B02', tasks: ['T1'] } },
        'F-2': { type: 'traceability', file: 'traceability.json', change: { op: 'remove-tasks', requirement: 'REQ-001', tasks: ['T7'] } },
        'F-3': { type: 'traceability', file: 'traceability.json', change: { op: 'add-requirement', requirement: 'REQ-002', tasks: ['T2'], behaviors: [{ id: 'REQ-002-B01', tasks: ['T2'] }] } },
      });
      for (const fix of (first.fixes ?? new Map()).values()) {
        const file = `${SPEC}/${fix.file}`;
        const text = r.read(file);
        r.write(file, applyTextEdits(text, findingFixEdits(file, text, fix)));
      }
      const after = artifactAnalysisPass(load(r));
      assert.deepEqual(after.findings, []);
      assert.equal(after.passed, true);
    });
  });

  it('plan.md and tasks/ must agree; placeholders, critical types without behaviors, duplicates and thin test plans are found', () => {
    const out = analysis((r) => {
      r.write(`${SPEC}/plan.md`, '# Plan\n\n[T1](tasks/T1.md) first, then T4.\n\nTBD: rollout.\n');
      const ledger = r.json(`${SPEC}/requirements.json`);
      ledger.requirements[1].types.push('performance');
      ledger.requirements[1].behaviors.push({ ...ledger.requirements[1].behaviors[0], id: 'REQ-002-B02', test_plan: { strategy: 'unit' } });
      r.write(`${SPEC}/requirements.json`, ledger);
      r.write(`${SPEC}/tasks/T2.md`, taskText({ owns: ['src/logout.ts'], depends_on: ['T1'], requirements: ['REQ-002'], behavior_ids: ['REQ-002-B01', 'REQ-002-B02'] }, 'T2: Logout'));
    });
    assert.deepEqual(out.coverage, { ...FULL, required_category_coverage: '75%', traceability_behavior_coverage: '75%' });
    assert.deepEqual(out.lines, [
      'F-1 error unrequested tasks/T2.md:1 T2 has a task file but plan.md does not name T2.md → : name T2.md in plan.md (e.g. [T2](tasks/T2.md) in the task overview), or remove tasks/T2.md',
      'F-2 blocker missing plan.md:3 plan.md names T4, but tasks/T4.md does not exist → create_task: create tasks/T4.md',
      'F-3 error missing traceability.json:26 traceability.json does not trace REQ-002-B02 → update_traceability: trace REQ-002-B02 to the task that implements it',
      'F-4 error missing requirements.json:58 REQ-002 is declared performance but has no performance behavior → update_requirement: add a performance behavior to REQ-002',
      'F-5 error placeholder plan.md:5 plan.md line 5 still holds the placeholder TBD',
      'F-6 warning contradicts requirements.json:88 REQ-002-B02 has the same description as REQ-002-B01 → update_requirement: merge REQ-002-B02 into REQ-002-B01, or tell them apart',
      "F-7 warning partial requirements.json:88 REQ-002-B02's test_plan expects nothing → update_requirement: fill in REQ-002-B02's test_plan.expected",
    ]);
  });

  // loom 3 analyze-artifacts.mjs: `planContent.includes(taskFile)` with the file name as readdir gives it, else an
  // orphan_task error, which blocks the approved gate. The word T2, or t2.md for T2.md, is not enough.
  it('a task is listed in plan.md only where plan.md contains its file name as it is on disk', () => {
    const unlisted = (plan: string, rename?: string) =>
      withRepo((r) => {
        plannedSpec(r);
        r.write(`${SPEC}/plan.md`, plan);
        if (rename) {
          r.write(`${SPEC}/tasks/${rename}`, r.read(`${SPEC}/tasks/T2.md`));
          rmSync(r.path(`${SPEC}/tasks/T2.md`));
        }
        return analyzeArtifacts(load(r), NOW)
          .findings.filter((f) => f.artifact === 'plan.md' && f.kind === 'unrequested')
          .map((f) => `${f.severity} ${f.message}`);
      });
    assert.deepEqual(unlisted('# Plan\n\n| T1 | Login |\n| T2 | Logout |\n'), ['error T1 has a task file but plan.md does not name T1.md', 'error T2 has a task file but plan.md does not name T2.md']);
    assert.deepEqual(unlisted('# Plan\n\n[T1](tasks/T1.md), then [T2](tasks/t2.md)\n'), ['error T2 has a task file but plan.md does not name T2.md']);
    assert.deepEqual(unlisted('# Plan\n\n[T1](tasks/T1.md), then [T2](tasks/T2.md)\n'), []);
    assert.deepEqual(unlisted('# Plan\n\n[T1](tasks/T1.md), then [T2](tasks/T2.md)\n', 't2.md'), ['error t2 has a task file but plan.md does not name t2.md']);
    assert.deepEqual(unlisted('# Plan\n\n[T1](tasks/T1.md), then [t2](tasks/t2.md)\n', 't2.md'), []);
  });

  it('missing planning artifacts are blockers', () => {
    const lines = withRepo((r) => {
      r.write(`${SPEC}/.keep`, '');
      return analyzeArtifacts(load(r), NOW).findings.map(line);
    });
    assert.deepEqual(lines, [
      'F-1 blocker missing spec.md spec.md does not exist',
      'F-2 blocker missing requirements.json requirements.json does not exist',
      'F-3 blocker missing traceability.json traceability.json does not exist',
      'F-4 blocker missing plan.md plan.md does not exist',
    ]);
  });
});

/** plannedSpec() with one error finding: T2 is not listed in plan.md. */
const withOneError = (r: TempRepo) => {
  plannedSpec(r);
  r.write(`${SPEC}/plan.md`, '# Plan\n\n[T1](tasks/T1.md) only.\n');
};

describe('artifact-analysis-pass: overrides and the written report', () => {
  // loom's runAnalyzeArtifacts (analyze-artifacts.mjs) counts every blocker and error in
  // blocker_count and knows no override: an override records the user's word, never a pass.
  it('recordOverride records who accepts an error and why, and the finding still counts; never a blocker or a warning', () => {
    withRepo((r) => {
      withOneError(r);
      r.write(`${SPEC}/tasks/T1.md`, taskText({ owns: ['src/login.ts'], requirements: ['REQ-001'], behavior_ids: ['REQ-001-B01', 'REQ-001-B02', 'REQ-009-B01'] }, 'T1: Login'));
      const report = analyzeArtifacts(load(r), NOW);
      assert.deepEqual(
        report.findings.map((f) => `${f.id} ${f.severity}`),
        ['F-1 error', 'F-2 blocker'],
      );
      const overridden = recordOverride(report, 'F-1', '  T2 is listed in the release notes  ', NOW, 'ana (loom-vscode analyze --override)');
      assert.deepEqual(overridden.overrides, [
        { finding_id: 'F-1', message: 'T2 has a task file but plan.md does not name T2.md', reason: 'T2 is listed in the release notes', at: NOW, by: 'ana (loom-vscode analyze --override)' },
      ]);
      assert.equal(overridden.blocker_count, 2, 'the overridden error and the blocker both count, as loom counts them');
      assert.equal(overridden.status, 'blocked');
      assert.equal(report.overrides, undefined, 'pure: the input is unchanged');
      assert.throws(
        () => recordOverride(report, 'F-2', 'why not', NOW),
        (e: unknown) => e instanceof OverrideRefusedError && /F-2 is a blocker: fix it/.test(e.message),
      );
      assert.throws(() => recordOverride(report, 'F-9', 'why not', NOW), /has no finding F-9/);
      assert.throws(() => recordOverride(report, 'F-1', '  ', NOW), /needs a reason/);
    });
  });

  it("writes artifact-analysis.json in loom's form; an override is kept beside it and never lets the gate pass", () => {
    withRepo((r) => {
      withOneError(r);
      const first = writeArtifactAnalysis(load(r), { now: NOW });
      assert.equal(first.written, true);
      const onDisk = r.json(`${SPEC}/artifact-analysis.json`);
      assert.deepEqual(Object.keys(onDisk), ['stage', 'status', 'coverage', 'findings', 'blocker_count', 'created_at']);
      assert.deepEqual(
        { stage: onDisk.stage, status: onDisk.status, blocker_count: onDisk.blocker_count, created_at: onDisk.created_at },
        { stage: 'analyze-artifacts', status: 'blocked', blocker_count: 1, created_at: NOW },
      );
      assert.deepEqual(onDisk.findings[0], {
        id: 'F-1',
        kind: 'unrequested',
        severity: 'error',
        task_id: 'T2',
        artifact: 'plan.md',
        message: 'T2 has a task file but plan.md does not name T2.md',
        location: { file: 'tasks/T2.md', line: 1 },
        suggested_fix: { details: 'name T2.md in plan.md (e.g. [T2](tasks/T2.md) in the task overview), or remove tasks/T2.md' },
      });
      const guard = () => evaluateGuard({ type: 'analysisHasNoBlocker', params: {} }, { snapshot: load(r) });
      assert.deepEqual(guard().reasons, ['artifact-analysis.json reports 1 blocker (status: blocked): T2 has a task file but plan.md does not name T2.md']);
      assert.deepEqual(artifactAnalysisPass(load(r)).problems, ['F-1 T2 has a task file but plan.md does not name T2.md']);

      const later = '2026-11-29T13:00:00.000Z';
      const before = r.read(`${SPEC}/artifact-analysis.json`);
      const recorded = writeArtifactAnalysis(load(r), { now: later, override: { findingId: 'F-1', reason: 'listed elsewhere', by: 'ana (loom-vscode analyze --override)' } });
      const override = { finding_id: 'F-1', message: 'T2 has a task file but plan.md does not name T2.md', reason: 'listed elsewhere', at: later, by: 'ana (loom-vscode analyze --override)' };
      // The report is what loom's script writes: recording an override leaves it (and its fingerprint) as it was.
      assert.equal(r.read(`${SPEC}/artifact-analysis.json`), before);
      assert.deepEqual(r.json(`${SPEC}/artifact-analysis.overrides.json`).overrides, [override]);
      assert.deepEqual([recorded.report.status, recorded.report.blocker_count, recorded.report.overrides], ['blocked', 1, [override]]);
      // The gate decides as loom's runAnalyzeArtifacts: the error blocks, and the refusal says why the override does not help.
      const stillBlocks =
        "T2 has a task file but plan.md does not name T2.md (overridden here by ana (loom-vscode analyze --override): listed elsewhere; loom's run --advance re-runs analyze-artifacts and does not read overrides, so the artifact must be fixed)";
      assert.deepEqual(guard().reasons, [`artifact-analysis.json reports 1 blocker (status: blocked): ${stillBlocks}`]);
      const pass = artifactAnalysisPass(load(r));
      assert.equal(pass.passed, false, 'an override never passes what loom refuses');
      assert.deepEqual(pass.problems, [`F-1 ${stillBlocks}`]);
      assert.deepEqual([...(pass.overridden ?? [])], [['F-1', { reason: 'listed elsewhere', by: 'ana (loom-vscode analyze --override)' }]]);

      // An older artifact-analysis.json that carried the overrides is still read, and rewritten as loom writes it.
      r.write(`${SPEC}/artifact-analysis.json`, JSON.stringify({ ...onDisk, overrides: [override] }, null, 2));
      rmSync(r.path(`${SPEC}/artifact-analysis.overrides.json`));
      const migrated = writeArtifactAnalysis(load(r), { now: later });
      assert.deepEqual(migrated.report.overrides, [override]);
      assert.equal(r.json(`${SPEC}/artifact-analysis.json`).overrides, undefined);
      assert.deepEqual(r.json(`${SPEC}/artifact-analysis.overrides.json`).overrides, [override]);

      // Analysing again keeps the override while its finding stands, and does not rewrite an unchanged report.
      const kept = r.read(`${SPEC}/artifact-analysis.json`);
      const again = writeArtifactAnalysis(load(r), { now: '2026-11-30T00:00:00.000Z' });
      assert.equal(again.written, false);
      assert.deepEqual(again.report.overrides, [override]);
      assert.equal(r.read(`${SPEC}/artifact-analysis.json`), kept);

      // Once the finding is fixed, its override is dropped with it.
      r.write(`${SPEC}/plan.md`, '# Plan\n\n[T1](tasks/T1.md), then [T2](tasks/T2.md).\n');
      writeArtifactAnalysis(load(r), { now: later });
      const fixed = r.json(`${SPEC}/artifact-analysis.json`);
      assert.deepEqual([fixed.status, fixed.findings, fixed.overrides], ['pass', [], undefined]);
      assert.deepEqual(r.json(`${SPEC}/artifact-analysis.overrides.json`).overrides, []);
    });
  });

  it("advancing from analyze-artifacts writes the analysis first and refuses an overridden error, as loom's run --advance does", () => {
    withRepo((r) => {
      withOneError(r);
      r.write('.loom/workflow.yaml', 'pipelines:\n  feature:\n    steps:\n      - { id: analyze-artifacts, next: approved, validators: [artifact-analysis-pass] }\n      - { id: approved }\n');
      r.write(`${SPEC}/pipeline.state.json`, state('analyze-artifacts'));
      assert.throws(
        () => advance(new LoomRepository(r.root).load().get(SPEC)!, { now: NOW }),
        (e: unknown) => e instanceof TransitionRefusedError && e.reasons.includes('artifact-analysis-pass: F-1 T2 has a task file but plan.md does not name T2.md'),
      );
      assert.equal(r.json(`${SPEC}/artifact-analysis.json`).status, 'blocked');
      writeArtifactAnalysis(load(r), { now: NOW, override: { findingId: 'F-1', reason: 'listed elsewhere' } });
      r.write(`${SPEC}/handoffs/analyze-artifacts.json`, { status: 'done', summary: 'analysed', artifacts: [] });
      // loom 3's ADVANCE_VALIDATORS['artifact-analysis-pass'] re-runs runAnalyzeArtifacts, which reads no override.
      assert.throws(
        () => advance(new LoomRepository(r.root).load().get(SPEC)!, { now: NOW, confirm: true }),
        (e: unknown) =>
          e instanceof TransitionRefusedError &&
          e.reasons.some(
            (x) => x.startsWith('artifact-analysis-pass: F-1 T2 has a task file but plan.md does not name T2.md (overridden here: listed elsewhere;') && x.includes('the artifact must be fixed'),
          ),
      );
      assert.equal(r.json(`${SPEC}/pipeline.state.json`).current_stage, 'analyze-artifacts');
      // Fixing the artifact is what lets it through (loom's script looks for the file name, T2.md, in plan.md).
      r.write(`${SPEC}/plan.md`, '# Plan\n\nT1.md, then T2.md.\n');
      const moved = advance(new LoomRepository(r.root).load().get(SPEC)!, { now: NOW, confirm: true });
      assert.deepEqual([moved.from, moved.to], ['analyze-artifacts', 'approved']);
    });
  });

  it('never overwrites a corrupt artifact-analysis.json', () => {
    withRepo((r) => {
      plannedSpec(r);
      const path = r.write(`${SPEC}/artifact-analysis.json`, '{ "status": ');
      assert.throws(
        () => writeArtifactAnalysis(load(r), { now: NOW }),
        (e: unknown) => e instanceof CorruptArtifactError && /artifact-analysis.json is corrupt/.test(e.message),
      );
      assert.equal(readFileSync(path, 'utf8'), '{ "status": ');
      writeFileSync(path, '{}');
    });
  });
});
