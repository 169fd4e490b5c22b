import { renewableApprovals, staleApprovals, type StaleApproval } from '../../specdir/staleness';
import { CONVERGENCE_PASS } from '../../validators/convergence';
import { withBaseline } from '../../drift/baseline';
import { approvalFingerprints } from '../approvalArtifacts';
import { guard } from '../guardCall';
import type { PipelineContext, PipelineEvent } from '../machineTypes';
import { approvedByOf } from '../personRule';
import { stageOf, type PipelineDefinition, type TransitionKind } from '../pipelineDefinition';
import { chooseReapproval, isRefusal } from '../refusals';
import { hasRole } from '../stageRoles';
import { applyStageChange, completeStage, renewApprovals } from '../stateRecord';
import { answerWith, type Sender } from './answered';

const intentOf = { ADVANCE: 'advance', APPROVE: 'approve', FAIL: 'fail', RECOVER: 'recover' } as const;

/** The record a move starts from: the state on disk, or loom's init record for a spec without one. */
const base = (context: PipelineContext, stage: string, now: string) => context.state ?? context.freshState(stage, now);

/** Whether going from `from` back to `to` is loom's convergence-pass retry, taken by itself. */
const autoRetry = (def: PipelineDefinition, from: string, to: string) => def.transitions.some((x) => x.from === from && x.to === to && x.kind === 'retry' && x.auto === true);

/** The stale approval Approve Again renews (the one named, or the only one); undefined when none can be. */
export function reapprovalOf(context: PipelineContext, stage: string, asked: string | undefined): StaleApproval | undefined {
  const chosen = chooseReapproval(context.facts.specDir, stage, renewableApprovals(staleApprovals(context.facts), stage), asked);
  return isRefusal(chosen) ? undefined : chosen;
}

/** A stage change: the history entry loom writes for it, through the store. */
export function recordChange(
  def: PipelineDefinition,
  context: PipelineContext,
  event: PipelineEvent,
  self: Sender,
  params: { from: string; to: string; kind: TransitionKind },
  confirmed: boolean,
): void {
  if (event.type !== 'ADVANCE' && event.type !== 'APPROVE' && event.type !== 'FAIL' && event.type !== 'RECOVER') return;
  answerWith(self, event.id, () => {
    const stage = stageOf(def, params.from);
    const byPerson = confirmed && event.type !== 'RECOVER' && (stage?.confirmation ?? false);
    // Going back by itself is loom's convergence-pass retry: the history names the validator and its findings.
    const retryBy = params.kind === 'retry' && autoRetry(def, params.from, params.to) ? guard('validatorPasses', { name: CONVERGENCE_PASS, stage: params.from }) : undefined;
    // A gate records the sha256 of what was approved (loom's approve), even when empty.
    const prints = byPerson && stage?.humanApproval ? approvalFingerprints(def, params.from, context.facts) : undefined;
    // Passing a gate again (after a recovery) re-approves it: its older stale entries would
    // otherwise block loom's next advance for good, as loom never clears them.
    const older = prints ? (staleApprovals(context.facts).find((a) => a.stage === params.from)?.historyIndices ?? []) : [];
    const start = base(context, params.from, event.now);
    const renewed = prints && older.length ? renewApprovals(start, older, prints, event.now, `approved again when passing ${params.from}`) : start;
    const state = applyStageChange(renewed, {
      ...params,
      now: event.now,
      reason: event.reason?.trim() || (retryBy ? context.verdicts.outcome(retryBy).reasons.join('; ') : undefined),
      confirmed: byPerson,
      approvedBy: byPerson ? approvedByOf(event) : undefined,
      approvalFingerprints: prints,
      // Going back from converge is what loom does when convergence-pass fails.
      validator: event.type === 'FAIL' ? event.validator : retryBy ? CONVERGENCE_PASS : undefined,
      fromConvergence: hasRole(def, params.from, 'convergence'),
    });
    // Reaching the stage that syncs: the commit the code is at is what the spec is true to (drift's baseline).
    const codeCommit = (event.type === 'ADVANCE' || event.type === 'APPROVE') && hasRole(def, params.to, 'sync') ? event.codeCommit : undefined;
    const written = codeCommit ? withBaseline(state, { commit: codeCommit, recorded_at: event.now, source: 'synced' }) : state;
    context.store.writeState(context.facts, written, event.now);
    return { answer: { kind: 'changed', intent: intentOf[event.type], from: params.from, to: params.to, state: written }, state: written };
  });
}

/** Advance at the last stage: loom's `terminal` history entry, the pipeline completed. */
export function completePipeline(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender, stageId: string, confirmed: boolean): void {
  if (event.type !== 'ADVANCE') return;
  answerWith(self, event.id, () => {
    const stage = stageOf(def, stageId);
    const byPerson = confirmed && (stage?.confirmation ?? false);
    const state = completeStage(base(context, stageId, event.now), event.now, byPerson, byPerson ? approvedByOf(event) : undefined);
    context.store.writeState(context.facts, state, event.now);
    return { answer: { kind: 'changed', intent: 'advance', from: stageId, to: stageId, state, complete: true }, state };
  });
}

/** Approve Again: the stale entries of the gate get the files' fingerprints in place; the stage stays. */
export function reapprove(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender, stageId: string): void {
  if (event.type !== 'REAPPROVE') return;
  answerWith(self, event.id, () => {
    const chosen = reapprovalOf(context, stageId, event.stage)!;
    const reason = event.reason?.trim() || `approved again: ${chosen.changed.join(', ')} changed since the approval${chosen.approvedAt ? ` of ${chosen.approvedAt}` : ''}`;
    const state = renewApprovals(base(context, stageId, event.now), chosen.historyIndices, approvalFingerprints(def, chosen.stage, context.facts), event.now, reason);
    context.store.writeState(context.facts, state, event.now);
    return { answer: { kind: 'changed', intent: 'reapprove', from: stageId, to: stageId, state, reapproved: chosen }, state };
  });
}
