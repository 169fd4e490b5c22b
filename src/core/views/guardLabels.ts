import { t } from '../messages';
import type { GuardCall } from '../pipeline/guardCall';

/**
 * Each named guard as the precondition it stands for, said positively ("plan.md exists"), so the
 * dashboard can list every precondition with ✓ or ✗ — the guards themselves only explain failures.
 */
export function describeGuard(call: GuardCall): string {
  switch (call.type) {
    case 'fileExists': {
      const { path } = call.params;
      if (path.endsWith('/')) return t('check.folderHoldsFiles', { path });
      return 'noPlaceholders' in call.params && call.params.noPlaceholders ? t('check.fileExistsClean', { path }) : t('check.fileExists', { path });
    }
    case 'reportPasses':
      return t('check.reportPasses', { path: call.params.path });
    case 'evidenceReceiptValid':
      return t(call.params.required ? 'check.receiptRequired' : 'check.receiptOptional', { path: call.params.path });
    case 'analysisHasNoBlocker':
      return t('check.analysisHasNoBlocker');
    case 'compressionConfirmed':
      return t('check.compressionConfirmed');
    case 'convergenceConverged':
      return t('check.convergenceConverged');
    case 'convergenceRoundsLeft':
      return t('check.convergenceRoundsLeft', { max: call.params.max });
    case 'reviewFeedbackPasses':
      return t('check.reviewFeedbackPasses');
    case 'reviewerPassed':
      return t('check.reviewerPassed');
    case 'testsExitZero':
      return t('check.testsExitZero');
    case 'traceabilityClosed':
      return t('check.traceabilityClosed');
    case 'handoffsFresh':
      return t('check.handoffsFresh');
    case 'approvalsFresh':
      return t('check.approvalsFresh');
    case 'worktreeExists':
      return t('check.worktreeExists');
    case 'inputsReadable':
      return t('check.inputsReadable');
    case 'validatorPasses':
      return t('check.validatorPasses', { name: call.params.name });
    case 'confirmed':
      return t('check.confirmed', { stage: call.params.stage });
    case 'threadsAnswered':
      return t('check.threadsAnswered', { stage: call.params.stage });
    default:
      // A guard added to the vocabulary later still shows, under its name, until it gets words here.
      return (call as { type: string }).type;
  }
}
