import type { ChatMessage, ChatModel } from '../executing/dispatch/chatModel';
import { CreditBudgetExceededError, type StepEstimate, type TokenCount, type TokenLedger } from '../executing/transcripts/tokenLedger';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { t } from '../messages';
import type { Answer } from '../port/answer';
import { ledgerOf, type DraftingCount, type DraftingSpend } from './draftingSpend';
import { formatCredits, type ModelRef } from './pricing';

/**
 * A stage's drafting (`@loom`, Run Pipeline) priced and kept as the subagents' requests are: each
 * request's tokens counted with the model's own countTokens, added to the spec's ledger
 * (pipeline.state.json `metadata.token_usage`, role `drafter`, the stage's name) so they count in
 * the stage's, the run's and the spec's totals and read the same after a reload.
 */

/** The model as the price table looks it up, with VS Code's own price when it gives one. */
export const modelRefOf = (m: ChatModel): ModelRef => ({ id: m.id, family: m.family, vendor: m.vendor, ...(m.price ? { price: m.price } : {}) });

/** The spec's ledger as its state records it, counted at the table with the person's overrides. */
export const specLedger = (snapshot: SpecSnapshot, prices: unknown): TokenLedger => ledgerOf(snapshot.state?.metadata, prices);

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

/** Counts each request of a drafting turn with the model's own countTokens. */
export async function countDrafting(
  stage: string,
  model: ChatModel,
  requests: readonly { sent: readonly ChatMessage[]; reply: string }[],
  tokens: MessageTokens,
  prices?: unknown,
): Promise<DraftingCount> {
  const counted: TokenCount[] = [];
  for (const r of requests) counted.push({ input: await tokens.ofMessages(r.sent), output: await tokens.of(r.reply) });
  return { stage, model: modelRefOf(model), requests: counted, ...(prices !== undefined ? { prices } : {}) };
}

/**
 * What the actor's answer to `recordSpend` says under the turn: what it cost (its tokens and the
 * model, for a model without a price), or why the spec's ledger did not take it.
 */
export function spendSaid(answer: Answer<'recordSpend'>): { spend: DraftingSpend; said: string } | { notKept: string } {
  if (answer.kind !== 'changed') return { notKept: t('credits.notKept', { detail: answer.kind === 'refused' ? answer.message : answer.question.title }) };
  const { spend } = answer;
  const n = { input: spend.input, output: spend.output };
  return { spend, said: spend.credits !== undefined ? t('credits.stageSpent', { ...n, credits: formatCredits(spend.credits) }) : t('credits.stageSpentUnpriced', { ...n, model: spend.model }) };
}
