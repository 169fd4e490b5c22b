import { TOKEN_USAGE_KEY, TokenLedger, type TokenCount, type TokenUsage } from '../executing/transcripts/tokenLedger';
import { COPILOT_PRICES, withOverrides, type ModelRef } from './pricing';

/**
 * What a drafting turn adds to the spec's ledger, worked out from counts the model already gave:
 * the actor's `recordSpend` effect (pipeline/effects/spend.ts) writes it, without asking a model
 * while it holds the run lock.
 */

/** The ledger a state's `metadata` records, counted at the table with the person's overrides. */
export function ledgerOf(metadata: Record<string, unknown> | undefined, prices: unknown): TokenLedger {
  const meta = metadata ?? {};
  const ledger = new TokenLedger(Object.hasOwn(meta, TOKEN_USAGE_KEY) ? meta[TOKEN_USAGE_KEY] : undefined);
  ledger.usePrices(withOverrides(COPILOT_PRICES, prices));
  return ledger;
}

/** What a drafting turn's requests cost: the credits (undefined: the model has no price) and the tokens. */
export interface DraftingSpend {
  input: number;
  output: number;
  credits?: number;
  model: string;
}

/**
 * A drafting turn's requests as the model counted them (each message once), for the stage they
 * drafted: what the actor's `recordSpend` adds to the spec's ledger. Counting asks the model, so
 * it is done before the intent is sent; the write itself is the actor's, under the run lock.
 */
export interface DraftingCount {
  stage: string;
  model: ModelRef;
  /** Each request's tokens: its messages in, its reply out. */
  requests: readonly TokenCount[];
  /** `loom.credits.prices`: the person's overrides of the table. */
  prices?: unknown;
}

/**
 * The spec's ledger (`metadata` of its state as read under the lock) with a drafting turn added,
 * role `drafter` at its stage, as pipeline.state.json keeps it (`metadata.token_usage`, loom's
 * store keeps `metadata` as it is), and what the turn cost.
 */
export function addDrafting(metadata: Record<string, unknown> | undefined, count: DraftingCount, now: string): { usage: TokenUsage; spend: DraftingSpend } {
  const ledger = ledgerOf(metadata, count.prices);
  const before = ledger.creditsUsed();
  const ref = count.model;
  const spend: DraftingSpend = { input: 0, output: 0, model: ref.name ?? ref.family ?? ref.id };
  let priced = true;
  for (const { input, output } of count.requests) {
    if (ledger.estimateCredits(ref, input, output) === undefined) priced = false;
    ledger.add({ stage: count.stage, role: 'drafter', input, output, model: ref });
    spend.input += input;
    spend.output += output;
  }
  if (priced) spend.credits = ledger.creditsUsed() - before;
  return { usage: ledger.toJSON(now), spend };
}
