import type { ExecutingOutcome } from '../executing/machine/runTypes';
import type { StageWork } from './stageWork';

// Where a run stops and how Run Tasks ended: the words Run Pipeline (pipelineRun.ts) and Run Tasks
// started on its own (tasksStop.ts) both say a stop in, apart so that neither imports the other.

/** Why a run stopped: each has the one action that continues it (the surfaces render it). */
export type StopReason =
  | 'approval-gate'
  /** An approval already given went stale (its files changed since): only the person renews it. */
  | 'stale-approval'
  | 'review-gate'
  | 'review-response'
  | 'breaker'
  | 'needs-context'
  | 'budget'
  | 'check-failed'
  | 'verification-failed'
  | 'model-unavailable'
  | 'model-refused'
  /** The model could not be reached (a rate limit, the network), still after its retries. */
  | 'model-error'
  /** A file the stage's drafting may not write is missing or wrong: the person's to fix, before any model is asked. */
  | 'missing-input'
  | 'drafts-declined'
  | 'declined'
  | 'refused'
  | 'tasks-stopped'
  | 'stopped'
  | 'failed-stage'
  /** pipeline.state.json cannot be read: the stage is unknown until a person fixes it. */
  | 'unreadable-state'
  /** The run itself failed (an error it could not get past): the log says what. */
  | 'error'
  | 'done';

/** What the run did at one stage: for the dashboard and the transcript. */
export interface StageRecord {
  stage: string;
  work: StageWork['kind'];
  startedAt: string;
  ms: number;
  /** Drafting rounds (the first and its corrections), or runner rounds. */
  rounds: number;
  /** Estimated tokens of the stage's model requests (one per 4 characters) and of its subagents. */
  tokens: number;
  /** AI credits of the stage's drafting requests, where the model's price is known. */
  credits?: number;
  wrote: string[];
  transcript: string[];
  /** The spec-relative file the stage's transcript was written to (stageTranscript.ts). */
  file?: string;
}

export interface RunStop {
  reason: StopReason;
  stage: string;
  message: string;
  /** The spec-relative file the person is asked for (`missing-input`): the action opens it. */
  file?: string;
  stages: StageRecord[];
}

/**
 * How Run Tasks ended, as the surface's executing command tells it: refused (`code`: the actor's,
 * `no-model` when no model can run the tasks), not confirmed, or ran to an outcome (`resumeWith`:
 * a task stopped on an error where no rule expected one, and running the tasks again resumes it).
 */
export type TasksOutcome =
  | { kind: 'refused'; message: string; code?: string }
  | { kind: 'declined'; message: string }
  | { kind: 'ran'; outcome: ExecutingOutcome; message: string; finished: string[]; resumeWith?: 'run-tasks' };
