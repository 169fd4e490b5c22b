import * as vscode from 'vscode';
import type { CommandContext } from '../commands/createCommand';
import type { ConfirmedSteps } from './confirmedSteps';
import { loomTool } from './loomTool';
import { stepConfirmation } from './stepConfirmation';
import { chooseStep } from './stepChoice';
import { answer, featureOf, specForTool, specLabel, whichSpec, type SpecInput } from './toolSpec';

export interface AdvanceInput extends SpecInput {
  to?: string;
  reason?: string;
}

const TOOL = 'loom_advance';

/**
 * `#loomAdvance`: a thin caller of the spec's actor. VS Code asks the person to confirm the step
 * `prepareInvocation` names; the ADVANCE event carries that confirmation only when the spec is
 * still where it was when the person was asked. The actor decides and refuses with its reasons;
 * the tree follows the actor on its own.
 */
export function advanceTool(ctx: CommandContext, confirmed: ConfirmedSteps): vscode.LanguageModelTool<AdvanceInput> {
  return loomTool<AdvanceInput>(ctx, {
    name: TOOL,
    writes: true,
    prepare: async (input) => {
      const choice = await specForTool(ctx, input);
      if (!('entry' in choice)) return undefined;
      const e = choice.entry;
      const from = e.spec.stage;
      const step = chooseStep(e.spec.next(), input.to);
      // Nothing to confirm when the actor is going to refuse (or there is no way to pick): invoke says why.
      if (from === null || step.kind !== 'one' || !step.check.ready) {
        confirmed.forget(TOOL, e.dir);
        return { invocationMessage: vscode.l10n.t('Checking where {0} can go from {1}', featureOf(e), from ?? '?') };
      }
      confirmed.ask(TOOL, e.dir, { from, to: step.check.to });
      return { invocationMessage: vscode.l10n.t('Moving {0} from {1} to {2}', featureOf(e), from, step.check.to), confirmationMessages: stepConfirmation(e, from, step.check, false) };
    },
    invoke: async (input) => {
      const choice = await specForTool(ctx, input);
      if (!('entry' in choice)) return whichSpec(ctx, choice.candidates);
      const e = choice.entry;
      const from = e.spec.stage;
      const step = chooseStep(e.spec.next(), input.to);
      if (step.kind === 'several') {
        return answer(
          vscode.l10n.t('{0} can go several ways from {1}: call again with `to` set to one of them (ask the user which).', featureOf(e), from ?? '?'),
          step.checks.map((c) => ({ to: c.to, kind: c.kind, ready: c.ready, unmet: c.unmet })),
        );
      }
      const to = step.kind === 'one' ? step.check.to : input.to;
      const confirm = from !== null && to !== undefined && confirmed.take(TOOL, e.dir, { from, to });
      // As Loom: Advance, the extension gives loom 3's compression_confirmed itself: the tool cannot
      // compress the chat's context, and the next stage's work starts from the spec's files.
      const result = e.spec.advance({ to, confirm, compressionConfirmed: true, reason: input.reason?.trim() || undefined });
      ctx.log.component(`lm:${TOOL}`).info(`${e.spec.snapshot.specDir}: ${result.from} → ${result.to}${confirm ? ' (confirmed by the user)' : ''}`);
      const done = { specDir: specLabel(ctx, e), from: result.from, to: result.to, stage: e.spec.stage };
      if (result.alreadyComplete) return answer(vscode.l10n.t('{0} is at {1}, the end of its pipeline.', featureOf(e), result.from), done);
      if (result.complete) return answer(vscode.l10n.t('{0}: {1} completed; the pipeline is done.', featureOf(e), result.from), done);
      return answer(vscode.l10n.t('{0}: {1} → {2}', featureOf(e), result.from, result.to), done);
    },
  });
}
