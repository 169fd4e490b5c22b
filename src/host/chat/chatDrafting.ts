import type * as vscode from 'vscode';
import { runDraftingTurn, type DraftingRequest, type DraftingTurnInput, type DraftingTurnResult } from '../../core/port/authoring';
import { countDrafting, MessageTokens, spendSaid } from '../../core/port/credits';
import type { ChatModel } from '../../core/port/executing';
import { t } from '../../core/port/messages';
import { request } from '../../core/port/request';
import type { CommandContext } from '../commands/createCommand';
import type { SpecEntry } from '../specs/specRegistry';
import { checkTurnBudget } from './chatBudget';
import type { LoomChatMetadata } from './chatHistory';

/** Where an `@loom` drafting turn is said, and the conversation it is part of. */
export interface ChatTurn {
  entry: SpecEntry;
  /** The command as the person typed it (`brainstorm`, `refine`, `reconcile`), named in a budget stop. */
  name: string;
  stream: vscode.ChatResponseStream;
  history: vscode.ChatContext['history'];
  /** The answer's metadata: marked when the 80 % warning was said, so later turns of the conversation do not say it again. */
  meta: LoomChatMetadata;
}

/**
 * One `@loom` drafting turn, the same for a stage's command, /refine and /reconcile: the credits
 * budget first (a turn whose estimate would pass `loom.budget.credits` is not sent: `stopped` is
 * the answer to give), then the turn, then what it cost kept in the spec's ledger and said under
 * the reply, so that every turn counts against the budget.
 */
export async function draftInChat(ctx: CommandContext, turn: ChatTurn, input: DraftingTurnInput): Promise<{ stopped: vscode.ChatResult } | { result: DraftingTurnResult }> {
  const { entry, stream, meta } = turn;
  const budget = await checkTurnBudget(ctx, entry, turn.name, input.model, input.messages, stream, turn.history, input.signal);
  if (budget.stop) return { stopped: { metadata: { ...meta, budgetStop: budget.stop } } };
  if (budget.nearLimitSaid) meta.nearLimitSaid = true;
  const result = await runDraftingTurn(input);
  await keepSpend(ctx, entry, entry.spec.stage ?? input.command.stage, input.model, result.requests, stream, input.signal);
  return { result };
}

/**
 * The turn's requests counted by the model and sent to the spec's actor (`recordSpend`), which
 * adds them to the ledger in pipeline.state.json as Run Tasks' and Run Pipeline's are; said under
 * the reply. A spend the actor did not keep (a corrupt state) only goes to the log: the turn's
 * drafts are worth as much without it.
 */
async function keepSpend(
  ctx: CommandContext,
  entry: SpecEntry,
  stage: string,
  model: ChatModel,
  requests: readonly DraftingRequest[],
  stream: vscode.ChatResponseStream,
  signal: AbortSignal,
): Promise<void> {
  const log = ctx.log.component('chat');
  try {
    const spend = await countDrafting(stage, model, requests, new MessageTokens(model, signal), ctx.config.creditPrices);
    const kept = spendSaid(await request(entry.spec, { type: 'recordSpend', spend }));
    if ('notKept' in kept) log.warn(kept.notKept);
    else stream.markdown(`\n\n> ${kept.said}\n\n`);
  } catch (e) {
    log.warn(t('credits.notKept', { detail: e instanceof Error ? e.message : String(e) }));
  }
}
