import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { evaluateGuard, holds } from '../../../src/core/pipeline/guards';
import type { GuardCall } from '../../../src/core/pipeline/guardCall';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

/** Evaluates one guard against a spec built by `setup`; returns its reasons ([] when it holds). */
function check(call: GuardCall, setup: (r: TempRepo) => void, confirmed = false): string[] {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/.keep`, '');
    setup(r);
    const outcome = evaluateGuard(call, { snapshot: loadSpec(r.root, r.path(SPEC)) });
    assert.equal(outcome.ok, outcome.reasons.length === 0);
    // A guard the user can satisfy holds once confirmed.
    return holds(outcome, confirmed) ? [] : outcome.reasons;
  } finally {
    r.dispose();
  }
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

test('fileExists: files, folders, empty folders, nested files', () => {
  assert.deepEqual(
    check({ type: 'fileExists', params: { path: 'plan.md' } }, () => {}),
    ['plan.md does not exist'],
  );
  assert.deepEqual(
    check({ type: 'fileExists', params: { path: 'plan.md' } }, (r) => r.write(`${SPEC}/plan.md`, '#')),
    [],
  );
  assert.deepEqual(
    check({ type: 'fileExists', params: { path: 'tasks/' } }, (r) => r.write(`${SPEC}/tasks/.gitkeep`, '')),
    [],
  );
  assert.deepEqual(
    check({ type: 'fileExists', params: { path: 'tasks/' } }, (r) => r.write(`${SPEC}/tasks/T1.md`, '# T1')),
    [],
  );
  assert.deepEqual(
    check({ type: 'fileExists', params: { path: 'handoffs/detail-expansion.json' } }, () => {}),
    ['handoffs/detail-expansion.json does not exist'],
  );
  assert.deepEqual(
    check({ type: 'fileExists', params: { path: 'docs/deep/a.md' } }, (r) => r.write(`${SPEC}/docs/deep/a.md`, 'x')),
    [],
  );
});

test("reportPasses reads reports as loom's isReportPassing: the first verdict line, else the report's words", () => {
  const g: GuardCall = { type: 'reportPasses', params: { path: 'test-report.md' } };
  assert.deepEqual(
    check(g, () => {}),
    ['test-report.md does not exist'],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/test-report.md`, '# Report\nall good\n')),
    ['test-report.md has no verdict line (verdict: PASS or 结论：通过) and does not read as passing'],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/test-report.md`, '# Report\nAll 12 tests PASS.\n')),
    [],
    'no verdict line: PASS and no FAIL in the words',
  );
  assert.equal(check(g, (r) => r.write(`${SPEC}/test-report.md`, '# Report\n11 PASS, 1 FAIL\n')).length, 1);
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/test-report.md`, 'verdict: PARTIAL\n')),
    ['test-report.md says verdict: PARTIAL'],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/test-report.md`, '裁定：失败\n')),
    ['test-report.md says verdict: 失败'],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/test-report.md`, 'verdict: FAIL\n')),
    ['test-report.md says verdict: FAIL'],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/test-report.md`, '结论：不通过\n')),
    ['test-report.md says verdict: 不通过'],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/test-report.md`, '# 测试报告\n\n结论：通过\n')),
    [],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/test-report.md`, 'verdict: FAIL\n\nre-run:\nverdict: PASS\n')),
    ['test-report.md says verdict: FAIL'],
    'the first verdict line decides',
  );
});

test('evidenceReceiptValid: where evidence is required, the sha256 must match the evidence file inside the spec', () => {
  const g = (required: boolean): GuardCall => ({ type: 'evidenceReceiptValid', params: { path: 'test-report.md', required } });
  const report = (fields: string) => (r: TempRepo) => {
    r.write(`${SPEC}/evidence/test.log`, 'all passed\n');
    r.write(`${SPEC}/test-report.md`, `verdict: PASS\n${fields}`);
  };
  const good = `evidence-command: npm test\nevidence-exit-code: 0\nevidence-file: evidence/test.log\nevidence-sha256: ${sha('all passed\n')}\n`;
  assert.deepEqual(check(g(true), report(good)), []);
  assert.deepEqual(check(g(false), report('')), []);
  assert.deepEqual(check(g(false), report(good.replace('exit-code: 0', 'exit-code: 1'))), [], 'loom checks no receipt where evidence is not required');
  assert.deepEqual(check(g(true), report('')), ['test-report.md names no evidence (evidence-command, evidence-exit-code, evidence-file, evidence-sha256)']);
  assert.deepEqual(check(g(true), report(good.replace(sha('all passed\n'), sha('other')))), [
    'test-report.md: the sha256 of evidence/test.log does not match evidence-sha256 (the log changed after the report)',
  ]);
  assert.deepEqual(check(g(true), report(good.replace('exit-code: 0', 'exit-code: 1'))), ['test-report.md records evidence-exit-code: 1']);
  assert.deepEqual(check(g(true), report(good.replace('evidence/test.log', '../../outside.log'))), ['test-report.md: evidence-file ../../outside.log is outside the spec directory']);
  assert.deepEqual(check(g(true), report(good.replace('evidence/test.log', 'evidence/gone.log'))), ['test-report.md: evidence-file evidence/gone.log does not exist']);
  // An absolute evidence-file is refused by loom even when it points into the spec directory.
  let absolute = '';
  assert.deepEqual(
    check(g(true), (r) => {
      absolute = r.path(`${SPEC}/evidence/test.log`);
      report(good.replace('evidence/test.log', absolute))(r);
    }),
    [`test-report.md: evidence-file ${absolute} is outside the spec directory`],
  );
});

test('analysisHasNoBlocker and convergenceConverged read their reports', () => {
  const a: GuardCall = { type: 'analysisHasNoBlocker', params: {} };
  assert.deepEqual(
    check(a, () => {}),
    ['artifact-analysis.json does not exist (run the artifact analysis first)'],
  );
  assert.deepEqual(
    check(a, (r) => r.write(`${SPEC}/artifact-analysis.json`, '{')),
    ['artifact-analysis.json could not be read'],
  );
  assert.deepEqual(
    check(a, (r) => r.write(`${SPEC}/artifact-analysis.json`, { status: 'pass', blocker_count: 0, findings: [{ id: 'F1', kind: 'format', severity: 'warning', message: 'dup' }] })),
    [],
  );
  assert.deepEqual(
    check(a, (r) => r.write(`${SPEC}/artifact-analysis.json`, { status: 'pass', blocker_count: 0, findings: [{ id: 'F1', kind: 'missing', severity: 'error', message: 'REQ-002 is ambiguous' }] })),
    ['artifact-analysis.json reports 1 blocker (status: pass): REQ-002 is ambiguous'],
  );
  const c: GuardCall = { type: 'convergenceConverged', params: {} };
  assert.deepEqual(
    check(c, (r) => r.write(`${SPEC}/convergence-report.json`, { status: 'needs_another_round', round: 1 })),
    ['convergence-report.json says status: needs_another_round'],
  );
  assert.deepEqual(
    check(c, (r) => r.write(`${SPEC}/convergence-report.json`, { status: 'converged', round: 1, blocker_count: 0 })),
    [],
  );
});

test('convergenceRoundsLeft counts metadata.convergence_round as loom does: round 3 escalates instead of going back', () => {
  const g: GuardCall = { type: 'convergenceRoundsLeft', params: { max: 3 } };
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/pipeline.state.json`, state('converge'))),
    [],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/pipeline.state.json`, state('converge', { metadata: { convergence_round: 1 } }))),
    [],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/pipeline.state.json`, state('converge', { metadata: { convergence_round: 2 } }))),
    ['converge has already sent the spec back to executing 2 times; round 3 is the last of 3: escalate instead'],
  );
  // Loom clears convergence_round once converge passes; older retries in the history no longer count.
  const retry = { stage: 'converge', status: 'retry', entered_at: 'a', exited_at: 'b' };
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/pipeline.state.json`, state('converge', { stage_history: [retry, retry, retry] }))),
    [],
  );
});

test('reviewFeedbackPasses needs PASS and no BLOCKER / CHANGES_REQUESTED', () => {
  const g: GuardCall = { type: 'reviewFeedbackPasses', params: {} };
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/review-feedback.md`, '# Review\n\nverdict: PASS\n')),
    [],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/review-feedback.md`, '# Review\n- BLOCKER: sql injection\n\nverdict: PASS\n')),
    ['review-feedback.md line 2 mentions BLOCKER'],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/review-feedback.md`, 'verdict: FAIL\n')),
    ['review-feedback.md says verdict: FAIL', 'review-feedback.md line 1 mentions FAIL'],
  );
  // Loom's rule: markers in any case anywhere, the plain `verdict:` line only, its value exactly PASS.
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/review-feedback.md`, 'No blockers left.\nBlocker: none\nverdict: PASS\n')),
    ['review-feedback.md line 2 mentions BLOCKER'],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/review-feedback.md`, 'Status: request_changes\nverdict: PASS\n')),
    ['review-feedback.md line 1 mentions REQUEST_CHANGES'],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/review-feedback.md`, 'verdict: PASS with nits\n')),
    ['review-feedback.md says verdict: PASS WITH NITS'],
  );
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/review-feedback.md`, '结论：通过\n')),
    ['review-feedback.md has no verdict line (verdict: PASS)'],
  );
});

test('reviewerPassed and testsExitZero', () => {
  const rp: GuardCall = { type: 'reviewerPassed', params: {} };
  const tasks = (r: TempRepo, status: string, result: string | null) => {
    r.write(`${SPEC}/tasks/T1.md`, '# T1');
    r.write(`${SPEC}/task-states/T1.state.json`, { task_id: 'T1', status, retry_count: 0, last_reviewer_result: result });
  };
  assert.deepEqual(
    check(rp, (r) => tasks(r, 'done', 'PASS')),
    [],
  );
  assert.deepEqual(
    check(rp, (r) => tasks(r, 'reviewing', null)),
    ['T1 has not passed review (status: reviewing)'],
  );
  assert.deepEqual(
    check(rp, (r) => tasks(r, 'done', 'FAIL: missing test')),
    ["T1: the reviewer's last result is FAIL: missing test"],
  );
  const tz: GuardCall = { type: 'testsExitZero', params: {} };
  assert.deepEqual(
    check(tz, (r) => r.write(`${SPEC}/test-report.md`, 'verdict: PASS\nevidence-exit-code: 0\n')),
    [],
  );
  assert.deepEqual(
    check(tz, (r) => r.write(`${SPEC}/test-report.md`, 'verdict: PASS\nevidence-exit-code: 2\n')),
    ['test-report.md records evidence-exit-code: 2'],
  );
  assert.deepEqual(
    check(tz, (r) => r.write(`${SPEC}/test-report.md`, 'verdict: PASS\n')),
    [],
  );
});

test('traceabilityClosed lists open behaviors', () => {
  const g: GuardCall = { type: 'traceabilityClosed', params: {} };
  assert.deepEqual(
    check(g, (r) => plannedSpec(r)),
    ['REQ-001-B01 is not closed (no test, no evidence)', 'REQ-001-B02 is not closed (no test, no evidence)'],
  );
  const closed = (r: TempRepo) => {
    plannedSpec(r);
    r.write('tests/login.test.ts', 'test');
    r.write(`${SPEC}/evidence/run.log`, 'ok');
    const b = { tasks: ['T1'], tests: ['tests/login.test.ts#logs in'], evidence: ['evidence/run.log'] };
    r.write(`${SPEC}/traceability.json`, { requirements: { 'REQ-001': { tasks: ['T1'], tests: [], evidence: [], behaviors: { 'REQ-001-B01': b, 'REQ-001-B02': b } } } });
  };
  assert.deepEqual(check(g, closed), []);
  const notApplicable = (r: TempRepo) => {
    closed(r);
    const reqs = JSON.parse(r.read(`${SPEC}/requirements.json`));
    reqs.requirements[0].behaviors[1].applicability = 'not-applicable';
    r.write(`${SPEC}/requirements.json`, reqs);
    const trace = JSON.parse(r.read(`${SPEC}/traceability.json`));
    delete trace.requirements['REQ-001'].behaviors['REQ-001-B02'];
    r.write(`${SPEC}/traceability.json`, trace);
  };
  assert.deepEqual(check(g, notApplicable), [], 'a not-applicable behavior is not asked to be closed');
});

test('worktreeExists reads the recorded worktree path; without one found, the user confirms (loom checks none)', () => {
  const g: GuardCall = { type: 'worktreeExists', params: {} };
  assert.deepEqual(
    check(g, (r) => r.write(`${SPEC}/pipeline.state.json`, state('executing', { metadata: { worktree_path: 'specs' } }))),
    [],
  );
  const missing = (r: TempRepo) => r.write(`${SPEC}/pipeline.state.json`, state('executing', { metadata: { worktree_path: '/no/such/dir' } }));
  assert.deepEqual(check(g, missing), ['no feature worktree was found (run the git-worktree stage, or confirm it exists)']);
  assert.deepEqual(check(g, missing, true), []);
});

test('validators: closure validators run; every validator loom knows is checked', () => {
  const v = (name: string): GuardCall => ({ type: 'validatorPasses', params: { name } });
  assert.deepEqual(
    check(v('planning-artifacts'), (r) => plannedSpec(r)),
    [],
  );
  assert.deepEqual(
    check(v('planning-artifacts'), (r) => {
      plannedSpec(r);
      r.write(`${SPEC}/traceability.json`, { requirements: { 'REQ-001': { tasks: ['T1'], tests: [], evidence: [], behaviors: { 'REQ-001-B01': { tasks: ['T1'], tests: [], evidence: [] } } } } });
    }),
    ['planning-artifacts: REQ-001-B02 maps to no task in traceability.json'],
  );
  // As loom's validateTraceabilityFile: a requirement needs tasks of its own, task refs name task
  // files, and a REQ spec.md names must be traced.
  assert.deepEqual(
    check(v('planning-artifacts'), (r) => {
      plannedSpec(r);
      r.write(`${SPEC}/spec.md`, '# Login\n\nREQ-001 and REQ-002.\n');
      r.write(`${SPEC}/traceability.json`, {
        requirements: {
          'REQ-001': {
            tasks: [],
            tests: [],
            evidence: [],
            behaviors: {
              'REQ-001-B01': { tasks: ['T1'], tests: [], evidence: [] },
              'REQ-001-B02': { tasks: ['T7.md'], tests: [], evidence: [] },
            },
          },
        },
      });
    }),
    [
      'planning-artifacts: REQ-001 maps to no task in traceability.json',
      'planning-artifacts: REQ-001-B02 maps to T7.md, but tasks/T7.md does not exist',
      'planning-artifacts: REQ-002 is missing from traceability.json',
    ],
  );
  assert.deepEqual(
    check(v('task-state-closure'), () => {}),
    [],
    'loom lets a spec without task files pass',
  );
  assert.deepEqual(
    check(v('requirement-task-closure'), () => {}),
    [],
    'loom lets a spec without spec.md pass',
  );
  assert.deepEqual(
    check(v('task-state-closure'), (r) => {
      plannedSpec(r);
      r.write(`${SPEC}/task-states/T9.state.json`, { task_id: 'T9', status: 'done', retry_count: 0 });
    }),
    ['task-state-closure: T1 has no task-states/T1.state.json', 'task-state-closure: task-states/T9.state.json has no tasks/T9.md'],
  );
  assert.deepEqual(
    check(v('requirement-task-closure'), (r) => {
      plannedSpec(r);
      r.write(`${SPEC}/spec.md`, '# Login\nREQ-001 and REQ-002, see REQ-001-B01\n');
    }),
    ['requirement-task-closure: REQ-002 appears in spec.md but no task lists it in requirements'],
  );
  // Every validator loom knows is implemented now: confirming does not let a failing one through.
  const unverified = check(v('verification-artifacts'), () => {}, true);
  assert.equal(unverified[0], 'verification-artifacts: test-report.md does not exist');
  assert.deepEqual(
    check({ type: 'confirmed', params: { stage: 'planning' } }, () => {}),
    ['planning is left only once you confirm it is done'],
  );
  assert.deepEqual(
    check({ type: 'confirmed', params: { stage: 'planning' } }, () => {}, true),
    [],
  );
});
