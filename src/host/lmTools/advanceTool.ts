import * as vscode from 'vscode';
import { TransitionRefusedError } from '../../core/port/errors';
import type { Answer } from '../../core/port/answer';
import { request } from '../../core/port/request';
import type { CommandContext } from '../commands/createCommand';
import type { ConfirmedSteps } from './confirmedSteps';
import { loomTool } from './loomTool';
import { toolConfirmation } from './toolConfirmation';
import { answer, featureOf, specForTool, specLabel, whichSpec, type SpecInput } from './toolSpec';
import type { SpecEntry } from '../specs/specRegistry';
import { t } from '../../core/port/messages';

export interface AdvanceInput extends SpecInput {
  to?: string;
  reason?: string;
}

const TOOL = 'loom_advance';

// As Loom: Advance, the extension gives loom 3's compression_confirmed itself: the tool cannot
// compress the chat's context, and the next stage's work starts from the spec's files.
const intentOf = (input: AdvanceInput) => ({ type: 'advance' as const, to: input.to || undefined, compressionConfirmed: true, reason: input.reason?.trim() || undefined });

/** The actor's answer to a move from a tool: the change in a sentence, or its refusal (with its codes) for the model. */
export function moveAnswer(ctx: CommandContext, e: SpecEntry, tool: string, a: Answer<'advance' | 'approve'>, confirmed: boolean): vscode.LanguageModelToolResult {
  if (a.kind === 'refused') throw new TransitionRefusedError(a.message, a.reasons, { codes: a.codes, file: a.file, check: a.check });
  if (a.kind === 'needs-confirmation') {
    throw new TransitionRefusedError(t('refusal.cannotMove', { specDir: featureOf(e), from: a.step.from, to: a.step.to }), [t('host.lmTools.userHasNotConfirmedStep')], {
      codes: ['confirmation-required'],
    });
  }
  ctx.log.component(`lm:${tool}`).info(`${e.spec.snapshot.specDir}: ${a.from} → ${a.to}${confirmed ? ' (confirmed by the user)' : ''}`);
  const done = { specDir: specLabel(ctx, e), from: a.from, to: a.to, stage: e.spec.stage };
  if ('alreadyComplete' in a && a.alreadyComplete) return answer(t('refusal.pipelineEnd', { specDir: featureOf(e), stage: a.from ?? '', pipeline: e.spec.pipelineType }), done);
  if ('complete' in a && a.complete) return answer(t('host.commands.completedPipelineDone', { feature: featureOf(e), from: a.from ?? '' }), done);
  if (a.intent === 'approve') return answer(t('host.lmTools.approved', { featureOf: featureOf(e), from: a.from ?? '', to: a.to ?? '' }), done);
  return answer(t('host.commands.text', { feature: featureOf(e), from: a.from ?? '', to: a.to ?? '' }), done);
}

/**
 * `#loomAdvance`: the intent goes to the spec's actor. Where the actor asks for the person's
 * word, `prepareInvocation` shows its question as VS Code's confirmation, and the intent is sent
 * with the word for the step the person saw; the actor takes it only if the spec is still there.
 */
export function advanceTool(ctx: CommandContext, confirmed: ConfirmedSteps): vscode.LanguageModelTool<AdvanceInput> {
  return loomTool<AdvanceInput>(ctx, {
    name: TOOL,
    writes: true,
    prepare: async (input) => {
      const choice = await specForTool(ctx, input);
      if (!('entry' in choice)) return undefined;
      const e = choice.entry;
      const preview = e.spec.preview(intentOf(input));
      if (preview.kind !== 'needs-confirmation') {
        confirmed.forget(TOOL, e.dir);
        return { invocationMessage: t('host.lmTools.checkingWhereCanGoFrom', { featureOf: featureOf(e), stage: e.spec.stage ?? '?' }) };
      }
      confirmed.ask(TOOL, e.dir, preview.step);
      return { invocationMessage: t('host.lmTools.movingFrom', { featureOf: featureOf(e), from: preview.step.from, to: preview.step.to }), confirmationMessages: toolConfirmation(preview) };
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
