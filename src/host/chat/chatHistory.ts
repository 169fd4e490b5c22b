import * as vscode from 'vscode';
import type { ChatMessage } from '../../core/port/executing';

/** What the participant keeps in each answer's metadata, so later turns can give it to the model. */
export interface LoomChatMetadata {
  command?: string;
  /** Absolute spec directory the turn was about. */
  dir?: string;
  /** The spec's stage when the turn was made. */
  stage?: string;
  /** The model's own words (prose and file blocks) of the turn, as the model should remember them. */
  reply?: string;
  /** Id of the drafts this turn left pending. */
  pending?: string;
  /** Files the turn wrote. */
  wrote?: string[];
  /** Why the turn was not sent: the credits budget would be passed (chatBudget.ts). */
  budgetStop?: string;
  /** The answer said the spec is near its credits budget (80 %): said once per conversation and spec (chatBudget.ts). */
  nearLimitSaid?: true;
}

/**
 * The earlier turns of this conversation with @loom about the same spec at its current stage, as
 * model messages: the user's prompts (with their command) and the model's replies as recorded in
 * the metadata, not the previews the chat showed around them. Turns of a stage the spec has
 * left stay behind: loom wants a closed stage's raw context compressed before the pipeline moves
 * on (`compression_confirmed`), its handoff and files carry it forward, and the extension's
 * Advance confirms that compression on the strength of this. A turn recorded before stages were
 * kept in the metadata is given as before.
 */
export function historyMessages(context: vscode.ChatContext, dir: string, stage: string | undefined): ChatMessage[] {
  const out: ChatMessage[] = [];
  let pendingRequest: ChatMessage | undefined;
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) {
      pendingRequest = { role: 'user', content: `${turn.command ? `/${turn.command} ` : ''}${turn.prompt}` };
      continue;
    }
    if (turn instanceof vscode.ChatResponseTurn) {
      const meta = turn.result.metadata as LoomChatMetadata | undefined;
      if (meta?.dir !== dir || (meta.stage !== undefined && meta.stage !== stage)) {
        pendingRequest = undefined;
        continue;
      }
      if (pendingRequest) out.push(pendingRequest);
      pendingRequest = undefined;
      if (meta.reply) out.push({ role: 'assistant', content: meta.reply });
      else if (meta.wrote) out.push({ role: 'assistant', content: `(The files were written: ${meta.wrote.join(', ')}.)` });
    }
  }
  return out;
}
