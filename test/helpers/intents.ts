import { SpecLockedError, TransitionRefusedError } from '../../src/core/errors';
import type { PipelineState } from '../../src/core/files/pipelineState';
import type { WorkflowStep } from '../../src/core/files/workflow';
import { t } from '../../src/core/messages';
import type { Answer, Changed } from '../../src/core/port/answer';
import type { HandoffAsk, RequestOptions } from '../../src/core/port/intent';
import type { Handoff } from '../../src/core/files/handoff';
import type { SpecPipeline } from '../../src/core/repository/specPipeline';
import type { StageCheckResult } from '../../src/core/validators/stageCheck';

/**
 * The spec's port as the tests of the pipeline's rules use it: one intent, answered at once by
 * the spec's actor (SpecPipeline.requestNow, the path every surface takes), and anything but a
 * change thrown as a TransitionRefusedError carrying the answer's sentence, reasons and codes.
 */
function changed<T extends Changed>(a: Answer): T {
  if (a.kind === 'changed') return a as T;
  // A lock held elsewhere is the store's protocol, thrown as the store's error it has always been.
  if (a.kind === 'refused' && a.code === 'spec-locked') throw new SpecLockedError(a.message, a.file ?? '', a.holder?.pid ?? 0);
  if (a.kind === 'refused') throw new TransitionRefusedError(a.message, a.reasons, { codes: a.codes.filter((c) => c !== 'transition-refused'), file: a.file, check: a.check });
  const f = a.facts;
  const message = f.verb === 'complete' ? t('refusal.cannotComplete', { specDir: f.specDir, stage: f.from }) : t('refusal.cannotMove', { specDir: f.specDir, from: f.from, to: f.to });
  throw new TransitionRefusedError(message, f.confirmations, { codes: ['confirmation-required'] });
}

interface Move {
  from: string;
  to: string;
  state: PipelineState;
  complete?: boolean;
  alreadyComplete?: boolean;
}

const move = (a: Changed): Move => ({
  from: a.from!,
  to: a.to!,
  state: a.state!,
  ...('complete' in a && a.complete ? { complete: true } : {}),
  ...('alreadyComplete' in a && a.alreadyComplete ? { alreadyComplete: true } : {}),
});

const opts = (now?: string, confirm?: boolean): RequestOptions => ({ ...(now ? { now } : {}), ...(confirm ? { confirm: true as const } : {}) });

export function advance(spec: SpecPipeline, o: { to?: string; confirm?: boolean; compressionConfirmed?: boolean; now?: string; reason?: string } = {}): Move {
  return move(changed(spec.requestNow({ type: 'advance', to: o.to, compressionConfirmed: o.compressionConfirmed, reason: o.reason }, opts(o.now, o.confirm))));
}

/** Approve carries the person's word itself, as Loom: Approve sends it once the person agreed. */
export function approve(spec: SpecPipeline, o: { compressionConfirmed?: boolean; now?: string; reason?: string } = {}): Move {
  return move(changed(spec.requestNow({ type: 'approve', compressionConfirmed: o.compressionConfirmed, reason: o.reason }, opts(o.now, true))));
}

export function fail(spec: SpecPipeline, reason: string, o: { now?: string; validator?: string } = {}): Move {
  return move(changed(spec.requestNow({ type: 'fail', reason, validator: o.validator }, opts(o.now))));
}

export function recover(spec: SpecPipeline, to: string, o: { now?: string; reason?: string } = {}): Move {
  return move(changed(spec.requestNow({ type: 'recover', to, reason: o.reason }, opts(o.now))));
}

export function reapprove(spec: SpecPipeline, stage?: string, o: { now?: string; reason?: string } = {}): { stage: string; changed: string[]; state: PipelineState } {
  const a = changed<Changed<'reapprove'>>(spec.requestNow({ type: 'reapprove', stage, reason: o.reason }, opts(o.now)));
  return { stage: a.reapproved.stage, changed: a.reapproved.changed, state: a.state! };
}

export function adjustSteps(spec: SpecPipeline, current: readonly WorkflowStep[], remaining: readonly WorkflowStep[], o: { now?: string } = {}): WorkflowStep[] {
  return changed<Changed<'adjustSteps'>>(spec.requestNow({ type: 'adjustSteps', current, remaining }, { ...opts(o.now), confirm: true })).steps;
}

/** Check Stage through the spec's actor: the validators' outcome; an error the validators met (a corrupt report) is thrown. */
export function checkStage(spec: SpecPipeline, now?: string): StageCheckResult {
  return changed<Changed<'checkStage'>>(spec.requestNow({ type: 'checkStage' }, opts(now))).check;
}

/** A handoff written through the spec's actor, as `loom-vscode handoff` and loom_write_handoff write it. */
export function writeHandoff(spec: SpecPipeline, handoff: HandoffAsk, now?: string): { file: string; handoff: Handoff; refreshed: boolean } {
  const a = changed<Changed<'writeHandoff'>>(spec.requestNow({ type: 'writeHandoff', handoff }, opts(now)));
  return { file: a.file, handoff: a.handoff, refreshed: a.refreshed };
}

/**
 * The next stage whichever way the spec's actor lets it go: Advance, or Approve where the stage is
 * a human-approval gate (the actor refuses Advance there, as loom's `run --advance` does).
 */
export function moveOn(spec: () => SpecPipeline, o: { compressionConfirmed?: boolean; now?: string } = {}): Move {
  try {
    return advance(spec(), { ...o, confirm: true });
  } catch (e) {
    if (!(e instanceof TransitionRefusedError) || !e.details.codes?.includes('human-approval-gate')) throw e;
    return approve(spec(), o);
  }
}
