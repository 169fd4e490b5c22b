import { FAILED_STAGE } from '../files/vocabulary';
import { t } from '../messages';
import type { StaleApproval } from '../specdir/staleness';
import { guard } from './guardCall';
import type { GuardVerdicts } from './guardVerdicts';
import { stageOf, transitionsFrom, type PipelineDefinition, type StageDefinition, type TransitionDefinition } from './pipelineDefinition';
import { checkTransition, type TransitionCheck } from './transitionCheck';
import { advancePassesGate, chooseTransition, waysOn } from './chooseTransition';

/**
 * What kind of refusal, for a surface that words it its own way or offers a remedy: the guards'
 * codes (`stale-approval`, `unreadable-input`) and the machine's own.
 */
export type RefusalCode =
  | TransitionCheck['codes'][number]
  | 'transition-refused'
  /** converge was asked for a round that is not the next. */
  | 'wrong-round'
  | 'compression-required'
  | 'spec-failed'
  | 'state-unreadable'
  | 'no-gate'
  | 'human-approval-gate'
  /** The team's loom.approvals.requirePerson refused an agent's word for the person's. */
  | 'person-required'
  | 'pipeline-end'
  | 'not-allowed'
  | 'no-stale-approval'
  | 'tasks-running'
  | 'no-task-stage'
  | 'not-at-task-stage'
  | 'tasks-cannot-run'
  | 'no-model'
  | 'not-running'
  | 'worktree-busy'
  | 'no-verification-stage'
  | 'not-at-verification'
  | 'verification-busy'
  | 'no-sync-stage'
  | 'no-review-response-stage'
  | 'not-at-review-response'
  | 'no-review-feedback'
  | 'already-answered'
  | 'not-at-sync'
  | 'untrusted-workspace'
  | 'no-state-record'
  | 'invalid-request'
  | 'unknown-task'
  | 'unknown-stage'
  | 'invalid-handoff'
  | 'corrupt-file'
  | 'spec-locked'
  | 'stage-mismatch'
  | 'state-exists';

/** Why the pipeline did not take an event, said once for every surface. */
export interface Refusal {
  message: string;
  reasons: string[];
  codes: RefusalCode[];
  /** The spec-relative file to open first. */
  file?: string;
  /** The transition that was asked for, with its verdicts. */
  check?: TransitionCheck;
}

const refusal = (message: string, reasons: string[] = [], check?: TransitionCheck, code?: RefusalCode): Refusal => ({
  message,
  reasons,
  codes: [...(code ? [code] : []), ...(check?.codes ?? [])],
  ...(check?.file ? { file: check.file } : {}),
  ...(check ? { check } : {}),
});

/**
 * Advancing the last stage completes the pipeline, as loom's `run --advance` does: the stage's own
 * checks, fresh handoffs and approvals, and the user's word where the stage asks for it.
 */
export function completionTransition(stage: StageDefinition): TransitionDefinition {
  const guards = [...stage.exit, guard('handoffsFresh', {}), guard('approvalsFresh', {}), ...(stage.confirmation ? [guard('confirmed', { stage: stage.id })] : [])];
  return { from: stage.id, to: stage.id, kind: 'forward', guards };
}

/** Plain Advance at the last stage completes it; it never goes back by itself. */
export const completesPipeline = (def: PipelineDefinition, from: string, to: string | undefined) =>
  !to && stageOf(def, from)?.terminal === true && !transitionsFrom(def, from).some((t) => t.kind === 'forward');

/** A refused move: what does not hold, what the user did not confirm, and the compression the caller did not confirm. */
function moveRefusal(message: string, check: TransitionCheck, confirm: boolean): Refusal {
  const r = refusal(message, [...check.unmet, ...(confirm ? [] : check.confirmations), ...check.compression], check);
  return check.compression.length ? { ...r, codes: ['compression-required', ...r.codes] } : r;
}

export function advanceRefusal(
  def: PipelineDefinition,
  specDir: string,
  from: string,
  ask: { to?: string; confirm: boolean; compressionConfirmed?: boolean; approve?: boolean },
  verdicts: GuardVerdicts,
): Refusal {
  if (from === FAILED_STAGE) return refusal(t('refusal.specFailed', { specDir, targets: def.recoveryTargets.join(', ') }), [], undefined, 'spec-failed');
  const stage = stageOf(def, from);
  if (ask.approve && !stage?.confirmation) return refusal(t('refusal.noGate', { specDir, stage: from }), [], undefined, 'no-gate');
  if (!ask.approve && advancePassesGate(def, from, ask.to)) {
    // With what Approve would still need, so a surface tells a gate whose work is done from one still to do.
    const way = chooseTransition(def, from, { approve: true }, verdicts);
    const check = way && checkTransition(def, way, verdicts, true, ask.compressionConfirmed);
    return refusal(t('refusal.humanApprovalGate', { specDir, stage: from }), check?.unmet ?? [], check, 'human-approval-gate');
  }
  if (stage && completesPipeline(def, from, ask.to)) {
    const check = checkTransition(def, completionTransition(stage), verdicts, ask.confirm, ask.compressionConfirmed);
    return moveRefusal(t('refusal.cannotComplete', { specDir, stage: from }), check, ask.confirm);
  }
  const candidates = waysOn(def, from);
  if (candidates.length === 0) return refusal(t('refusal.pipelineEnd', { specDir, stage: from, pipeline: def.type }), [], undefined, 'pipeline-end');
  // The one choice of the way, as the machine makes it: at converge, plain Advance goes back by itself.
  const chosen = chooseTransition(def, from, { to: ask.approve ? undefined : ask.to, approve: ask.approve }, verdicts);
  if (!chosen) {
    if (!ask.to) return refusal(t('refusal.lastStageBackOnly', { specDir, stage: from, pipeline: def.type, targets: candidates.map((c) => c.to).join(', ') }), [], undefined, 'pipeline-end');
    return refusal(t('refusal.notAllowed', { from, to: ask.to, allowed: candidates.map((c) => c.to).join(', ') }), [], undefined, 'not-allowed');
  }
  const check = checkTransition(def, chosen, verdicts, ask.confirm, ask.compressionConfirmed);
  // An approval gone stale is a review to do, and open threads under the team's rule are a review
  // to answer: said as such on every surface.
  const threads = check.verdicts.find((v) => v.call.type === 'threadsAnswered' && !v.outcome.ok)?.outcome.reasons.length ?? 0;
  const message = check.codes.includes('stale-approval')
    ? t('refusal.reapprovalNeeded', { specDir, from, to: chosen.to })
    : threads
      ? t('refusal.threadsOpen', { specDir, stage: from, count: threads })
      : t('refusal.cannotMove', { specDir, from, to: chosen.to });
  return moveRefusal(message, check, ask.confirm);
}

export function failRefusal(def: PipelineDefinition, specDir: string, from: string, reason: string): Refusal | undefined {
  if (!reason.trim()) return refusal(t('refusal.failNeedsReason'));
  if (from === FAILED_STAGE) return refusal(t('refusal.alreadyFailed', { specDir }), [], undefined, 'spec-failed');
  if (!transitionsFrom(def, from).some((t) => t.kind === 'fail')) return refusal(t('refusal.cannotFail', { stage: from }));
  return undefined;
}

export function recoverRefusal(def: PipelineDefinition, specDir: string, from: string, to: string, verdicts: GuardVerdicts): Refusal {
  if (from !== FAILED_STAGE) return refusal(t('refusal.notFailed', { specDir, stage: from }));
  const back = transitionsFrom(def, FAILED_STAGE).find((x) => x.to === to);
  if (!back) return refusal(t('refusal.recoverTargets', { targets: def.recoveryTargets.join(', '), to }), [], undefined, 'not-allowed');
  const check = checkTransition(def, back, verdicts, true);
  return refusal(t('refusal.cannotRecover', { specDir, to }), check.unmet, check);
}

/**
 * Which stale approval Approve Again renews: the one named, or the only one. The current stage's
 * own approval is renewed by approving the stage when leaving it.
 */
export function chooseReapproval(specDir: string, current: string, renewable: readonly StaleApproval[], stage: string | undefined): StaleApproval | Refusal {
  if (renewable.length === 0) return refusal(t('refusal.noStaleApproval', { specDir }), [], undefined, 'no-stale-approval');
  if (stage === undefined && renewable.length > 1) {
    return refusal(t('refusal.nameStaleApproval', { specDir, stages: renewable.map((a) => a.stage).join(', ') }));
  }
  const chosen = stage === undefined ? renewable[0] : renewable.find((a) => a.stage === stage);
  if (chosen) return chosen;
  const why = stage === current ? t('refusal.reapproveCurrent', { stage }) : t('refusal.approvalNotStale', { stage: stage ?? '', stale: renewable.map((a) => a.stage).join(', ') });
  return refusal(t('refusal.cannotReapprove', { specDir, stage: stage ?? '' }), [why]);
}

export const isRefusal = (x: StaleApproval | Refusal): x is Refusal => 'message' in x;

/**
 * The move was refused only for want of the caller's word that it compressed the closed stage's
 * context: everything else holds (loom 3 answers that with compression_required, and asks for it
 * only once the stage's own checks pass).
 */
export function onlyCompressionMissing(details: { codes?: readonly string[]; check?: unknown }, reasons: readonly string[]): boolean {
  const check = details.check as TransitionCheck | undefined;
  return Boolean(details.codes?.includes('compression-required') && check && check.unmet.length === 0 && reasons.every((r) => check.compression.includes(r)));
}
