import { FAILED_STAGE } from '../files/vocabulary';
import { schemaText, t as say } from '../messages';
import type { GuardCall } from './guardCall';
import { holds, unreadableAmongRead, type GuardOutcome } from './guards';
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

type Verdict = { call: GuardCall; outcome: GuardOutcome };

export function checkTransition(def: PipelineDefinition, t: TransitionDefinition, verdicts: GuardVerdicts, confirmed = false, compressed = false): TransitionCheck {
  return explain(
    def,
    t,
    t.guards.map((call) => ({ call, outcome: verdicts.outcome(call) })),
    verdicts,
    confirmed,
    compressed,
  );
}

/** Guards that read nothing (the caller's word): evaluated past the first check that does not hold too. */
const READS_NOTHING: ReadonlySet<GuardCall['type']> = new Set(['confirmed', 'compressionConfirmed']);
/** What loom's advance checks before anything else, in its order (checkApprovalFreshness, then findStaleHandoffs). */
const CHECKED_FIRST: readonly GuardCall['type'][] = ['approvalsFresh', 'handoffsFresh'];

/**
 * One transition as loom's advance checks it, stopping where it stops: the approvals, the handoffs,
 * then the move's own checks in order, up to the first one that does not hold (with the checks of
 * the same kind right after it: every missing output is named, as loom names them together). A
 * check past it is not made, so the files only it reads are not read: that is what a spec read on
 * demand (`status`) saves. `ready` is the same as checkTransition's (every check made and holding),
 * and so are `interactive` and `compression`; `unmet` names what blocks the move first. A file the
 * checks made read that cannot be read is named too; when every check holds, every file the move
 * reads is checked (inputsReadable), as checkTransition checks it.
 */
export function firstBlocker(def: PipelineDefinition, t: TransitionDefinition, verdicts: GuardVerdicts): TransitionCheck {
  const readable = t.guards.find((g) => g.type === 'inputsReadable');
  const ordered = [...CHECKED_FIRST.flatMap((type) => t.guards.filter((g) => g.type === type)), ...t.guards.filter((g) => g.type !== 'inputsReadable' && !CHECKED_FIRST.includes(g.type))];
  const made: Verdict[] = [];
  /** The kind of the first check that does not hold, while the checks right after it are of that kind. */
  let blockedBy: GuardCall['type'] | undefined;
  let stopped = false;
  for (const call of ordered) {
    if (!READS_NOTHING.has(call.type)) {
      if (stopped) continue;
      if (blockedBy !== undefined && call.type !== blockedBy) {
        stopped = true;
        continue;
      }
    }
    const outcome = verdicts.outcome(call);
    made.push({ call, outcome });
    if (blockedBy === undefined && !holds(outcome, false) && !outcome.needsConfirmation && !outcome.needsCompression) blockedBy = call.type;
  }
  if (readable) {
    // Blocked: the files read so far that cannot be read are named (no other file is read for it).
    const outcome = blockedBy === undefined ? verdicts.outcome(readable) : unreadableAmongRead(verdicts.snapshot, readable.params.paths);
    made.unshift({ call: readable, outcome });
  }
  return explain(def, t, made, verdicts, false, false);
}

function explain(def: PipelineDefinition, t: TransitionDefinition, all: Verdict[], verdicts: GuardVerdicts, confirmed: boolean, compressed: boolean): TransitionCheck {
  const unmet: string[] = [];
  const confirmations: string[] = [];
  const compression: string[] = [];
  const codes = new Set<NonNullable<GuardOutcome['code']>>();
  let file: string | undefined;
  // A missing file is said once, not again by every guard that reads it.
  const missing = new Set<string>();
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
export function nextTransitions(def: PipelineDefinition, stage: string, verdicts: GuardVerdicts, check: 'every' | 'first-blocker' = 'every'): TransitionCheck[] {
  return transitionsFrom(def, stage)
    .filter((t) => (stage === FAILED_STAGE ? t.kind === 'recover' : t.kind === 'forward' || t.kind === 'retry'))
    .map((t) => (check === 'every' ? checkTransition(def, t, verdicts) : firstBlocker(def, t, verdicts)));
}
