import type { GuardVerdicts } from './guardVerdicts';
import { stageOf, transitionsFrom, type PipelineDefinition, type TransitionDefinition } from './pipelineDefinition';
import { checkTransition } from './transitionCheck';

/** What a move asks for: a stage named, the gate approved, or neither (plain Advance). */
export interface MoveAsk {
  to?: string;
  /** Approve: the gate's way forward, and only at a stage that has a gate. */
  approve?: boolean;
}

/** The ways a spec may move on from `from` by Advance: forward, or back (retry). */
export const waysOn = (def: PipelineDefinition, from: string): TransitionDefinition[] => transitionsFrom(def, from).filter((t) => t.kind === 'forward' || t.kind === 'retry');

/**
 * The one choice of the way a move takes, for the machine's guards, its refusals and every
 * surface that shows what Advance would do. A named stage picks the way to it (forward or
 * back). Approve takes the gate's way forward. Plain Advance goes forward, except where loom's
 * `run --advance` goes back by itself: an automatic retry (converge → executing while
 * convergence-pass fails and rounds are left) is taken when the way forward does not hold and
 * the way back does, the caller's words aside. A way back that is not automatic (verification →
 * executing) is taken only when named. Undefined when no way matches.
 */
export function chooseTransition(def: PipelineDefinition, from: string, ask: MoveAsk, verdicts: GuardVerdicts): TransitionDefinition | undefined {
  const ways = waysOn(def, from);
  if (ask.approve) return stageOf(def, from)?.confirmation ? ways.find((t) => t.kind === 'forward') : undefined;
  if (ask.to) return ways.find((t) => t.to === ask.to);
  const forward = ways.find((t) => t.kind === 'forward');
  const holds = (t: TransitionDefinition) => checkTransition(def, t, verdicts).unmet.length === 0;
  if (forward && holds(forward)) return forward;
  return ways.find((t) => t.kind === 'retry' && t.auto === true && holds(t)) ?? forward;
}

/** Whether a move names the way forward or no way at all: loom writes its stage reports before such a move. */
export function leavesForward(def: PipelineDefinition, from: string, ask: MoveAsk): boolean {
  if (ask.approve || !ask.to) return true;
  return waysOn(def, from).some((t) => t.kind === 'forward' && t.to === ask.to);
}

/**
 * Whether Advance would pass a human-approval gate: the way forward from it, or completing it.
 * Advance never does, on any surface (loom's `run --advance` refuses: "is a human-approval gate.
 * Use: loom run --approve", PipelineEngine.advance); only Approve passes it. A way back named
 * from the gate does not pass it.
 */
export function advancePassesGate(def: PipelineDefinition, from: string, to: string | undefined): boolean {
  if (!stageOf(def, from)?.humanApproval) return false;
  return to === undefined || to === from || waysOn(def, from).some((t) => t.kind === 'forward' && t.to === to);
}
