import * as vscode from 'vscode';
import { FAILED_STAGE } from '../../core/port/vocabulary';
import type { TransitionCheck } from '../../core/port/reports';
import type { CommandContext } from '../commands/createCommand';
import type { SpecPipeline, StatusDetail } from '../../core/port/specs';
import type { SpecEntry } from '../specs/specRegistry';
import { diagnosticsForModel } from './diagnosticsAnswer';
import { loomTool } from './loomTool';
import { chooseTransition } from '../../core/port/views';
import { t } from '../../core/port/messages';
import { specOffers } from '../../core/port/offers';
import { answer, featureOf, specForTool, specLabel, type SpecInput } from './toolSpec';
import { driftForModel } from './driftForModel';

/** One sentence saying what the model (or the person) does next, read off the actor's verdicts. */
function whatNext(e: SpecEntry, spec: SpecPipeline = e.spec): string {
  const stage = spec.stage;
  if (stage === null) return t('host.lmTools.pipelineStateJsonCannotRead');
  if (stage === FAILED_STAGE) return t('host.lmTools.specHasFailedUserRecovers');
  const stale = spec.staleApprovals();
  if (stale.length) return t('host.lmTools.changedAfterWasApprovedUser', { changed: stale[0].changed.join(', '), stage: stale[0].stage });
  // The way Advance would take, chosen as the spec's actor chooses it; what blocks it, as `status` says.
  const way = chooseTransition(spec.definition, stage, {}, spec.verdicts);
  const check = way && spec.blockers().find((c) => c.to === way.to);
  if (!check) return t('refusal.pipelineEnd', { specDir: featureOf(e), stage, pipeline: e.spec.pipelineType });
  // A human-approval gate is Approve's, never Advance's (the actor refuses Advance there).
  const offers = specOffers(spec);
  if (check.ready && offers.approve && !offers.advance) return t('tool.next.approveGate', { to: check.to, stage });
  return stepSentence(check);
}

function stepSentence(check: TransitionCheck): string {
  if (!check.ready) return t('host.lmTools.beforeCanMove', { to: check.to, unmet: check.unmet.join('; ') });
  if (check.interactive) return t('host.lmTools.readyMoveOnceUserAgrees', { to: check.to });
  return t('host.lmTools.readyMoveCallLoomadvance', { to: check.to });
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
      if ('entry' in choice)
        return answer(t('host.lmTools.at', { featureOf: featureOf(choice.entry), stage: choice.entry.spec.stage ?? '?' }), {
          ...specStatus(ctx, choice.entry, detail),
          ...(await driftForModel(choice.entry)),
        });
      return answer(
        t('host.lmTools.loomSpecsCallAgainSpecdir', { candidatesCount: String(choice.candidates.length) }),
        choice.candidates.map((e) => ({ specDir: specLabel(ctx, e), stage: e.spec.stage, progress: `${e.overview.progress.done}/${e.overview.progress.total}`, what_next: whatNext(e) })),
      );
    },
  });
}
