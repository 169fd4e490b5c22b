import type { IntentType } from './intent';

/**
 * How the funnel (SpecPipeline.request) carries an intent, as the git extension's Operation table
 * says how `Repository.run` carries each verb: every intent goes through the same body; only
 * these flags differ. Every intent is decided holding the spec's run lock; a lock held by another
 * process is the answer. The read-only way in is `preview` (XState's pure `transition`).
 */
export interface IntentOperation {
  /** The answer comes when the work the actor started ends, not when it decided. */
  long: boolean;
  /** A job beside the stage (git, the project's commands) whose effect answers. */
  job: boolean;
  /** A run of the executing machinery: the spec's run lease held while it runs, the person's questions relayed. */
  run: boolean;
  /** loom's `run --advance` writes the stage's validator reports before it decides: the actor's first effect of the move. */
  stageReports: boolean;
  /** Needs a model for every tier: checked before the person is asked and before anything is written. */
  model: boolean;
}

const now: IntentOperation = { long: false, job: false, run: false, stageReports: false, model: false };
const job: IntentOperation = { ...now, long: true, job: true };
const run: IntentOperation = { ...now, long: true, run: true };

export const INTENT_OPERATIONS: Readonly<Record<IntentType, IntentOperation>> = {
  advance: { ...now, stageReports: true },
  approve: { ...now, stageReports: true },
  reapprove: now,
  fail: now,
  recover: now,
  stopTasks: now,
  adjustSteps: now,
  startPipeline: now,
  initState: now,
  setTaskState: now,
  writeHandoff: now,
  checkStage: now,
  analyzeArtifacts: now,
  converge: now,
  huntOmissions: now,
  sync: now,
  createWorktree: job,
  rewind: job,
  rejectFile: job,
  verify: job,
  runTasks: { ...run, model: true },
  answerReview: run,
  moveBaseline: now,
  sendThreads: job,
  recordSpend: now,
};
