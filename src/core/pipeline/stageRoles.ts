import { REVIEW_FEEDBACK_FILE } from '../files/vocabulary';
import type { GuardCall } from './guardCall';

/**
 * The special stages of loom's pipeline, recognised once, from the step's data: the skill loom
 * runs there (pipeline.schema.json and workflow.yaml name it), what its gate waits for, else the
 * stage id loom's own engine keys on. The tree, the dashboard, Advance, the executing stage and
 * the handoff writer all ask here for what a stage does. The one other table keyed by stage id is
 * the `@loom` drafting commands (authoring/stageCommands.ts): each names the interactive stage
 * whose files it drafts, as loom's skills name theirs, and a stage no command names has none.
 */
export type StageRole =
  /** Writes plan.md and the task files (loom's planning). */
  | 'planning'
  /** Cross-checks the planning artifacts and writes artifact-analysis.json. */
  | 'analysis'
  /** Makes the feature branch and its worktree (git-worktree). */
  | 'worktree'
  /** Runs the tasks through subagents (loom's executing). */
  | 'tasks'
  /** Classifies every behavior and appends tasks for the gaps (converge); counts its rounds. */
  | 'convergence'
  /** Verifies the feature before completion against the test report (verification). */
  | 'verification'
  /** Waits for the reviewer's review-feedback.md (review-gate); the feature's code takes comments there. */
  | 'reviewGate'
  /** Answers the review: BLOCKERs fixed by the implementer in fix mode, review-response.md written (loom's receiving-code-review). */
  | 'reviewResponse'
  /** Updates loom's structured memory and hands the branch on (loom's index-update: synced). */
  | 'sync';

const BY_SKILL: ReadonlyMap<string, StageRole> = new Map([
  ['loom-writing-plans', 'planning'],
  ['loom-analyze-artifacts', 'analysis'],
  ['loom-using-git-worktrees', 'worktree'],
  ['loom-subagent-driven-development', 'tasks'],
  ['loom-converge', 'convergence'],
  ['loom-verification-before-completion', 'verification'],
  ['loom-receiving-code-review', 'reviewResponse'],
  ['loom-index-update', 'sync'],
]);

const BY_ID: ReadonlyMap<string, StageRole> = new Map([
  ['planning', 'planning'],
  ['analyze-artifacts', 'analysis'],
  ['git-worktree', 'worktree'],
  ['executing', 'tasks'],
  ['converge', 'convergence'],
  ['verification', 'verification'],
  ['review-gate', 'reviewGate'],
  ['code-review-response', 'reviewResponse'],
  ['synced', 'sync'],
]);

/** What of a stage tells its role: its skill, what leaving it waits for, and its id. */
export interface RoleData {
  id: string;
  skill?: string | null;
  /** `approval_requires` of its gate. */
  approvalRequires?: readonly string[];
  /** The checks to leave it. */
  exit?: readonly GuardCall[];
}

/** A gate left only once the reviewer's feedback is there (loom's review-gate: `approval_requires: [review-feedback.md]`). */
const waitsForReviewFeedback = (s: RoleData) =>
  (s.approvalRequires ?? []).includes(REVIEW_FEEDBACK_FILE) || (s.exit ?? []).some((g) => g.type === 'reviewFeedbackPasses' || (g.type === 'fileExists' && g.params.path === REVIEW_FEEDBACK_FILE));

export function roleOf(stage: RoleData): StageRole | undefined {
  return (stage.skill ? BY_SKILL.get(stage.skill) : undefined) ?? (waitsForReviewFeedback(stage) ? 'reviewGate' : undefined) ?? BY_ID.get(stage.id);
}

/**
 * The role of a name loom gives a stage's handoff (`handoffs/<stage>.json`) when no step is at
 * hand: loom's writeHandoff knows only the name, so the handoff's fingerprints follow it.
 */
export const roleOfName = (name: string): StageRole | undefined => BY_ID.get(name);

/** A stage as far as roles go (structural, so that the definition can use this module). */
interface RoleHolder {
  id: string;
  role?: StageRole;
}

/** The stage that plays `role` in this pipeline, if any. */
export function stageWithRole<S extends RoleHolder>(def: { stages: readonly S[] }, role: StageRole): S | undefined {
  return def.stages.find((s) => s.role === role);
}

/** Whether `stageId` plays `role` in this pipeline. */
export const hasRole = (def: { stages: readonly RoleHolder[] }, stageId: string | null | undefined, role: StageRole): boolean => stageId != null && stageWithRole(def, role)?.id === stageId;
