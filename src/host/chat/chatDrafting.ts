import type * as vscode from 'vscode';
import {
  buildRepairMessage,
  runDraftingTurn,
  type AuthoringCommand,
  type AuthoringTemplates,
  type Draft,
  type DraftingEvent,
  type DraftingRequest,
  type DraftingTurnResult,
} from '../../core/port/authoring';
import { countDrafting, MessageTokens, spendSaid } from '../../core/port/credits';
import type { ChatMessage, ChatModel } from '../../core/port/executing';
import { t } from '../../core/port/messages';
import { request } from '../../core/port/request';
import type { CommandContext } from '../commands/createCommand';
import { vscodeChatModel } from '../lm/vscodeChatModel';
import type { SpecEntry } from '../specs/specRegistry';
import { checkTurnBudget } from './chatBudget';
import type { LoomChatMetadata } from './chatHistory';

/** Where an `@loom` drafting turn is said, the person's request and the conversation it is part of. */
export interface ChatTurn {
  entry: SpecEntry;
  /** The command as the person typed it (`brainstorm`, `refine`, `reconcile`), named in a budget stop. */
  name: string;
  /** The request the turn answers: its model is the one the person picked. */
  request: vscode.ChatRequest;
  stream: vscode.ChatResponseStream;
  history: vscode.ChatContext['history'];
  /** The answer's metadata: marked when the 80 % warning was said, so later turns of the conversation do not say it again. */
  meta: LoomChatMetadata;
}

/** What one kind of drafting turn sends and checks; the rest is the same for every turn. */
export interface ChatDraft {
  /** Why Loom asks the model, as VS Code's consent dialog shows it. */
  purpose: string;
  messages: readonly ChatMessage[];
  command: AuthoringCommand;
  /** Drafts pending from earlier turns of the command. */
  pending: readonly Draft[];
  /** The checks the drafts must pass (the stage's, a refine's, a reconcile's). */
  check: (drafts: readonly Draft[]) => string[];
  /** The spec's templates, in its language: the repair message that sends problems back is theirs. */
  templates: AuthoringTemplates;
  signal: AbortSignal;
}

/**
 * One `@loom` drafting turn, the same for a stage's command, /refine and /reconcile: the person's
 * model asked (said as progress), the credits budget first (a turn whose estimate would pass
 * `loom.budget.credits` is not sent: `stopped` is the answer to give), then the turn streamed into
 * the chat (its problems sent back in the templates' words), then what it cost kept in the spec's
 * ledger and said under the reply, so that every turn counts against the budget.
 */
export async function draftInChat(ctx: CommandContext, turn: ChatTurn, draft: ChatDraft): Promise<{ stopped: vscode.ChatResult } | { result: DraftingTurnResult }> {
  const { entry, stream, meta } = turn;
  stream.progress(t('host.chat.asking', { name: turn.request.model.name }));
  const model = vscodeChatModel(turn.request.model, draft.purpose, ctx.log.component('lm'));
  const budget = await checkTurnBudget(ctx, entry, turn.name, model, draft.messages, stream, turn.history, draft.signal);
  if (budget.stop) return { stopped: { metadata: { ...meta, budgetStop: budget.stop } } };
  if (budget.nearLimitSaid) meta.nearLimitSaid = true;
  const result = await runDraftingTurn({
    model,
    messages: draft.messages,
    specDir: entry.spec.snapshot.specDir,
    command: draft.command,
    pending: draft.pending,
    check: draft.check,
    repairMessage: (problems) => buildRepairMessage(draft.templates, problems),
    onEvent: (e) => showDrafting(stream, e),
    signal: draft.signal,
  });
  await keepSpend(ctx, entry, entry.spec.stage ?? draft.command.stage, model, result.requests, stream, draft.signal);
  return { result };
}

/** Streaming a drafting turn: the model's words as they come, progress for files and checks. */
function showDrafting(stream: vscode.ChatResponseStream, e: DraftingEvent): void {
  switch (e.type) {
    case 'prose':
      if (e.text.trim() || e.text.includes('\n')) stream.markdown(e.text);
      break;
    case 'fileStart':
      stream.progress(t('host.chat.drafting', { path: e.path }));
      break;
    case 'checking':
      stream.progress(t('host.chat.checkingDraftsLoomSValidators'));
      break;
    case 'refused':
      stream.markdown(`\n\n> ${t('host.chat.leftOutNeverWritten', { path: e.path, reason: e.reason })}\n\n`);
      break;
    case 'withdraw':
      stream.markdown(`\n\n> ${t('host.chat.modelWithdrew', { path: e.path })}\n\n`);
      break;
    case 'repair':
      stream.markdown(`\n\n> ${t('host.chat.loomSChecksFoundProblem', { problemsCount: e.problems.length, attempt: e.attempt })}\n\n`);
      break;
  }
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
