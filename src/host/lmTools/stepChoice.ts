/** The parts of a transition check a choice needs (TransitionCheck has them). */
export interface StepOption {
  to: string;
  kind: string;
}

export type StepChoice<C extends StepOption> =
  | { kind: 'one'; check: C }
  /** Several ways on and none named: the model has to say which. */
  | { kind: 'several'; checks: C[] }
  /** No way on (the end of the pipeline, a failed spec, an unreadable state), or `to` names none of them. */
  | { kind: 'none'; checks: C[] };

/**
 * The way on a tool takes from the transitions open at the current stage: the one `to` names,
 * else the only one. Recovering a failed spec and failing one are not ways on: a person does
 * those with Loom: Recover and Loom: Mark Failed.
 */
export function chooseStep<C extends StepOption>(checks: readonly C[], to?: string): StepChoice<C> {
  const ways = checks.filter((c) => c.kind === 'forward' || c.kind === 'retry');
  if (to !== undefined && to !== '') {
    const named = ways.find((c) => c.to === to);
    return named ? { kind: 'one', check: named } : { kind: 'none', checks: ways };
  }
  if (ways.length === 1) return { kind: 'one', check: ways[0] };
  return ways.length === 0 ? { kind: 'none', checks: ways } : { kind: 'several', checks: ways };
}
