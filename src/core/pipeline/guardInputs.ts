import { ARTIFACT_ANALYSIS_FILE, CONVERGENCE_REPORT_FILE } from '../files/findings';
import { REQUIREMENTS_FILE } from '../files/requirements';
import { TRACEABILITY_FILE } from '../files/traceability';
import type { GuardCall } from './guardCall';

const LEDGERS = [REQUIREMENTS_FILE, TRACEABILITY_FILE, 'tasks/'];

/** The spec files a guard reads (spec-relative; folders end in `/`). */
export function guardInputs(call: GuardCall): string[] {
  switch (call.type) {
    case 'fileExists':
    case 'reportPasses':
    case 'evidenceReceiptValid':
      return [call.params.path];
    case 'analysisHasNoBlocker':
      return [ARTIFACT_ANALYSIS_FILE];
    case 'convergenceConverged':
      return [CONVERGENCE_REPORT_FILE];
    case 'reviewFeedbackPasses':
      return ['review-feedback.md'];
    case 'reviewerPassed':
      return ['tasks/', 'task-states/'];
    case 'testsExitZero':
      return ['test-report.md'];
    case 'traceabilityClosed':
    case 'validatorPasses':
    case 'validatorFails':
      return LEDGERS;
    default:
      return [];
  }
}
