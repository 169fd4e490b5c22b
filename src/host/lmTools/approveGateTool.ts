import * as vscode from 'vscode';
import { request } from '../../core/port/request';
import type { CommandContext } from '../commands/createCommand';
import { moveAnswer } from './advanceTool';
import type { ConfirmedSteps } from './confirmedSteps';
import { loomTool } from './loomTool';
import { toolConfirmation } from './toolConfirmation';
import { featureOf, specForTool, whichSpec, type SpecInput } from './toolSpec';
import { t } from '../../core/port/messages';

export interface ApproveInput extends SpecInput {
  reason?: string;
}

const TOOL = 'loom_approve_gate';

const intentOf = (input: ApproveInput) => ({ type: 'approve' as const, compressionConfirmed: true, reason: input.reason?.trim() || undefined });

/**
 * `#loomApproveGate`: passing a gate is the person's word itself, so the intent carries it only
 * after the person agreed in VS Code's confirmation to exactly the step the actor asked about;
 * otherwise the actor says what is missing and nothing is written.
 */
export function approveGateTool(ctx: CommandContext, confirmed: ConfirmedSteps): vscode.LanguageModelTool<ApproveInput> {
  return loomTool<ApproveInput>(ctx, {
    name: TOOL,
    writes: true,
    prepare: async (input) => {
      const choice = await specForTool(ctx, input);
      if (!('entry' in choice)) return undefined;
      const e = choice.entry;
      const preview = e.spec.preview(intentOf(input));
      if (preview.kind !== 'needs-confirmation') {
        confirmed.forget(TOOL, e.dir);
        return { invocationMessage: t('host.lmTools.checkingGate', { featureOf: featureOf(e) }) };
      }
      confirmed.ask(TOOL, e.dir, preview.step);
      return { invocationMessage: t('host.lmTools.approving', { from: preview.step.from, featureOf: featureOf(e) }), confirmationMessages: toolConfirmation(preview) };
    },
    invoke: async (input) => {
      const choice = await specForTool(ctx, input);
      if (!('entry' in choice)) return whichSpec(ctx, choice.candidates);
      const e = choice.entry;
      const step = confirmed.take(TOOL, e.dir);
      // The step the person confirmed in VS Code's tool confirmation, recorded as such.
      const a = await request(e.spec, intentOf(input), step ? { confirm: step, approver: { by: 'person', through: 'tool-confirmation' } } : {});
      return moveAnswer(ctx, e, TOOL, a, step !== undefined);
    },
  });
}
