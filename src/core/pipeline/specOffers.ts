import { FAILED_STAGE } from '../files/vocabulary';
import { isReviewProblem, reviewAnswered, reviewToAnswer } from '../review/reviewToAnswer';
import type { StaleApproval } from '../specdir/staleness';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { findWorktree } from '../specdir/worktree';
import { advancePassesGate, waysOn } from './chooseTransition';
import { stageOf, type PipelineDefinition } from './pipelineDefinition';
import { hasRole, stageWithRole } from './stageRoles';
import { isCompleted } from './stateRecord';

/**
 * Whether Answer Review sends the review's fixes (its BLOCKERs, the open code threads) back to
 * the implementer: at the stage that answers the review, or at the review gate between rounds,
 * the review reads, has fixes, a stage runs tasks, and (where it is answered) no fresh answer is
 * there yet. The actor's guard for the fix run; `@loom`'s /respond and Run Pipeline ask it too.
 */
export function reviewFixesToAnswer(def: PipelineDefinition, facts: SpecSnapshot, stage: string | null): boolean {
  const atGate = hasRole(def, stage, 'reviewGate');
  if (!atGate && !hasRole(def, stage, 'reviewResponse')) return false;
  const review = reviewToAnswer(facts);
  if (isReviewProblem(review) || review.fixes.length === 0 || !stageWithRole(def, 'tasks')) return false;
  return atGate || !reviewAnswered(facts, stage!);
}

/**
 * Whether the actor takes Answer Review here (the workspace trusted): the fixes above, or, at the
 * stage that answers the review, a review with nothing to fix that is not answered yet (the tests
 * re-run and review-response.md written). The actor's guard for the answer without a fix run.
 */
export function reviewResponseOnly(def: PipelineDefinition, facts: SpecSnapshot, stage: string | null): boolean {
  if (!hasRole(def, stage, 'reviewResponse')) return false;
  const review = reviewToAnswer(facts);
  return !isReviewProblem(review) && review.fixes.length === 0 && !reviewAnswered(facts, stage!);
}

/** What a spec offers a person, whatever the surface: each an intent the actor would take (or answer with what is missing). */
export interface SpecOffers {
  /** Advance: a way Advance takes from here. A human-approval gate's way forward is Approve's, never Advance's. */
  advance: boolean;
  /** Approve: the stage has a gate (a human-approval gate or a stage a person confirms) and a way forward. */
  approve: boolean;
  /** Approve Again: the gates already passed whose approved files changed since. */
  approveAgain: string[];
  /** Create Worktree: at the stage that makes it, or where tasks run and no worktree is found. */
  createWorktree: boolean;
  runTasks: boolean;
  verify: boolean;
  /** Answer Review: the actor would take it (see reviewFixesToAnswer, reviewResponseOnly). */
  answerReview: boolean;
  sync: boolean;
  /** Run Pipeline: a spec on its way (not failed, unreadable or complete). */
  runPipeline: boolean;
}

/** What a read model of the spec holds for its offers: the spec's pipeline, files and stage, as the actor sees them. */
export interface OfferFacts {
  readonly definition: PipelineDefinition;
  readonly snapshot: SpecSnapshot;
  readonly stage: string | null;
  /** The approvals Approve Again renews (SpecPipeline.staleApprovals). */
  staleApprovals(): StaleApproval[];
}

/**
 * What a spec offers, derived once for every surface (the tree's menus, the dashboard and its
 * buttons, `@loom`), from the same facts and rules as the actor's guards: a surface renders it
 * and asks nothing else. Whether a worktree exists is the actor's finding (the recorded path, or
 * a git worktree on the feature branch), not the state's metadata key alone.
 */
export function specOffers(spec: OfferFacts): SpecOffers {
  const { definition: def, snapshot: facts, stage } = spec;
  const current = stage === null || stage === FAILED_STAGE ? undefined : stageOf(def, stage);
  const at = current?.id ?? null;
  const ways = at ? waysOn(def, at) : [];
  const tasks = hasRole(def, at, 'tasks');
  return {
    advance: at !== null && ways.length > 0 && !advancePassesGate(def, at, undefined),
    approve: current !== undefined && current.confirmation && ways.some((t) => t.kind === 'forward'),
    approveAgain: stage === null ? [] : spec.staleApprovals().map((a) => a.stage),
    createWorktree: hasRole(def, at, 'worktree') || (tasks && findWorktree(facts) === undefined),
    runTasks: tasks,
    verify: hasRole(def, at, 'verification'),
    answerReview: reviewFixesToAnswer(def, facts, at) || reviewResponseOnly(def, facts, at),
    sync: hasRole(def, at, 'sync'),
    runPipeline: at !== null && !(facts.state && isCompleted(facts.state)),
  };
}
