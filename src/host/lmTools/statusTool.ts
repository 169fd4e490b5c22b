import * as vscode from 'vscode';
import { FAILED_STAGE } from '../../core/files/vocabulary';
import type { TransitionCheck } from '../../core/pipeline/transitionCheck';
import type { CommandContext } from '../commands/createCommand';
import type { SpecPipeline, StatusDetail } from '../../core/repository/specPipeline';
import type { SpecEntry } from '../specs/specRegistry';
import { diagnosticsForModel } from './diagnosticsAnswer';
import { loomTool } from './loomTool';
import { chooseTransition } from '../../core/pipeline/chooseTransition';
import { t } from '../../core/messages';
import { specOffers } from '../../core/port/offers';
import { answer, featureOf, specForTool, specLabel, type SpecInput } from './toolSpec';

/** One sentence saying what the model (or the person) does next, read off the actor's verdicts. */
function whatNext(e: SpecEntry, spec: SpecPipeline = e.spec): string {
  const stage = spec.stage;
  if (stage === null) return vscode.l10n.t('pipeline.state.json cannot be read, so the stage is unknown: fix or restore the file (it is never overwritten).');
  if (stage === FAILED_STAGE) return vscode.l10n.t('The spec has failed: the user recovers it to a stage with Loom: Recover.');
  const stale = spec.staleApprovals();
  if (stale.length) return vscode.l10n.t('{0} changed after {1} was approved: the user reviews the change and runs Loom: Approve Again.', stale[0].changed.join(', '), stale[0].stage);
  // The way Advance would take, chosen as the spec's actor chooses it; what blocks it, as `status` says.
  const way = chooseTransition(spec.definition, stage, {}, spec.verdicts);
  const check = way && spec.blockers().find((c) => c.to === way.to);
  if (!check) return vscode.l10n.t('{0} is at {1}, the end of its pipeline.', featureOf(e), stage);
  // A human-approval gate is Approve's, never Advance's (the actor refuses Advance there).
  const offers = specOffers(spec);
  if (check.ready && offers.approve && !offers.advance) return t('tool.next.approveGate', { to: check.to, stage });
  return stepSentence(check);
}

function stepSentence(check: TransitionCheck): string {
  if (!check.ready) return vscode.l10n.t('Before it can move to {0}: {1}', check.to, check.unmet.join('; '));
  if (check.interactive) return vscode.l10n.t('Ready to move to {0} once the user agrees: show the user the outputs, then call #loomAdvance (VS Code asks the user to confirm).', check.to);
  return vscode.l10n.t('Ready to move to {0}: call #loomAdvance.', check.to);
}

/**
 * The spec's status as the CLI's and the MCP server's: read again on demand, so that the answer
 * reads the files it needs and tells their problems (`detail: "full"`: every check and every
 * file's problems).
 */
function specStatus(ctx: CommandContext, e: SpecEntry, detail: StatusDetail) {
  const spec = e.repository.readOnDemand(e.dir);
  try {
    const status = spec.status(detail);
    return {
      specDir: specLabel(ctx, e),
      pipeline_type: status.pipeline_type,
      stage: status.stage,
      stage_source: status.stage_source,
      progress: `${e.overview.progress.done}/${e.overview.progress.total}`,
      ...(e.overview.failureReason ? { failure_reason: e.overview.failureReason, failed_in: e.overview.failedIn } : {}),
      tasks: status.tasks,
      next: status.next,
      stale_approvals: spec.staleApprovals().map((a) => ({ stage: a.stage, changed: a.changed })),
      ...diagnosticsForModel(status.diagnostics),
      what_next: whatNext(e, spec),
    };
  } finally {
    spec.dispose();
  }
}

interface StatusInput extends SpecInput {
  /** `summary` (the default) or `full`. */
  detail?: string;
}

/** `#loomStatus`: where a spec stands and what to do next; with several specs and none named, all of them in a line each. */
export function statusTool(ctx: CommandContext): vscode.LanguageModelTool<StatusInput> {
  return loomTool<StatusInput>(ctx, {
    name: 'loom_status',
    writes: false,
    invoke: async (input) => {
      const choice = await specForTool(ctx, input);
      const detail: StatusDetail = input.detail === 'full' ? 'full' : 'summary';
      if ('entry' in choice) return answer(vscode.l10n.t('{0} is at {1}.', featureOf(choice.entry), choice.entry.spec.stage ?? '?'), specStatus(ctx, choice.entry, detail));
      return answer(
        vscode.l10n.t('{0} loom specs; call again with specDir for the details of one.', String(choice.candidates.length)),
        choice.candidates.map((e) => ({ specDir: specLabel(ctx, e), stage: e.spec.stage, progress: `${e.overview.progress.done}/${e.overview.progress.total}`, what_next: whatNext(e) })),
      );
    },
  });
}
