import type * as vscode from 'vscode';
import { draftingBudget, MessageTokens } from '../../core/port/credits';
import type { ChatMessage, ChatModel } from '../../core/port/executing';
import { t } from '../../core/port/messages';
import type { CommandContext } from '../commands/createCommand';
import type { SpecEntry } from '../specs/specRegistry';

/**
 * `loom.budget.credits` for an `@loom` turn, through the same check as Run Pipeline's drafting
 * (draftingBudget): a turn whose estimate would pass the budget is not sent, and the reply says
 * how far the spec got and what the turn would cost, with the setting one click away. Without a
 * budget nothing is counted (no token counting before every turn). Returns the stop, if any.
 */
export async function budgetStopsTurn(
  ctx: CommandContext,
  entry: SpecEntry,
  command: string,
  model: ChatModel,
  messages: readonly ChatMessage[],
  stream: vscode.ChatResponseStream,
  signal: AbortSignal,
): Promise<string | undefined> {
  const budget = ctx.config.creditBudget;
  if (!(budget > 0)) return undefined;
  const { stop } = await draftingBudget(entry.spec.snapshot, ctx.config.creditPrices, budget, model, messages, new MessageTokens(model, signal));
  if (!stop) return undefined;
  stream.markdown(`> ${t('credits.chatBudgetStop', { command, reason: stop })}\n\n`);
  stream.button({ command: 'workbench.action.openSettings', arguments: ['loom.budget.credits'], title: t('host.pipelineRun.openSettings') });
  return stop;
}
