import * as vscode from 'vscode';
import { LoomError, TransitionRefusedError } from '../../core/port/errors';
import type { CommandContext } from '../commands/createCommand';
import { UntrustedWorkspaceError } from '../trust';
import { answer, type SpecInput } from './toolSpec';
import { t } from '../../core/port/messages';

/** One of Loom's language-model tools: its name in package.json's `languageModelTools` and what it does. */
export interface LoomToolDefinition<T extends SpecInput> {
  name: string;
  /** The tool writes loom's files: only offered, and only run, in a trusted workspace. */
  writes: boolean;
  invoke(input: T, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult>;
  prepare?(input: T, token: vscode.CancellationToken): Promise<vscode.PreparedToolInvocation | undefined>;
}

/**
 * The one wrapper every tool goes through, as commands go through createCommand: a refusal of
 * the pipeline, a held run lock, a corrupt file or an untrusted workspace comes back to the model
 * as text with the reasons (it can tell the user or fix the file); anything else is logged and
 * thrown, and VS Code reports it.
 */
export function loomTool<T extends SpecInput>(ctx: CommandContext, def: LoomToolDefinition<T>): vscode.LanguageModelTool<T> {
  const log = ctx.log.component(`lm:${def.name}`);
  // Refusals, a held run lock (SpecLockedError), a corrupt file (CorruptStateError): all LoomErrors.
  const expected = (e: unknown): e is LoomError | UntrustedWorkspaceError => e instanceof LoomError || e instanceof UntrustedWorkspaceError;
  const refusal = (e: LoomError | UntrustedWorkspaceError): vscode.LanguageModelToolResult => {
    if (e instanceof TransitionRefusedError) {
      log.info(`${e.message}${e.reasons.map((r) => `\n  - ${r}`).join('')}`);
      // `codes` are the actor's stable words, the same every surface gives.
      const codes = e.details.codes ?? [];
      return answer(t('host.lmTools.refusedNothingWasWritten', { message: e.message }), e.reasons.length || codes.length ? { reasons: e.reasons, ...(codes.length ? { codes } : {}) } : undefined);
    }
    log.warn(e.message);
    return answer(e.message, e instanceof LoomError && e.file ? { file: e.file } : undefined);
  };
  return {
    invoke: async (options, token) => {
      try {
        if (def.writes && !ctx.trust.writable) throw new UntrustedWorkspaceError();
        return await def.invoke(options.input ?? ({} as T), token);
      } catch (e) {
        if (expected(e)) return refusal(e);
        log.error('unexpected error', e);
        throw e;
      }
    },
    ...(def.prepare
      ? {
          prepareInvocation: async (options: vscode.LanguageModelToolInvocationPrepareOptions<T>, token: vscode.CancellationToken) => {
            try {
              return await def.prepare!(options.input ?? ({} as T), token);
            } catch (e) {
              // invoke will say what is wrong; preparing has nothing to ask then.
              if (expected(e)) return undefined;
              throw e;
            }
          },
        }
      : {}),
  };
}
