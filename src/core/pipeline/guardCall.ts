/**
 * A named guard with its parameters, as it appears in the pipeline definition and in the XState
 * machine. The names are the vocabulary of preconditions; `guards.ts` gives each its meaning.
 */
export type GuardCall =
  /** With `noPlaceholders`, the file must also hold no TBD / TODO / FIXME / XXX or `{{VAR}}` (loom's outputs check). */
  | { type: 'fileExists'; params: { path: string; noPlaceholders?: boolean } }
  | { type: 'reportPasses'; params: { path: string } }
  | { type: 'evidenceReceiptValid'; params: { path: string; required: boolean } }
  | { type: 'analysisHasNoBlocker'; params: Record<string, never> }
  | { type: 'convergenceConverged'; params: Record<string, never> }
  | { type: 'convergenceRoundsLeft'; params: { max: number } }
  | { type: 'reviewFeedbackPasses'; params: Record<string, never> }
  | { type: 'reviewerPassed'; params: Record<string, never> }
  | { type: 'testsExitZero'; params: Record<string, never> }
  | { type: 'traceabilityClosed'; params: Record<string, never> }
  | { type: 'handoffsFresh'; params: Record<string, never> }
  /** No file approved at a human-approval gate changed since (loom's checkApprovalFreshness). */
  | { type: 'approvalsFresh'; params: Record<string, never> }
  | { type: 'worktreeExists'; params: Record<string, never> }
  /** No file under `paths` (spec-relative, folders end in `/`) holds an error that stops it being read. */
  | { type: 'inputsReadable'; params: { paths: string[] } }
  /** `stage` is the stage declaring it: loom runs each of its validators only at the stage it belongs to. */
  | { type: 'validatorPasses'; params: { name: string; stage?: string } }
  /**
   * The validator runs at its stage and fails: what sends a spec back by itself (loom 3's
   * convergence-pass returning a `retry_target` from run --advance).
   */
  | { type: 'validatorFails'; params: { name: string; stage: string } }
  | { type: 'confirmed'; params: { stage: string } }
  /**
   * The team's rule `loom.review.blockOnOpenThreads` (teamRules.ts): no review thread on `files`,
   * the outputs and approved files of `stage`, is open while the rule is on.
   */
  | { type: 'threadsAnswered'; params: { stage: string; files: string[] } }
  /**
   * The caller compressed the closed stage's context (loom 3's advance({ compressionConfirmed })
   * for a step whose outputs include handoffs/<stage>.json: `_requiresStageCompression`).
   */
  | { type: 'compressionConfirmed'; params: { stage: string } };

export type GuardName = GuardCall['type'];

export const guard = <T extends GuardName>(type: T, params: Extract<GuardCall, { type: T }>['params']): GuardCall => ({ type, params }) as GuardCall;

/** Identity of a guard call, to avoid evaluating the same check twice for one transition. */
export function guardKey(g: GuardCall): string {
  const known = keys.get(g.params);
  if (known?.type === g.type) return known.key;
  const key = `${g.type}:${JSON.stringify(g.params)}`;
  keys.set(g.params, { type: g.type, key });
  return key;
}

/**
 * Keyed by the parameters object, which the definition holds for as long as it lives and which
 * the machine's guards receive as they are: each key is worked out once (the status path asks per
 * spec), also when a guard call is rebuilt around the same parameters.
 */
const keys = new WeakMap<object, { type: string; key: string }>();
