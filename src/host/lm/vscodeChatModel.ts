import type * as vscode from 'vscode';
import { type ChatModel, RetryingChatModel } from '../../core/port/executing';
import { t } from '../../core/port/messages';
import type { ComponentLog } from '../log';
import { LanguageModelChatAdapter } from './chatModelAdapter';

/**
 * The core's ChatModel for a vscode.lm model, as every surface gets it (Run Tasks, Run Pipeline,
 * `@loom`, refine): the adapter, asked again after a pause when the provider fails for a passing
 * reason (a rate limit, the network), each pause said in the log.
 */
export function vscodeChatModel(model: vscode.LanguageModelChat, justification: string, log: ComponentLog): ChatModel {
  return new RetryingChatModel(new LanguageModelChatAdapter(model, justification), {
    onRetry: (r) =>
      log.warn(
        `${model.vendor}/${model.family}: ${t('model.retrying', { detail: r.error instanceof Error ? r.error.message : String(r.error), seconds: Math.round(r.delayMs / 1000), attempt: r.attempt, retries: r.retries })}`,
      ),
  });
}
