import * as vscode from 'vscode';
import { TransitionRefusedError } from '../../core/errors';
import { FAILED_STAGE } from '../../core/files/vocabulary';
import { stageOf } from '../../core/pipeline/pipelineDefinition';
import type { TransitionCheck } from '../../core/pipeline/transitionCheck';
import type { CommandContext } from '../commands/createCommand';
import type { SpecEntry } from '../specs/specRegistry';
import type { ConfirmedSteps } from './confirmedSteps';
import { loomTool } from './loomTool';
import { stepConfirmation } from './stepConfirmation';
import { chooseStep, type StepChoice } from './stepChoice';
import { answer, featureOf, specForTool, specLabel, whichSpec, type SpecInput } from './toolSpec';

export interface ApproveInput extends SpecInput {
  reason?: string;
}

const TOOL = 'loom_approve_gate';

/** The gate's way on: approving always goes forward, as Loom: Approve does. */
function gateStep(e: SpecEntry): { from: string; step: StepChoice<TransitionCheck> } | undefined {
  const from = e.spec.stage;
  if (from === null || from === FAILED_STAGE || !stageOf(e.spec.definition, from)?.confirmation) return undefined;
  return { from, step: chooseStep(e.spec.next().filter((c) => c.kind === 'forward')) };
}

/**
 * `#loomApproveGate`: APPROVE is the person's confirmation itself, so it is sent only after the
 * person agreed in VS Code's confirmation to exactly this gate and way on; otherwise the actor's
 * verdicts say what is missing and nothing is sent.
 */
export function approveGateTool(ctx: CommandContext, confirmed: ConfirmedSteps): vscode.LanguageModelTool<ApproveInput> {
  return loomTool<ApproveInput>(ctx, {
    name: TOOL,
    writes: true,
    prepare: async (input) => {
      const choice = await specForTool(ctx, input);
      if (!('entry' in choice)) return undefined;
      const e = choice.entry;
      const gate = gateStep(e);
      if (!gate || gate.step.kind !== 'one' || !gate.step.check.ready) {
        confirmed.forget(TOOL, e.dir);
        return { invocationMessage: vscode.l10n.t('Checking the gate of {0}', featureOf(e)) };
      }
      confirmed.ask(TOOL, e.dir, { from: gate.from, to: gate.step.check.to });
      return { invocationMessage: vscode.l10n.t('Approving {0} of {1}', gate.from, featureOf(e)), confirmationMessages: stepConfirmation(e, gate.from, gate.step.check, true) };
    },
    invoke: async (input) => {
      const choice = await specForTool(ctx, input);
      if (!('entry' in choice)) return whichSpec(ctx, choice.candidates);
      const e = choice.entry;
      const gate = gateStep(e);
      if (!gate) {
        confirmed.forget(TOOL, e.dir);
        const stage = e.spec.stage ?? '?';
        throw new TransitionRefusedError(vscode.l10n.t('{0} has no gate to approve at {1}: use #loomAdvance.', featureOf(e), stage), []);
      }
      const { from, step } = gate;
      if (step.kind !== 'one') {
        confirmed.forget(TOOL, e.dir);
        throw new TransitionRefusedError(vscode.l10n.t('{0} has no single way on from {1} to approve.', featureOf(e), from), []);
      }
      if (!confirmed.take(TOOL, e.dir, { from, to: step.check.to })) {
        // Not asked, asked about another step, or not ready: the verdicts the actor decides on say why.
        const reasons = step.check.ready ? [vscode.l10n.t('the user has not confirmed this approval; call the tool again so that VS Code asks them')] : step.check.unmet;
        throw new TransitionRefusedError(vscode.l10n.t('{0} cannot move from {1} to {2}', featureOf(e), from, step.check.to), reasons);
      }
      const result = e.spec.approve({ compressionConfirmed: true, reason: input.reason?.trim() || undefined });
      ctx.log.component(`lm:${TOOL}`).info(`${e.spec.snapshot.specDir}: ${result.from} approved → ${result.to} (confirmed by the user)`);
      return answer(vscode.l10n.t('{0}: {1} approved → {2}', featureOf(e), result.from, result.to), { specDir: specLabel(ctx, e), from: result.from, to: result.to, stage: e.spec.stage });
    },
  });
}
