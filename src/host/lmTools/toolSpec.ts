import * as vscode from 'vscode';
import { LoomError } from '../../core/port/errors';
import type { CommandContext } from '../commands/createCommand';
import { splitSpecName } from '../format';
import type { SpecEntry } from '../specs/specRegistry';
import { t } from '../../core/port/messages';

/** What every tool's input may name. */
export interface SpecInput {
  /** Absolute, or relative to its workspace folder (`specs/2026-11-29+login`). */
  specDir?: string;
}

/** The spec a tool is about, or the specs to choose from when the input did not say and nothing else does. */
export type SpecChoice = { entry: SpecEntry } | { candidates: SpecEntry[] };

export const featureOf = (e: SpecEntry) => splitSpecName(e.spec.snapshot.name).feature;

/** The spec as the model should name it back: relative to its folder, with the folder when there are several. */
export function specLabel(ctx: CommandContext, e: SpecEntry): string {
  return ctx.registry.folderCount > 1 ? `${e.spec.snapshot.specDir} (${e.folder.name})` : e.spec.snapshot.specDir;
}

/**
 * The spec a tool acts on, as commands resolve it (createCommand) but without asking: the
 * input's `specDir`, else the spec selected in the visible tree, else the active editor's spec,
 * else the only spec. Only directories the registry knows are accepted, so a `specDir` that
 * leads out of the workspace (`../../etc`) names nothing.
 */
export async function specForTool(ctx: CommandContext, input: SpecInput): Promise<SpecChoice> {
  await ctx.registry.start();
  const dir = typeof input.specDir === 'string' ? input.specDir.trim() : '';
  if (dir) {
    const found = ctx.registry.entry(dir);
    if (!found) {
      const known = ctx.registry.entries().map((e) => specLabel(ctx, e));
      throw new LoomError(t('host.lmTools.notLoomSpecDirectoryWorkspace', { dir, specs: known.join(', ') || '-' }));
    }
    return { entry: found };
  }
  const focused = ctx.view.specInFocus();
  if (focused) return { entry: focused };
  const entries = ctx.registry.entries().sort((a, b) => b.spec.snapshot.name.localeCompare(a.spec.snapshot.name));
  if (entries.length === 0) throw new LoomError(t('host.commands.thereAreNoLoomSpecs'));
  return entries.length === 1 ? { entry: entries[0] } : { candidates: entries };
}

/** A tool that needs one spec and was not told which: the model is asked to say. */
export function whichSpec(ctx: CommandContext, candidates: SpecEntry[]): vscode.LanguageModelToolResult {
  return answer(
    t('host.lmTools.workspaceHasSeveralLoomSpecs'),
    candidates.map((e) => ({ specDir: specLabel(ctx, e), stage: e.spec.stage })),
  );
}

/** A tool's result: a sentence for the model (and the person reading the chat), then the data as JSON. */
export function answer(summary: string, data?: unknown): vscode.LanguageModelToolResult {
  const text = data === undefined ? summary : `${summary}\n\n${JSON.stringify(data, null, 2)}`;
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}
