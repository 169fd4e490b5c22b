/**
 * The special stages of loom's pipeline, recognised once, from the step's data: the skill loom
 * runs there (pipeline.schema.json and workflow.yaml name it), else the stage id loom's own
 * engine keys on. The tree, the dashboard, Advance and the executing stage all ask here.
 */
export type StageRole =
  /** Runs the tasks through subagents (loom's executing). */
  | 'tasks'
  /** Classifies every behavior and appends tasks for the gaps (converge). */
  | 'convergence'
  /** Makes the feature branch and its worktree (git-worktree). */
  | 'worktree'
  /** Cross-checks the planning artifacts and writes artifact-analysis.json. */
  | 'analysis';

const BY_SKILL: ReadonlyMap<string, StageRole> = new Map([
  ['loom-subagent-driven-development', 'tasks'],
  ['loom-converge', 'convergence'],
  ['loom-using-git-worktrees', 'worktree'],
  ['loom-analyze-artifacts', 'analysis'],
]);

const BY_ID: ReadonlyMap<string, StageRole> = new Map([
  ['executing', 'tasks'],
  ['converge', 'convergence'],
  ['git-worktree', 'worktree'],
  ['analyze-artifacts', 'analysis'],
]);

/** A stage as far as roles go (structural, so that the definition can use this module). */
interface RoleHolder {
  id: string;
  role?: StageRole;
}

export function roleOf(stage: { id: string; skill?: string | null }): StageRole | undefined {
  return (stage.skill ? BY_SKILL.get(stage.skill) : undefined) ?? BY_ID.get(stage.id);
}

/** The stage that plays `role` in this pipeline, if any. */
export function stageWithRole<S extends RoleHolder>(def: { stages: readonly S[] }, role: StageRole): S | undefined {
  return def.stages.find((s) => s.role === role);
}

/** Whether `stageId` plays `role` in this pipeline. */
export const hasRole = (def: { stages: readonly RoleHolder[] }, stageId: string | null | undefined, role: StageRole): boolean => stageId != null && stageWithRole(def, role)?.id === stageId;
