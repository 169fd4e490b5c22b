import { FAILED_STAGE } from '../files/vocabulary';
import { schemaText, t as say } from '../messages';
import type { GuardCall } from './guardCall';
import { holds, type GuardOutcome } from './guards';
import type { GuardVerdicts } from './guardVerdicts';
import { transitionsFrom, type PipelineDefinition, type TransitionDefinition, type TransitionKind } from './pipelineDefinition';

/** Whether one transition may be taken now, and why not: read off the guards' verdicts. */
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
  /**
   * What the caller must confirm it did, the closed stage's context compressed (loom 3's
   * compression_confirmed); empty when the move needs no such word or it was given.
   */
  compression: string[];
  /** The first spec-relative file the user can open to fix an unmet precondition. */
  file?: string;
  description?: string;
  /** Each guard of the transition with its verdict, in the order they are explained. */
  verdicts: { call: GuardCall; outcome: GuardOutcome }[];
  /** The kinds of fault among the unmet preconditions (`stale-approval`, `unreadable-input`). */
  codes: NonNullable<GuardOutcome['code']>[];
  /**
   * What the extension's own checks beyond loom's find unmet (the schema's prose preconditions and
   * outputs): shown to the user, never making the move not ready.
   */
  advice: string[];
  /** The first spec-relative file an advice names. */
  adviceFile?: string;
}

export function checkTransition(def: PipelineDefinition, t: TransitionDefinition, verdicts: GuardVerdicts, confirmed = false, compressed = false): TransitionCheck {
  const unmet: string[] = [];
  const confirmations: string[] = [];
  const compression: string[] = [];
  const codes = new Set<NonNullable<GuardOutcome['code']>>();
  let file: string | undefined;
  // A missing file is said once, not again by every guard that reads it.
  const missing = new Set<string>();
  const all = t.guards.map((call) => ({ call, outcome: verdicts.outcome(call) }));
  for (const { call, outcome } of all) {
    if (outcome.needsConfirmation) {
      if (!confirmed) confirmations.push(...outcome.reasons);
      continue;
    }
    if (outcome.needsCompression) {
      if (!compressed) compression.push(...outcome.reasons);
      continue;
    }
    if (holds(outcome, confirmed)) continue;
    if (outcome.file && missing.has(outcome.file)) continue;
    if (call.type === 'fileExists' && outcome.file) missing.add(outcome.file);
    unmet.push(...outcome.reasons);
    if (outcome.code) codes.add(outcome.code);
    file ??= outcome.file;
  }
  const stage = def.stages.find((s) => s.id === t.from);
  const target = def.stages.find((s) => s.id === t.to);
  for (const check of [...(stage?.manualChecks ?? []).filter(() => t.kind === 'forward'), ...(target?.manualChecks ?? [])]) {
    if (!confirmed) confirmations.push(say('advice.checkByHand', { check: schemaText(check) }));
  }
  const advice: string[] = [];
  let adviceFile: string | undefined;
  for (const call of t.advice ?? []) {
    const outcome = verdicts.outcome(call);
    // Advice asks nothing of the user: what would need their word is said as it is.
    if (outcome.ok) continue;
    if (outcome.file && missing.has(outcome.file)) continue;
    if (call.type === 'fileExists' && outcome.file) missing.add(outcome.file);
    advice.push(...outcome.reasons);
    adviceFile ??= outcome.file;
  }
  for (const check of t.manualAdvice ?? []) advice.push(say('advice.checkByHand', { check: schemaText(check) }));
  const interactive = t.guards.some((g) => g.type === 'confirmed') || confirmations.length > 0;
  return {
    to: t.to,
    kind: t.kind,
    interactive,
    ready: unmet.length === 0,
    // Two guards may find the same fault (a receipt checked for the step and for the next stage).
    unmet: [...new Set(unmet)],
    confirmations: [...new Set(confirmations)],
    compression,
    file,
    description: t.description,
    verdicts: all,
    codes: [...codes],
    advice: [...new Set(advice)],
    ...(adviceFile ? { adviceFile } : {}),
  };
}

/** The transitions the user may take from `stage` (failing aside), each with its unmet preconditions. */
export function nextTransitions(def: PipelineDefinition, stage: string, verdicts: GuardVerdicts): TransitionCheck[] {
  return transitionsFrom(def, stage)
    .filter((t) => (stage === FAILED_STAGE ? t.kind === 'recover' : t.kind === 'forward' || t.kind === 'retry'))
    .map((t) => checkTransition(def, t, verdicts));
}
