import type { PipelineContext, PipelineEvent } from '../machineTypes';
import { stageOnDisk } from '../machineTypes';
import type { PipelineDefinition } from '../pipelineDefinition';
import { answerWith, jobNow, type Sender } from './answered';
import { HANDOFFS_DIR } from '../../files/handoff';
import { specLanguage } from '../../specdir/specLanguage';
import type { VerificationJobOutput } from '../../verification/verificationJob';
import { verificationOutcome, VERIFY_REPORT_FILE } from '../../verification/verifyReport';
import { stageWithRole } from '../stageRoles';
import { writeStageHandoff } from './answered';

/**
 * Verification ran: verify-report.md is written from the spec as it is now (read afresh under
 * the run lock: the commands took a while) and what ran, and on PASS the verification
 * stage's handoff, through the store. A FAIL writes its fix instructions and no handoff, as
 * loom's skill hands on only a passing verification.
 */
export function recordVerification(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender): void {
  const { run, writer } = (event as unknown as { output: VerificationJobOutput }).output;
  answerWith(self, context.verifyRequest, () => {
    const now = jobNow(context.jobAt?.verify, 'Verify');
    const stage = stageWithRole(def, 'verification')!.id;
    const fresh = context.store.read(context.facts);
    const outcome = verificationOutcome({ snapshot: fresh, definition: def, run, now, language: specLanguage(fresh), writer });
    context.store.writeReport(fresh, [{ file: VERIFY_REPORT_FILE, text: outcome.text }]);
    const handoff =
      outcome.verdict === 'PASS'
        ? writeStageHandoff(context, fresh, stage, { summary: outcome.summary, artifacts: [VERIFY_REPORT_FILE, ...(outcome.evidence ? [outcome.evidence.file] : [])], writer, now })
        : undefined;
    const { checks, coverage, fixItems, verdict, evidence } = outcome;
    const verification = {
      verdict,
      report: VERIFY_REPORT_FILE,
      ...(handoff ? { handoff: `${HANDOFFS_DIR}/${stage}.json` } : {}),
      ...(evidence ? { evidence } : {}),
      checks,
      coverage,
      fixItems,
      where: run.where,
      cwd: run.cwd,
    };
    const at = stageOnDisk(def, context.facts);
    return { answer: { kind: 'changed', intent: 'verify', from: at, to: at, verification } };
  });
}
