import { specOffers, type SpecOffers } from '../../core/port/offers';
import { hasRole, isStale, type StageStatus } from '../../core/port/views';
import { FAILED_STAGE } from '../../core/port/vocabulary';
import type { SpecEntry } from '../specs/specRegistry';

/** What the tree's context values read of a spec's entry (no `vscode` here: the parity test reads it in plain Node). */
export type ContextEntry = Pick<SpecEntry, 'spec' | 'staleness'> & { overview: Pick<SpecEntry['overview'], 'group'> };

/**
 * What the spec's context menu and inline buttons offer, as `loomSpec:<state>[:approve][:stale]…`:
 * the core's specOffers rendered as the menus' `when` clauses read them, as the dashboard and
 * `@loom` render the same offers. Nothing is decided here.
 */
export function specContext(e: ContextEntry): string {
  const stage = e.spec.stage;
  const state = stage === null ? 'corrupt' : stage === FAILED_STAGE ? 'failed' : e.overview.group === 'done' ? 'done' : 'running';
  const offers = specOffers(e.spec);
  // `:staleApproval`: an approval of a gate already passed went stale (Approve Again).
  const staleApproval = offers.approveAgain.length > 0;
  return `loomSpec:${state}${offers.approve ? ':approve' : ''}${advanceContext(offers)}${isStale(e.staleness) ? ':stale' : ''}${staleApproval ? ':staleApproval' : ''}${stageContext(e, offers)}`;
}

/** A stage row's context value: the current stage's row offers what the spec offers (Approve, Advance); a passed one Approve Again when its approval went stale. */
export function stageRowContext(e: ContextEntry, stage: { status: StageStatus; current: boolean }, staleApproval: boolean): string {
  const offers = stage.current ? specOffers(e.spec) : undefined;
  return `loomStage:${stage.status}${offers?.approve ? ':approve' : ''}${offers ? advanceContext(offers) : ''}${staleApproval && !stage.current ? ':staleApproval' : ''}`;
}

/**
 * `:noAdvance` where the actor would refuse Advance (a human-approval gate, whose way on is
 * Approve's): the menus hide Advance there rather than offer a button that is always refused.
 */
function advanceContext(offers: SpecOffers): string {
  return offers.advance ? '' : ':noAdvance';
}

/**
 * Appended last, so the menus' `viewItem =~ /^loomSpec:running/` patterns keep matching:
 * `:executing` at the stage where tasks run (Run Tasks, Stop Tasks), `:worktree` where Create
 * Worktree helps (the git-worktree stage, or executing where the actor finds no worktree),
 * `:verification` where Loom: Verify runs the project's checks and tests, `:reviewGate` /
 * `:reviewResponse` where Loom: Answer Review would be taken, `:sync` where Sync is.
 */
function stageContext(e: ContextEntry, offers: SpecOffers): string {
  const stage = e.spec.stage;
  if (!stage) return '';
  const answer = offers.answerReview ? (hasRole(e.spec.definition, stage, 'reviewGate') ? ':reviewGate' : ':reviewResponse') : '';
  return `${offers.runTasks ? ':executing' : ''}${offers.createWorktree ? ':worktree' : ''}${offers.verify ? ':verification' : ''}${answer}${offers.sync ? ':sync' : ''}`;
}
