import type { GuardCall } from '../pipeline/guardCall';

/**
 * Each named guard as the precondition it stands for, said positively ("plan.md exists"), so the
 * dashboard can list every precondition with ✓ or ✗ — the guards themselves only explain failures.
 */
export function describeGuard(call: GuardCall): string {
  switch (call.type) {
    case 'fileExists': {
      const { path } = call.params;
      const clean = 'noPlaceholders' in call.params && call.params.noPlaceholders ? ' with no placeholder (TBD, TODO, {{VAR}})' : '';
      return path.endsWith('/') ? `${path} holds files` : `${path} exists${clean}`;
    }
    case 'reportPasses':
      return `${call.params.path} says verdict: PASS`;
    case 'evidenceReceiptValid':
      return call.params.required ? `${call.params.path} has a valid evidence receipt` : `${call.params.path}'s evidence receipt, if any, is valid`;
    case 'analysisHasNoBlocker':
      return 'artifact-analysis.json passes with no blocker';
    case 'convergenceConverged':
      return 'convergence-report.json says converged';
    case 'convergenceRoundsLeft':
      return `fewer than ${call.params.max} convergence rounds used`;
    case 'reviewFeedbackPasses':
      return 'review-feedback.md passes with no blocking remark';
    case 'reviewerPassed':
      return 'every task passed review';
    case 'testsExitZero':
      return 'the test run exited 0';
    case 'traceabilityClosed':
      return 'every behavior has a task, a test and evidence';
    case 'handoffsFresh':
      return 'no handoff is stale';
    case 'approvalsFresh':
      return 'no approved file changed since its approval';
    case 'worktreeExists':
      return 'the feature worktree exists';
    case 'inputsReadable':
      return 'the files it reads can be read';
    case 'validatorPasses':
      return `validator ${call.params.name} passes`;
    case 'confirmed':
      return `you confirm leaving ${call.params.stage}`;
    default:
      // A guard added to the vocabulary later still shows, under its name, until it gets words here.
      return (call as { type: string }).type;
  }
}
