import { FAILED_STAGE } from '../files/vocabulary';
import type { StaleApproval } from '../specdir/staleness';
import { guard } from './guardCall';
import type { GuardVerdicts } from './guardVerdicts';
import { stageOf, transitionsFrom, type PipelineDefinition, type StageDefinition, type TransitionDefinition } from './pipelineDefinition';
import { checkTransition, type TransitionCheck } from './transitionCheck';

/**
 * What kind of refusal, for a surface that words it its own way or offers a remedy: the guards'
 * codes (`stale-approval`, `unreadable-input`) and the machine's own.
 */
export type RefusalCode = TransitionCheck['codes'][number] | 'spec-failed' | 'state-unreadable' | 'no-gate' | 'pipeline-end' | 'not-allowed' | 'no-stale-approval' | 'tasks-running';

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

/** The transition Advance takes: the one named by `to`, else the forward one. */
export function chosenTransition(def: PipelineDefinition, from: string, to: string | undefined): TransitionDefinition | undefined {
  const candidates = transitionsFrom(def, from).filter((t) => t.kind === 'forward' || t.kind === 'retry');
  return to ? candidates.find((t) => t.to === to) : candidates.find((t) => t.kind === 'forward');
}

export function advanceRefusal(def: PipelineDefinition, specDir: string, from: string, ask: { to?: string; confirm: boolean; approve?: boolean }, verdicts: GuardVerdicts): Refusal {
  if (from === FAILED_STAGE) return refusal(`${specDir} has failed; recover it to a stage first (${def.recoveryTargets.join(', ')})`, [], undefined, 'spec-failed');
  const stage = stageOf(def, from);
  if (ask.approve && !stage?.confirmation) return refusal(`${specDir} has no gate to approve at ${from}: use Advance`, [], undefined, 'no-gate');
  if (stage && completesPipeline(def, from, ask.to)) {
    const check = checkTransition(def, completionTransition(stage), verdicts, ask.confirm);
    return refusal(`${specDir} cannot complete ${from}`, [...check.unmet, ...(ask.confirm ? [] : check.confirmations)], check);
  }
  const candidates = transitionsFrom(def, from).filter((t) => t.kind === 'forward' || t.kind === 'retry');
  if (candidates.length === 0) return refusal(`${specDir} is at ${from}, the end of the ${def.type} pipeline`, [], undefined, 'pipeline-end');
  const chosen = chosenTransition(def, from, ask.approve ? undefined : ask.to);
  if (!chosen) {
    if (!ask.to)
      return refusal(
        `${specDir} is at ${from}, the last stage of the ${def.type} pipeline; it can only go back to ${candidates.map((t) => t.to).join(', ')} when you name the stage`,
        [],
        undefined,
        'pipeline-end',
      );
    return refusal(`${from} cannot move to ${ask.to}; allowed: ${candidates.map((t) => t.to).join(', ')}`, [], undefined, 'not-allowed');
  }
  const check = checkTransition(def, chosen, verdicts, ask.confirm);
  return refusal(`${specDir} cannot move from ${from} to ${chosen.to}`, [...check.unmet, ...(ask.confirm ? [] : check.confirmations)], check);
}

export function failRefusal(def: PipelineDefinition, specDir: string, from: string, reason: string): Refusal | undefined {
  if (!reason.trim()) return refusal('a failure needs a reason');
  if (from === FAILED_STAGE) return refusal(`${specDir} has already failed`, [], undefined, 'spec-failed');
  if (!transitionsFrom(def, from).some((t) => t.kind === 'fail')) return refusal(`${from} is the end of the pipeline and cannot fail`);
  return undefined;
}

export function recoverRefusal(def: PipelineDefinition, specDir: string, from: string, to: string, verdicts: GuardVerdicts): Refusal {
  if (from !== FAILED_STAGE) return refusal(`${specDir} has not failed (it is at ${from})`);
  const t = transitionsFrom(def, FAILED_STAGE).find((x) => x.to === to);
  if (!t) return refusal(`a failed spec can recover to ${def.recoveryTargets.join(', ')}, not ${to}`, [], undefined, 'not-allowed');
  const check = checkTransition(def, t, verdicts, true);
  return refusal(`${specDir} cannot recover to ${to}`, check.unmet, check);
}

/**
 * Which stale approval Approve Again renews: the one named, or the only one. The current stage's
 * own approval is renewed by approving the stage when leaving it.
 */
export function chooseReapproval(specDir: string, current: string, renewable: readonly StaleApproval[], stage: string | undefined): StaleApproval | Refusal {
  if (renewable.length === 0) return refusal(`${specDir} has no stale approval to renew`, [], undefined, 'no-stale-approval');
  if (stage === undefined && renewable.length > 1) {
    return refusal(`${specDir} has stale approvals of ${renewable.map((a) => a.stage).join(', ')}; name the stage to approve again`);
  }
  const chosen = stage === undefined ? renewable[0] : renewable.find((a) => a.stage === stage);
  if (chosen) return chosen;
  const why =
    stage === current
      ? `${stage} is the current stage: its approval is renewed by approving it (Advance with confirmation)`
      : `the approval of ${stage} is not stale; stale: ${renewable.map((a) => a.stage).join(', ')}`;
  return refusal(`${specDir} cannot approve ${stage} again`, [why]);
}

export const isRefusal = (x: StaleApproval | Refusal): x is Refusal => 'message' in x;
