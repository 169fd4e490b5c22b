import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { inChinese } from '../../helpers/displayLanguage';
import { TransitionRefusedError } from '../../../src/core/errors';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { planTaskBatches } from '../../../src/core/tasks/taskBatches';
import { classifyConvergence, convergencePass, writeConvergence } from '../../../src/core/validators/convergence';
import { state } from '../../helpers/tempRepo';
import { line, load, NOW, plannedSpec, SPEC, withRepo, type TempRepo } from './validatorFixture';
import { advance } from '../../helpers/intents';

/** plannedSpec(executed) where REQ-001-B02 is partial, REQ-002-B01 missing, REQ-002-B07 unrequested. */
function withGaps(r: TempRepo): void {
  plannedSpec(r, { executed: true });
  const trace = r.json(`${SPEC}/traceability.json`);
  trace.requirements['REQ-001'].behaviors['REQ-001-B02'] = { tasks: ['T1'], tests: ['tests/missing.test.ts'], evidence: [] };
  trace.requirements['REQ-002'].behaviors['REQ-002-B01'] = { tasks: ['T2'], tests: [], evidence: [] };
  trace.requirements['REQ-002'].behaviors['REQ-002-B07'] = { tasks: ['T2'], tests: [], evidence: [] };
  r.write(`${SPEC}/traceability.json`, trace);
  for (const id of ['T1', 'T2']) r.write(`${SPEC}/task-states/${id}.state.json`, { task_id: id, status: 'done', retry_count: 0 });
}

/** A spec at converge whose workflow runs convergence-pass there, with gaps left to close. */
function atConvergeWithGaps(r: TempRepo) {
  withGaps(r);
  r.write('.loom/workflow.yaml', 'pipelines:\n  feature:\n    steps:\n      - { id: converge, next: verification, validators: [convergence-pass] }\n      - { id: verification }\n');
  r.write(`${SPEC}/pipeline.state.json`, state('converge'));
  return new LoomRepository(r.root).load().get(SPEC)!;
}

describe('convergence-pass: the classification', () => {
  it('converges when every behavior has tests and evidence that exist', () => {
    withRepo((r) => {
      plannedSpec(r, { executed: true });
      const report = classifyConvergence(load(r), 1, NOW);
      assert.deepEqual(report, {
        stage: 'converge',
        round: 1,
        status: 'converged',
        classification: { 'REQ-001-B01': 'covered', 'REQ-001-B02': 'covered', 'REQ-002-B01': 'covered' },
        findings: [],
        coverage: { behavior_coverage: '100%', missing_count: 0, partial_count: 0, contradicts_count: 0, unrequested_count: 0 },
        blocker_count: 0,
        created_at: NOW,
      });
      assert.deepEqual(convergencePass(load(r)), { name: 'convergence-pass', passed: true, problems: [], findings: [] });
    });
  });

  it('classifies missing, partial and unrequested behaviors; missing and partial need another round', () => {
    withRepo((r) => {
      withGaps(r);
      const report = classifyConvergence(load(r), 1, NOW);
      assert.equal(report.status, 'needs_another_round');
      assert.deepEqual(report.classification, { 'REQ-001-B01': 'covered', 'REQ-001-B02': 'partial', 'REQ-002-B01': 'missing', 'REQ-002-B07': 'unrequested' });
      assert.deepEqual(report.coverage, { behavior_coverage: '33%', missing_count: 1, partial_count: 1, contradicts_count: 0, unrequested_count: 1 });
      assert.equal(report.blocker_count, 2);
      assert.deepEqual(report.findings.map(line), [
        'F-conv-1 blocker partial traceability.json:25 REQ-001-B02 is partial: no evidence; tests/missing.test.ts not found → create_task: add a task that implements the tests and evidence of REQ-001-B02',
        'F-conv-2 blocker missing traceability.json:47 REQ-002-B01 is missing: no test; no evidence → create_task: add a task that implements the tests and evidence of REQ-002-B01',
        'F-conv-3 warning unrequested traceability.json:54 REQ-002-B07 is traced but requirements.json does not declare it → update_traceability: remove REQ-002-B07 from traceability.json',
      ]);
      assert.deepEqual(convergencePass(load(r)).problems, ['REQ-001-B02 is partial: no evidence; tests/missing.test.ts not found', 'REQ-002-B01 is missing: no test; no evidence']);
    });
  });
});

describe('convergence-pass: the converge step', () => {
  it('writes the report and appends one task per requirement to tasks/, plan.md and traceability.json', () => {
    withRepo((r) => {
      withGaps(r);
      r.write(`${SPEC}/pipeline.state.json`, state('converge'));
      const outcome = writeConvergence(load(r), { now: NOW });
      assert.deepEqual(outcome.appended, [
        { id: 'T3', requirement: 'REQ-001', behaviors: ['REQ-001-B02'] },
        { id: 'T4', requirement: 'REQ-002', behaviors: ['REQ-002-B01'] },
      ]);
      assert.equal(outcome.escalate, false);
      assert.equal(r.json(`${SPEC}/convergence-report.json`).round, 1);
      assert.equal(r.json(`${SPEC}/convergence-report.json`).status, 'needs_another_round');
      assert.equal(
        r.read(`${SPEC}/tasks/T3.md`),
        [
          '---',
          'owns: [src/login.ts]',
          'reads: []',
          'depends_on: [T1]',
          'requirements: [REQ-001]',
          'behavior_ids: [REQ-001-B02]',
          'complexity: low',
          '---',
          '# T3: Close the convergence gaps of REQ-001',
          '',
          'Converge round 1 found REQ-001-B02 without tests and evidence that exist. Implement what is missing, add the tests, keep their log under evidence/, and record both in traceability.json.',
          '',
        ].join('\n'),
      );
      assert.match(
        r.read(`${SPEC}/plan.md`),
        /\| \[T2\]\(tasks\/T2\.md\) \| Logout \|\n\n## Convergence round 1\n\n- \[T3\]\(tasks\/T3\.md\): close the convergence gaps of REQ-001: REQ-001-B02\n- \[T4\]\(tasks\/T4\.md\): close the convergence gaps of REQ-002: REQ-002-B01\n$/,
      );
      const trace = r.json(`${SPEC}/traceability.json`);
      assert.deepEqual(trace.requirements['REQ-001'].tasks, ['T1', 'T3']);
      assert.deepEqual(trace.requirements['REQ-001'].behaviors['REQ-001-B02'].tasks, ['T1', 'T3']);
      assert.deepEqual(trace.requirements['REQ-002'].behaviors['REQ-002-B01'].tasks, ['T2', 'T4']);
      assert.deepEqual(trace.requirements['REQ-001'].behaviors['REQ-001-B01'].tasks, ['T1'], 'covered behaviors are left alone');
      // The new tasks plan: after the tasks they extend.
      assert.deepEqual(
        planTaskBatches(load(r).tasks.values()).batches.map((b) => b.tasks),
        [['T1'], ['T2', 'T3'], ['T4']],
      );

      // Running it again in the same round appends nothing more: T3 and T4 are not done yet.
      const again = writeConvergence(load(r), { now: NOW });
      assert.deepEqual(again.appended, []);
      assert.deepEqual([...load(r).tasks.keys()], ['T1', 'T2', 'T3', 'T4']);
    });
  });

  it('keeps the array form of traceability.json and its aliases', () => {
    withRepo((r) => {
      withGaps(r);
      const trace = r.json(`${SPEC}/traceability.json`);
      r.write(`${SPEC}/traceability.json`, {
        requirements: Object.entries(trace.requirements).map(([id, e]: [string, any]) => ({ id, task_ids: e.tasks, tests: e.tests, evidence: e.evidence, behaviors: e.behaviors })),
      });
      writeConvergence(load(r), { now: NOW });
      const written = r.json(`${SPEC}/traceability.json`);
      assert.ok(Array.isArray(written.requirements));
      assert.deepEqual(written.requirements[1], {
        id: 'REQ-002',
        task_ids: ['T2', 'T4'],
        tests: ['tests/logout.test.ts#logout'],
        evidence: ['evidence/test.log'],
        behaviors: { 'REQ-002-B01': { tasks: ['T2', 'T4'], tests: [], evidence: [] }, 'REQ-002-B07': { tasks: ['T2'], tests: [], evidence: [] } },
      });
      assert.ok(r.read(`${SPEC}/traceability.json`).endsWith('}\n'));
    });
  });

  it('counts rounds from metadata.convergence_round; round 3 escalates and appends nothing', () => {
    withRepo((r) => {
      withGaps(r);
      r.write(`${SPEC}/pipeline.state.json`, state('converge', { metadata: { convergence_round: 1 } }));
      const second = writeConvergence(load(r), { now: NOW });
      assert.deepEqual([second.report.round, second.escalate, second.appended.length], [2, false, 2]);
      r.write(`${SPEC}/pipeline.state.json`, state('converge', { metadata: { convergence_round: 2 } }));
      const plan = r.read(`${SPEC}/plan.md`);
      for (const id of ['T3', 'T4']) r.write(`${SPEC}/task-states/${id}.state.json`, { task_id: id, status: 'done', retry_count: 0 });
      const third = writeConvergence(load(r), { now: NOW });
      assert.deepEqual([third.report.round, third.report.status, third.escalate, third.appended], [3, 'needs_another_round', true, []]);
      assert.equal(r.read(`${SPEC}/plan.md`), plan);
      assert.equal(r.json(`${SPEC}/convergence-report.json`).round, 3);
    });
  });

  it('never overwrites a corrupt ledger or report', () => {
    withRepo((r) => {
      withGaps(r);
      r.write(`${SPEC}/convergence-report.json`, '{ nope');
      assert.throws(() => writeConvergence(load(r), { now: NOW }), /convergence-report.json cannot be read; fix them first \(nothing was written\)/);
      assert.equal(r.read(`${SPEC}/convergence-report.json`), '{ nope');
      assert.deepEqual([...load(r).tasks.keys()], ['T1', 'T2']);
    });
  });

  it("advancing from converge runs the step first, as loom's run --advance does, then refuses with the way back", () => {
    withRepo((r) => {
      const spec = atConvergeWithGaps(r);
      assert.throws(
        () => advance(spec, { now: NOW }),
        (e: unknown) => {
          assert.ok(e instanceof TransitionRefusedError);
          // The guards read the report just written. pipeline.schema.json's own check of it (status
          // converged) is advice: loom's advance makes only the step's convergence-pass.
          assert.ok(e.reasons.includes('convergence-pass: REQ-001-B02 is partial: no evidence; tests/missing.test.ts not found'));
          assert.ok(e.reasons.includes('convergence-pass: REQ-002-B01 is missing: no test; no evidence'));
          assert.ok(!e.reasons.includes('convergence-report.json says status: needs_another_round'));
          assert.equal(e.reasons.at(-1), 'convergence-pass: round 1 needs another round (T3, T4 appended); go back to executing');
          return true;
        },
      );
      assert.equal(r.json(`${SPEC}/convergence-report.json`).status, 'needs_another_round');
      assert.equal(r.json(`${SPEC}/pipeline.state.json`).current_stage, 'converge');
    });
  });

  it('says the way back in the display language: Chinese in a Chinese UI', () => {
    withRepo((r) => {
      const spec = atConvergeWithGaps(r);
      inChinese(() =>
        assert.throws(
          () => advance(spec, { now: NOW }),
          (e: unknown) => e instanceof TransitionRefusedError && e.reasons.at(-1) === 'convergence-pass：第 1 轮需要再来一轮（已追加 T3, T4）；请回到 executing',
        ),
      );
    });
  });
});
