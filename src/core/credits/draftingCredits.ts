import type { ChatMessage, ChatModel } from '../executing/dispatch/chatModel';
import { SpecStateStore } from '../executing/specStateStore';
import { CreditBudgetExceededError, TOKEN_USAGE_KEY, TokenLedger, type StepEstimate } from '../executing/transcripts/tokenLedger';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { COPILOT_PRICES, withOverrides, type ModelRef } from './pricing';

/**
 * A stage's drafting (`@loom`, Run Pipeline) priced and kept as the subagents' requests are: each
 * request's tokens counted with the model's own countTokens, added to the spec's ledger
 * (pipeline.state.json `metadata.token_usage`, role `drafter`, the stage's name) so they count in
 * the stage's, the run's and the spec's totals and read the same after a reload.
 */

/** The model as the price table looks it up, with VS Code's own price when it gives one. */
export const modelRefOf = (m: ChatModel): ModelRef => ({ id: m.id, family: m.family, vendor: m.vendor, ...(m.price ? { price: m.price } : {}) });

/** The spec's ledger as its state records it, counted at the table with the person's overrides. */
export function specLedger(snapshot: SpecSnapshot, prices: unknown): TokenLedger {
  const meta = snapshot.state?.metadata ?? {};
  const ledger = new TokenLedger(Object.hasOwn(meta, TOKEN_USAGE_KEY) ? meta[TOKEN_USAGE_KEY] : undefined);
  ledger.usePrices(withOverrides(COPILOT_PRICES, prices));
  return ledger;
}

/** Tokens of a conversation as the model counts them; each message once (a repair resends the ones before it). */
export class MessageTokens {
  private readonly counted = new Map<string, number>();

  constructor(
    private readonly model: ChatModel,
    private readonly signal: AbortSignal,
  ) {}

  async of(text: string): Promise<number> {
    let n = this.counted.get(text);
    if (n === undefined) {
      n = await this.model.countTokens(text, this.signal);
      this.counted.set(text, n);
    }
    return n;
  }

  async ofMessages(messages: readonly ChatMessage[]): Promise<number> {
    let total = 0;
    for (const m of messages) total += await this.of(m.content);
    return total;
  }
}

/** What the next drafting request is estimated at: its prompt's tokens and the typical drafting output on this spec. */
export async function estimateDrafting(ledger: TokenLedger, model: ChatModel, messages: readonly ChatMessage[], tokens: MessageTokens): Promise<StepEstimate> {
  return ledger.estimate(modelRefOf(model), 'drafter', await tokens.ofMessages(messages));
}

/** What `loom.budget.credits` says of the next drafting request (Run Pipeline's stage, an `@loom` turn). */
export interface DraftingBudget {
  estimate: StepEstimate;
  /**
   * Set when the request would pass the budget: how far the spec got (credits used of the
   * budget) and what the request is estimated to cost. The request is not sent.
   */
  stop?: string;
  /** Set when 80 % of the budget is used: the credits so far and the budget. */
  nearLimit?: { used: number; budget: number };
}

/**
 * The one budget check of drafting, for every surface that drafts: the request's estimate from
 * the spec's ledger, the stop when it would pass the budget (a request that reaches it exactly
 * is sent), the 80 % mark. `budget` 0 or undefined: no budget.
 */
export async function draftingBudget(
  snapshot: SpecSnapshot,
  prices: unknown,
  budget: number | undefined,
  model: ChatModel,
  messages: readonly ChatMessage[],
  tokens: MessageTokens,
): Promise<DraftingBudget> {
  const ledger = specLedger(snapshot, prices);
  const estimate = await estimateDrafting(ledger, model, messages, tokens);
  if (budget === undefined || budget <= 0) return { estimate };
  try {
    ledger.checkCredits(budget, estimate.credits ?? 0);
  } catch (err) {
    if (err instanceof CreditBudgetExceededError) return { estimate, stop: err.message };
    throw err;
  }
  return ledger.nearLimit(budget) ? { estimate, nearLimit: { used: ledger.creditsUsed(), budget } } : { estimate };
}

/** What a drafting turn's requests cost: the credits (undefined: the model has no price) and the tokens. */
export interface DraftingSpend {
  input: number;
  output: number;
  credits?: number;
  model: string;
}

/**
 * Counts each request of a drafting turn and adds it to the spec's ledger in pipeline.state.json
 * (atomic, under the run lock, as every state write). A spec without a state has nothing to add it to.
 */
export async function recordDrafting(
  snapshot: SpecSnapshot,
  stage: string,
  model: ChatModel,
  requests: readonly { sent: readonly ChatMessage[]; reply: string }[],
  prices: unknown,
  tokens: MessageTokens,
  now: () => string,
): Promise<DraftingSpend> {
  // Read afresh: Run Tasks or another turn may have added to it since the snapshot was taken.
  const store = new SpecStateStore(snapshot.repoRoot, snapshot.dir, now);
  const fresh = store.snapshot();
  const ledger = specLedger(fresh, prices);
  const before = ledger.creditsUsed();
  const ref = modelRefOf(model);
  const spend: DraftingSpend = { input: 0, output: 0, model: ref.name ?? ref.family ?? ref.id };
  let priced = true;
  for (const r of requests) {
    const input = await tokens.ofMessages(r.sent);
    const output = await tokens.of(r.reply);
    if (ledger.estimateCredits(ref, input, output) === undefined) priced = false;
    ledger.add({ stage, role: 'drafter', input, output, model: ref });
    spend.input += input;
    spend.output += output;
  }
  if (priced) spend.credits = ledger.creditsUsed() - before;
  if (fresh.state) store.updateMetadata({ [TOKEN_USAGE_KEY]: ledger.toJSON(now()) });
  return spend;
}
