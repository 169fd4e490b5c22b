import * as vscode from 'vscode';
import { specDiagnostics } from '../../core/port/reports';
import type { CommandContext } from '../commands/createCommand';
import { diagnosticsForModel } from './diagnosticsAnswer';
import { loomTool } from './loomTool';
import { answer, specForTool, type SpecInput } from './toolSpec';
import { t } from '../../core/port/messages';

/** `#loomValidate`: every problem in loom's files of one spec, or of the whole workspace, as `loom-vscode validate` finds them. */
export function validateTool(ctx: CommandContext): vscode.LanguageModelTool<SpecInput> {
  return loomTool<SpecInput>(ctx, {
    name: 'loom_validate',
    writes: false,
    invoke: async (input) => {
      const named = typeof input.specDir === 'string' && input.specDir.trim() !== '';
      let found;
      if (named) {
        const choice = await specForTool(ctx, input);
        found = 'entry' in choice ? specDiagnostics(choice.entry.spec) : [];
      } else {
        await ctx.registry.start();
        found = [...ctx.registry.folderSpecs().flatMap((f) => f.repository.workflowProblems), ...ctx.registry.entries().flatMap((e) => specDiagnostics(e.spec))];
      }
      const result = diagnosticsForModel(found);
      const summary = result.total === 0 ? t('cli.validate.clean') : t('host.lmTools.problemsThemErrors', { total: String(result.total), errors: String(result.errors) });
      return answer(summary, result);
    },
  });
}
