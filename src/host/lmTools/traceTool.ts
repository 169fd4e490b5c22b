import * as vscode from 'vscode';
import { LoomError } from '../../core/port/errors';
import { REQUIREMENTS_FILE, TRACEABILITY_FILE } from '../../core/port/files';
import { buildTraceabilityMatrix, traceJson } from '../../core/port/reports';
import type { CommandContext } from '../commands/createCommand';
import { loomTool } from './loomTool';
import { answer, featureOf, specForTool, specLabel, whichSpec, type SpecInput } from './toolSpec';

/** `#loomTrace`: the traceability matrix, as `loom-vscode trace` builds it. */
export function traceTool(ctx: CommandContext): vscode.LanguageModelTool<SpecInput> {
  return loomTool<SpecInput>(ctx, {
    name: 'loom_trace',
    writes: false,
    invoke: async (input) => {
      const choice = await specForTool(ctx, input);
      if (!('entry' in choice)) return whichSpec(ctx, choice.candidates);
      const { snapshot } = choice.entry.spec;
      // A ledger that does not parse would make every behavior look untraced.
      const unreadable = [
        ...(snapshot.requirementsCondition === 'invalid' ? [`${snapshot.specDir}/${REQUIREMENTS_FILE}`] : []),
        ...(snapshot.traceabilityCondition === 'invalid' ? [`${snapshot.specDir}/${TRACEABILITY_FILE}`] : []),
      ];
      if (unreadable.length)
        throw new LoomError(
          vscode.l10n.t('The traceability of {0} cannot be built: {1} cannot be read. Fix the file first; Loom never overwrites it.', snapshot.specDir, unreadable.join(', ')),
          unreadable[0],
        );
      const m = buildTraceabilityMatrix(snapshot);
      return answer(vscode.l10n.t('{0}: {1} of {2} behaviors closed.', featureOf(choice.entry), String(m.summary.closed), String(m.summary.behaviors)), {
        specDir: specLabel(ctx, choice.entry),
        ...traceJson(m),
      });
    },
  });
}
