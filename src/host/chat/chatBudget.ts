import type * as vscode from 'vscode';
import { draftingBudget, formatCredits, MessageTokens } from '../../core/port/credits';
import type { ChatMessage, ChatModel } from '../../core/port/executing';
import { t } from '../../core/port/messages';
import type { CommandContext } from '../commands/createCommand';
import type { SpecEntry } from '../specs/specRegistry';
import type { LoomChatMetadata } from './chatHistory';

/** What the budget said of an `@loom` turn: its stop (the turn is not sent), or that the 80 % warning was shown. */
export interface TurnBudget {
  stop?: string;
  nearLimitSaid?: true;
}

/**
 * Whether an earlier answer of this chat about the spec already said it is near its budget: the
 * warning is said once per conversation and spec, not under every turn. Read by the shape of the
 * turns (a response carries its result) so that it needs no `vscode` value.
 */
export function nearLimitSaidIn(history: vscode.ChatContext['history'], dir: string): boolean {
  return history.some((turn) => {
    const meta = (turn as Partial<vscode.ChatResponseTurn>).result?.metadata as LoomChatMetadata | undefined;
    return meta !== undefined && meta.dir === dir && meta.nearLimitSaid === true;
  });
}

/**
 * `loom.budget.credits` for an `@loom` turn (a stage's, /refine's, /reconcile's), through the same
 * check as Run Pipeline's drafting (draftingBudget): a turn whose estimate would pass the budget is
 * not sent, and the reply says how far the spec got and what the turn would cost, with the setting
 * one click away. At 80 % of the budget the reply says so first, with Open Dashboard and Open
 * Settings, once per conversation and spec. Without a budget nothing is counted (no token
 * counting before every turn).
 */
export async function checkTurnBudget(
  ctx: CommandContext,
  entry: SpecEntry,
  command: string,
  model: ChatModel,
  messages: readonly ChatMessage[],
  stream: vscode.ChatResponseStream,
  history: vscode.ChatContext['history'],
  signal: AbortSignal,
): Promise<TurnBudget> {
  const budget = ctx.config.creditBudget;
  if (!(budget > 0)) return {};
  const { stop, nearLimit } = await draftingBudget(entry.spec.snapshot, ctx.config.creditPrices, budget, model, messages, new MessageTokens(model, signal));
  const settings = { command: 'workbench.action.openSettings', arguments: ['loom.budget.credits'], title: t('host.pipelineRun.openSettings') };
  if (stop) {
    stream.markdown(`> ${t('credits.chatBudgetStop', { command, reason: stop })}\n\n`);
    stream.button(settings);
    return { stop };
  }
  if (!nearLimit || nearLimitSaidIn(history, entry.dir)) return {};
  const { used } = nearLimit;
  stream.markdown(
    `> ${t('credits.chatNearLimit', { specDir: entry.spec.snapshot.specDir, used: formatCredits(used), budget: formatCredits(budget), percent: Math.floor((used / budget) * 100) })}\n\n`,
  );
  stream.button({ command: 'loom.openDashboard', arguments: [{ specDir: entry.dir }], title: t('host.chat.openDashboard') });
  stream.button(settings);
  return { nearLimitSaid: true };
}
