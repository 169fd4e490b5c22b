import type { FixItem } from '../executing/dispatch/fixInstructions';
import type { VerificationCheck } from './verificationChecks';
import type { EvidenceReceiptFields, RequirementCoverageRow } from './verifyReport';

/** What a verification answers every surface: the verdict, the report and handoff it wrote, and why it failed. */
export interface VerificationResult {
  verdict: 'PASS' | 'FAIL';
  /** Spec-relative: `verify-report.md`. */
  report: string;
  /** The handoff written on PASS (spec-relative); none on FAIL, as loom's skill hands on only a passing verification. */
  handoff?: string;
  evidence?: EvidenceReceiptFields;
  checks: VerificationCheck[];
  coverage: RequirementCoverageRow[];
  fixItems: FixItem[];
  /** Where the commands ran. */
  where: 'worktree' | 'repository';
  cwd: string;
}
