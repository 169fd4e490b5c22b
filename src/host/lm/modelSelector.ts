import * as vscode from 'vscode';
import { ModelUnavailableError, type ChatModel, type ModelTier, type SubagentRole, type ModelSelector } from '../../core/port/executing';
import type { ComponentLog } from '../log';
import { pickForTier } from './tierRanking';
import { vscodeChatModel } from './vscodeChatModel';

export interface ModelSettings {
  /** `loom.models.vendor`; empty: any vendor. */
  vendor: string;
  /** `loom.models.fast|standard|strongest`; empty: Loom ranks what is available. */
  families: Record<ModelTier, string>;
}

/**
 * Maps a role's tier to a vscode.lm model: the family the settings name for the tier (within
 * the vendor, when one is set), else VS Code's models ranked by context size. No model is a
 * normal situation: ModelUnavailableError says what was looked for, and nothing is changed.
 */
export class VsCodeModelSelector implements ModelSelector {
  constructor(
    private readonly settings: () => ModelSettings,
    private readonly log: ComponentLog,
    private readonly justification: string,
  ) {}

  async select(role: SubagentRole, tier: ModelTier, signal: AbortSignal): Promise<ChatModel> {
    const found = await this.find(tier, signal);
    if ('hint' in found) throw new ModelUnavailableError(`${role} (${tier}): ${found.hint}`, role, tier, found.hint);
    const { model } = found;
    this.log.info(`${role} (${tier}) → ${model.vendor}/${model.family} ${model.id} (${model.maxInputTokens} input tokens)`);
    return vscodeChatModel(model, this.justification, this.log);
  }

  /** Before a run: what is missing for the first tier without a model (selecting asks no consent). */
  async check(signal: AbortSignal): Promise<string | undefined> {
    return (await this.tierProblem(signal))?.hint;
  }

  /** The first tier without a model, and what is missing for it (Check Setup names the tier's setting). */
  async tierProblem(signal: AbortSignal): Promise<{ tier: ModelTier; hint: string } | undefined> {
    for (const tier of ['fast', 'standard', 'strongest'] as const) {
      const found = await this.find(tier, signal);
      if ('hint' in found) return { tier, hint: found.hint };
    }
    return undefined;
  }

  private async find(tier: ModelTier, signal: AbortSignal): Promise<{ model: vscode.LanguageModelChat } | { hint: string }> {
    if (signal.aborted) throw signal.reason;
    const { vendor, families } = this.settings();
    const family = families[tier]?.trim();
    const selector: vscode.LanguageModelChatSelector = {};
    if (vendor.trim()) selector.vendor = vendor.trim();
    if (family) selector.family = family;
    const models = await vscode.lm.selectChatModels(selector);
    if (signal.aborted) throw signal.reason;
    const where = [selector.vendor ? `vendor "${selector.vendor}"` : '', family ? `family "${family}"` : ''].filter(Boolean).join(', ');
    const model = family ? models[0] : pickForTier(models, tier);
    if (model) return { model };
    return {
      hint: family
        ? `no language model matches ${where} (setting loom.models.${tier}); pick an installed model family or clear the setting`
        : `no language model is available${where ? ` for ${where}` : ''}; install or sign in to a language model provider (for example GitHub Copilot Chat), or change loom.models.vendor`,
    };
  }
}
