import { FAILED_STAGE } from '../files/vocabulary';
import type { SpecSnapshot } from '../spec/specSnapshot';
import { evaluateGuard } from './guards';
import { transitionsFrom, type PipelineDefinition, type TransitionDefinition, type TransitionKind } from './pipelineDefinition';

/** Whether one transition may be taken now, and why not. */
export interface TransitionCheck {
  to: string;
  kind: TransitionKind;
  /** The user must confirm (interactive stage, approval gate, or a check only the user can make). */
  interactive: boolean;
  /** Every precondition holds (confirmation aside). */
  ready: boolean;
  /** Each unmet precondition, as a sentence. */
  unmet: string[];
  /** What the user is asked to confirm. */
  confirmations: string[];
  /** The first spec-relative file the user can open to fix an unmet precondition. */
  file?: string;
  description?: string;
}

export function checkTransition(def: PipelineDefinition, t: TransitionDefinition, snapshot: SpecSnapshot, confirmed = false): TransitionCheck {
  const unmet: string[] = [];
  const confirmations: string[] = [];
  let file: string | undefined;
  // A missing file is said once, not again by every guard that reads it.
  const missing = new Set<string>();
  for (const call of t.guards) {
    const outcome = evaluateGuard(call, { snapshot, confirmed });
    // Ask the guard twice only when it could be met by confirming: that tells the two kinds apart.
    const withConfirmation = outcome.ok || confirmed ? outcome : evaluateGuard(call, { snapshot, confirmed: true });
    if (call.type === 'confirmed' || (outcome.needsConfirmation && withConfirmation.ok)) {
      if (!confirmed) confirmations.push(...outcome.reasons);
      continue;
    }
    if (!outcome.ok) {
      if (outcome.file && missing.has(outcome.file)) continue;
      if (call.type === 'fileExists' && outcome.file) missing.add(outcome.file);
      unmet.push(...outcome.reasons);
      file ??= outcome.file;
    }
  }
  const stage = def.stages.find((s) => s.id === t.from);
  const target = def.stages.find((s) => s.id === t.to);
  for (const check of [...(stage?.manualChecks ?? []).filter(() => t.kind === 'forward'), ...(target?.manualChecks ?? [])]) {
    if (!confirmed) confirmations.push(`check by hand: ${check}`);
  }
  // Two guards may find the same fault (a receipt checked for the step and for the next stage).
  unmet.splice(0, unmet.length, ...new Set(unmet));
  confirmations.splice(0, confirmations.length, ...new Set(confirmations));
  const interactive = t.guards.some((g) => g.type === 'confirmed') || confirmations.length > 0;
  return { to: t.to, kind: t.kind, interactive, ready: unmet.length === 0, unmet, confirmations, file, description: t.description };
}

/** The transitions the user may take from the spec's current stage (failing aside). */
export function nextTransitions(def: PipelineDefinition, stage: string, snapshot: SpecSnapshot): TransitionCheck[] {
  return transitionsFrom(def, stage)
    .filter((t) => (stage === FAILED_STAGE ? t.kind === 'recover' : t.kind === 'forward' || t.kind === 'retry'))
    .map((t) => checkTransition(def, t, snapshot));
}
