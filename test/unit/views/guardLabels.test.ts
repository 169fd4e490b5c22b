import assert from 'node:assert/strict';
import { it } from 'node:test';
import { guard, type GuardCall } from '../../../src/core/pipeline/guardCall';
import { describeGuard } from '../../../src/core/views/guardLabels';

it('says every precondition positively, in words', () => {
  const calls: [GuardCall, string][] = [
    [guard('fileExists', { path: 'plan.md' }), 'plan.md exists'],
    [guard('fileExists', { path: 'tasks/' }), 'tasks/ holds files'],
    [guard('reportPasses', { path: 'test-report.md' }), 'test-report.md says verdict: PASS'],
    [guard('evidenceReceiptValid', { path: 'test-report.md', required: true }), 'test-report.md has a valid evidence receipt'],
    [guard('analysisHasNoBlocker', {}), 'artifact-analysis.json passes with no blocker'],
    [guard('convergenceConverged', {}), 'convergence-report.json says converged'],
    [guard('convergenceRoundsLeft', { max: 3 }), 'fewer than 3 convergence rounds used'],
    [guard('reviewFeedbackPasses', {}), 'review-feedback.md passes with no blocking remark'],
    [guard('reviewerPassed', {}), 'every task passed review'],
    [guard('testsExitZero', {}), 'the test run exited 0'],
    [guard('traceabilityClosed', {}), 'every behavior has a task, a test and evidence'],
    [guard('handoffsFresh', {}), 'no handoff is stale'],
    [guard('approvalsFresh', {}), 'no approved file changed since its approval'],
    [guard('worktreeExists', {}), 'the feature worktree exists'],
    [guard('inputsReadable', { paths: ['requirements.json'] }), 'the files it reads can be read'],
    [guard('validatorPasses', { name: 'planning-artifacts' }), 'validator planning-artifacts passes'],
    [guard('confirmed', { stage: 'planning' }), 'you confirm leaving planning'],
  ];
  for (const [call, label] of calls) assert.equal(describeGuard(call), label);
});

it('shows a guard it has no words for under its name', () => {
  assert.equal(describeGuard({ type: 'somethingNew', params: {} } as unknown as GuardCall), 'somethingNew');
});
