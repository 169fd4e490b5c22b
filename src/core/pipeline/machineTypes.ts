import type { StateValue } from 'xstate';
import type { ExecutingMachineInput } from '../executing/machine/executingMachine';
import type { UserAnswerEvent } from '../executing/machine/runEvents';
import type { ExecutingResult } from '../executing/machine/runTypes';
import type { PipelineState } from '../files/pipelineState';
import { FAILED_STAGE } from '../files/vocabulary';
import type { WorkflowStep } from '../files/workflow';
import type { Answer } from '../port/answer';
import type { AnalysisOverrideAsk, Approver, ChosenStep, Confirmation, HandoffAsk, VerifyInput } from '../port/intent';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import type { GuardVerdicts } from './guardVerdicts';
import type { Handoff } from '../files/handoff';
import type { TaskState } from '../files/taskState';
import type { SpecFile } from '../store/specFiles';
import type { TaskChange } from '../executing/review/taskChanges';
import type { DraftingCount } from '../credits/draftingSpend';
import { stageOf, type PipelineDefinition } from './pipelineDefinition';
import { inferStage } from './stageInference';

/** Where the machine's effects write loom's files: the one state store (tests give their own). */
export interface StateStorePort {
  /** Writes pipeline.state.json and progress.md for the spec `facts` describes. */
  writeState(facts: SpecSnapshot, state: PipelineState, now: string): void;
  /**
   * Reads the spec afresh under its run lock and writes the state `change` makes of it (none:
   * nothing written); for the effect of a job that took a while (a worktree made by git), whose
   * request holds the lock until it is written. Returns what was written.
   */
  updateState(facts: SpecSnapshot, change: (fresh: SpecSnapshot) => PipelineState | undefined, now: string): PipelineState | undefined;
  /** Writes one task state and progress.md. */
  writeTaskState(facts: SpecSnapshot, state: TaskState, now: string): void;
  /** Writes one handoff, with loom's fingerprints, and progress.md; returns it as written. */
  writeHandoff(facts: SpecSnapshot, name: string, handoff: Handoff, now: string): Handoff;
  /** Writes a handoff as it is, with the fingerprints it records taken again from the same paths; returns it as written. */
  refreshHandoff(facts: SpecSnapshot, name: string, handoff: Handoff): Handoff;
  /** Writes the reports (a validator's, verification's, the review's answer) and what a validator writes with them. */
  writeReport(facts: SpecSnapshot, files: readonly SpecFile[]): void;
  /**
   * The spec's files as they are when a job ends (git, the project's commands took a while), read
   * under the lock the request holds: what the job's effect records is worked out from them.
   */
  read(facts: SpecSnapshot): SpecSnapshot;
}

/** The spec's actor's context, events and emitted answers, and where the files put the spec (pipelineMachine.ts builds the machine). */
export interface PipelineContext {
  /** The spec's files as last read: the one immutable snapshot every guard reads. */
  facts: SpecSnapshot;
  /** The guards' verdicts on `facts`, each evaluated once. */
  verdicts: GuardVerdicts;
  /** The state record on disk; undefined when the spec has none yet (its stage inferred). */
  state?: PipelineState;
  /** A new record for a spec without one, as loom's init writes it. */
  freshState: (stage: string, now: string) => PipelineState;
  store: StateStorePort;
  /**
   * Reads the spec's files again and hands them to the actor (FILES_CHANGED), for an effect whose
   * writes the guards read next (the stage reports before a move); the spec's owner gives it.
   */
  followFiles?: () => void;
  /** How the last run of the executing stage ended: its result, or the error it stopped with. */
  lastRun?: { result: ExecutingResult } | { error: unknown };
  /** The request a running run answers when it ends. */
  runRequest?: string;
  /** The request a worktree being created answers. */
  worktreeRequest?: string;
  /** The request a rewind or a rejected file under way answers. */
  taskChangeRequest?: string;
  /** The request a verification running answers. */
  verifyRequest?: string;
  /** The review being answered: the request it answers and its time, what it fixes, and how its fix run ended. */
  answering?: { request: string; now: string; fixes: number; writer: string; input: Omit<ExecutingMachineInput, 'ready'>; signal?: AbortSignal; result?: ExecutingResult };
  /** The time of the request a job under way answers (Create Worktree, Verify, Rewind and Reject File): what its effect records, as every other effect records its request's. */
  jobAt?: { worktree?: string; verify?: string; taskChange?: string };
}

/** Every event a request sends carries the request's id, which its answer carries back. */
type Asked = { id?: string; now: string };
/** The commit the code is at, recorded as the drift baseline when the move reaches the stage that syncs. */
type CodeAt = { codeCommit?: string };
/**
 * The stage reports loom's `run --advance` writes before it decides are written (the actor's
 * writeStageReports sends the move again with it), with what a convergence round that did not
 * converge says; a preview sends it empty, writing none.
 */
type ReportsDone = { reportsDone?: { hint?: string } };
/** The person's word on the step, as the surface got it (see Confirmation). */
type Confirmed = { confirm?: Confirmation; approver?: Approver };

export type PipelineEvent =
  /** `compressionConfirmed`: the caller compressed the closed stage's context (loom 3's --compression-confirmed). */
  | ({ type: 'ADVANCE'; to?: string; compressionConfirmed?: boolean; reason?: string } & Asked & Confirmed & CodeAt & ReportsDone)
  /** Passes the current stage's gate and advances. */
  | ({ type: 'APPROVE'; compressionConfirmed?: boolean; reason?: string } & Asked & Confirmed & CodeAt & ReportsDone)
  /** Renews a stale approval of a gate already passed; the stage stays. */
  | ({ type: 'REAPPROVE'; stage?: string; reason?: string } & Asked)
  | ({ type: 'FAIL'; reason: string; validator?: string } & Asked)
  | ({ type: 'RECOVER'; to: string; reason?: string } & Asked)
  /** The spec's files changed on disk (or were just written): the machine follows the new facts. */
  | { type: 'FILES_CHANGED'; facts: SpecSnapshot; verdicts: GuardVerdicts; state?: PipelineState }
  /** Runs the tasks: the executing stage's statechart as a child of the stage that runs tasks. */
  | ({ type: 'RUN_TASKS'; input: Omit<ExecutingMachineInput, 'ready'>; id?: string; now?: string } & Confirmed)
  /** Stop Tasks: the run stops, its in-flight model requests and test runs cancelled. */
  | { type: 'STOP_TASKS'; id?: string }
  /** The user's answer to a question of the run (breaker choice, manual fix done, context). */
  | { type: 'TASK_ANSWER'; answer: UserAnswerEvent }
  /** The git-worktree stage's work: the feature branch and its worktree, then recorded in the state. */
  | ({ type: 'CREATE_WORKTREE'; location: string; signal?: AbortSignal } & Asked)
  | ({ type: 'ADJUST_STEPS'; current: readonly WorkflowStep[]; remaining: readonly WorkflowStep[] } & Asked & Confirmed)
  | ({ type: 'START_PIPELINE'; steps: readonly ChosenStep[]; why: readonly string[] } & Asked & Confirmed)
  /** A new spec's first state, whatever its pipeline says (it may not read yet): taken at the machine's root. */
  | ({ type: 'INIT_STATE'; stage: string } & Asked)
  | ({ type: 'SET_TASK_STATE'; task: string; status: string; blocker?: string } & Asked)
  | ({ type: 'WRITE_HANDOFF'; handoff: HandoffAsk } & Asked)
  | ({ type: 'CHECK_STAGE' } & Asked)
  /** A validator's report written at any stage (loom's analyze-artifacts, converge, omission hunt run whenever asked). */
  | ({ type: 'WRITE_REPORT'; report: ReportAsk } & Asked)
  /** Code review answered by Loom: the fixes run by the executing machinery, the tests re-run, review-response.md written. */
  | ({ type: 'ANSWER_REVIEW'; input: Omit<ExecutingMachineInput, 'ready'>; writer: string; signal?: AbortSignal } & Asked)
  /** Synced by Loom: the feature's memory written at the stage that syncs. */
  | ({ type: 'SYNC' } & Asked)
  /** Accept as Accurate, or a reconcile written: the drift baseline moved to the commit the code is at (src/core/drift/baselineMove.ts). */
  | ({ type: 'MOVE_BASELINE'; source: 'accepted' | 'reconciled'; by: string; reason: string } & Asked & CodeAt & Pick<Confirmed, 'approver'>)
  /** A drafting turn's spend added to the spec's ledger (src/core/pipeline/effects/spend.ts). */
  | ({ type: 'RECORD_SPEND'; spend: DraftingCount } & Asked)
  /** Verification by Loom: the project's commands run as a job beside the stage, then the report and handoff are written. */
  | ({ type: 'VERIFY'; verify: VerifyInput } & Asked)
  /** An effect of the machine finished its writes: its answer (or the error it met) goes out. */
  | { type: 'ANSWERED'; id?: string; answer?: Answer; error?: unknown; state?: PipelineState }
  /** Rewind or Reject File (src/core/executing/review): git's part in a job, then the task states written. */
  | ({ type: 'TASK_CHANGE'; change: TaskChange; signal?: AbortSignal } & Asked & Confirmed);

/** Which report WRITE_REPORT writes, with what its intent gave. */
export type ReportAsk = { kind: 'artifactAnalysis'; override?: AnalysisOverrideAsk } | { kind: 'convergence'; round?: number } | { kind: 'omissionHunt' };

/** What the actor emits: the answer to one request. */
export type PipelineEmitted = { type: 'answer'; id?: string; answer?: Answer; error?: unknown };

/** The stage a machine state value stands for (the stage that runs tasks has substates). */
export const stageOfValue = (value: StateValue): string => (typeof value === 'string' ? value : Object.keys(value)[0]);

/** The id of the executing run while the stage that runs tasks runs them. */
export const EXECUTING_RUN = 'executingRun';

/** The id of the worktree being made (Create Worktree). */
export const WORKTREE_JOB = 'worktreeJob';

/** The id of the verification running (Verify). */
export const VERIFICATION_JOB = 'verificationJob';

/** The machine state of a spec whose stage cannot be known (corrupt state file, unknown stage). */
export const UNREADABLE = '(unreadable)';

/**
 * The stage the files say the spec is at: the state file's, else inferred from the artifacts;
 * null when the state file exists but cannot be read.
 */
export function stageOnDisk(def: PipelineDefinition, facts: SpecSnapshot): string | null {
  if (def.problems?.length) return null;
  if (facts.state) return facts.state.current_stage;
  if (facts.stateCondition === 'invalid') return null;
  return inferStage(def, facts);
}

/** The machine state for a stage on disk: the stage itself when the pipeline has it. */
export function machineStateOf(def: PipelineDefinition, stage: string | null): string {
  return stage !== null && (stage === FAILED_STAGE || stageOf(def, stage)) ? stage : UNREADABLE;
}
