import * as vscode from 'vscode';
import { LoomError } from '../../core/port/errors';
import { REQUIREMENTS_FILE, TRACEABILITY_FILE } from '../../core/port/files';
import { buildTraceabilityMatrix, traceJson } from '../../core/port/reports';
import type { CommandContext } from '../commands/createCommand';
import { loomTool } from './loomTool';
import { answer, featureOf, specForTool, specLabel, whichSpec, type SpecInput } from './toolSpec';
import { t } from '../../core/port/messages';

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
      if (unreadable.length) throw new LoomError(t('host.lmTools.traceabilityCannotBuiltCannotRead', { specDir: snapshot.specDir, unreadable: unreadable.join(', ') }), unreadable[0]);
      const m = buildTraceabilityMatrix(snapshot);
      return answer(t('host.lmTools.behaviorsClosed', { featureOf: featureOf(choice.entry), closed: String(m.summary.closed), behaviors: String(m.summary.behaviors) }), {
        specDir: specLabel(ctx, choice.entry),
        ...traceJson(m),
      });
    },
  });
}
