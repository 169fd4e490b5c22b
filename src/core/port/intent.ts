import type { WorkflowStep } from '../files/workflow';
import type { Handoff } from '../files/handoff';
import type { ExecutingMachineInput } from '../executing/machine/executingMachine';
import type { UserPrompts } from '../executing/ports';
import type { TestRunner } from '../executing/evidence/testRunner';
import type { ApprovalChannel } from '../pipeline/approver';
import type { DraftingCount } from '../credits/draftingSpend';

/**
 * What a person or an agent asks of a spec, whatever the surface they ask through (the palette,
 * the tree and the dashboard, `@loom`, a `#loom…` tool, MCP, the CLI). Each is sent to the
 * spec's actor by `request` and answered there: the surfaces only render the answer.
 */
export type Intent =
  /** To the next stage (or `to`); at the last stage, completes the pipeline. */
  | { type: 'advance'; to?: string; compressionConfirmed?: boolean; reason?: string }
  /** Passes the gate of the current stage (an interactive stage or a human-approval gate). */
  | { type: 'approve'; compressionConfirmed?: boolean; reason?: string }
  /** Renews a stale approval of a gate already passed; the stage stays. */
  | { type: 'reapprove'; stage?: string; reason?: string }
  | { type: 'fail'; reason: string; validator?: string }
  | { type: 'recover'; to: string; reason?: string }
  /** Runs the executing stage; the answer comes when the run ends. */
  | { type: 'runTasks'; run: RunTasksInput }
  | { type: 'stopTasks' }
  /** The git-worktree stage's work: the feature branch and its worktree, recorded in the state. */
  | { type: 'createWorktree'; location?: string; signal?: AbortSignal }
  /**
   * Records the steps the spec goes through from now on (loom's engine.adjust, `dynamic_steps`):
   * those already entered stay; `remaining` follows them. `current`: the steps it follows now
   * (its dynamic_steps, else its pipeline's), worked out from its files when not given.
   */
  | { type: 'adjustSteps'; remaining: readonly WorkflowStep[]; current?: readonly WorkflowStep[] }
  /** Starts a spec that has no pipeline.state.json yet on the steps chosen for it (loom's `run --auto`, loom_select_pipeline). */
  | { type: 'startPipeline'; steps: readonly ChosenStep[]; why?: string[] }
  /** The first state of a spec just made (New Feature, loom's `init`): at `stage` of its own pipeline, no steps chosen, nothing to confirm. */
  | { type: 'initState'; stage: string }
  /** loom's `run --task T --task-status S` / `loom_update_task_state`. */
  | { type: 'setTaskState'; task: string; status: string; blocker?: string }
  /** loom's `handoff write` / `loom_write_handoff`: one stage or task handoff. */
  | { type: 'writeHandoff'; handoff: HandoffAsk }
  /** Runs the current stage's validators, writing the reports loom writes (Check Stage). */
  | { type: 'checkStage' }
  /** loom's analyze-artifacts: artifact-analysis.json written; `override` records a person's override of one finding beside it. */
  | { type: 'analyzeArtifacts'; override?: AnalysisOverrideAsk }
  /** loom's converge: convergence-report.json for the next round (refused when `round` is given and is not it), tasks appended for the gaps. */
  | { type: 'converge'; round?: number }
  /** loom's omission hunt: findings/omission-hunter.json. */
  | { type: 'huntOmissions' }
  /** Rewind to Before TN: the feature branch back to the commit before TN's checkpoint, TN and later tasks back to pending (asks first). */
  | { type: 'rewind'; task: string; signal?: AbortSignal }
  /** Review Changes' Reject: one file of TN back to its state before TN, and TN back to the implementer in fix mode with the person's words. */
  | { type: 'rejectFile'; task: string; file: string; words?: string; signal?: AbortSignal }
  /** Send to the Implementer: TN's open comment threads on its change become one fix round (task-reviews/TN.json). */
  | { type: 'sendThreads'; task: string; signal?: AbortSignal }
  /**
   * Verification by Loom (loom's verification skill): the project's build and type checks and its
   * tests re-run in the feature worktree (else the repository), their logs kept under `evidence/`,
   * verify-report.md written with its verdict and evidence receipt, and on PASS
   * handoffs/verification.json. The answer comes when the commands have run.
   */
  | { type: 'verify'; verify: VerifyInput }
  /**
   * Synced by Loom (loom's index-update skill): the feature's decisions and pitfalls into loom's
   * structured memory, through loom_add_memory's writer, at the stage that syncs. Handing the
   * branch on (push, pull request) is the surface's, after the answer.
   */
  | { type: 'sync' }
  /**
   * Code review answered by Loom (loom's receiving-code-review skill): each BLOCKER of
   * review-feedback.md and each open comment thread on the feature's code goes back to its task's
   * implementer in fix mode, run by the executing machinery (review, tests, retry limit, breaker);
   * then the project's tests are re-run as evidence and review-response.md is written. The answer
   * comes when that is done, or where the fix run stopped.
   */
  | { type: 'answerReview'; answer: AnswerReviewInput }
  /**
   * A synced spec's drift baseline moved to the commit its code is at now (`codeCommit`, looked up
   * by `request`): a person's Accept as Accurate (who, and why), or a reconcile just written.
   */
  | { type: 'moveBaseline'; source: 'accepted' | 'reconciled'; by: string; reason: string }
  /**
   * A drafting turn's spend kept (`@loom`, /refine, /reconcile, Run Pipeline's stage): its
   * requests, counted by the model beforehand, added to the spec's ledger in pipeline.state.json
   * (`metadata.token_usage`, role `drafter`, the stage) so that they count against
   * `loom.budget.credits`. A spec without a state has none to add them to: said, nothing written.
   */
  | { type: 'recordSpend'; spend: DraftingCount };

export type IntentType = Intent['type'];

/** What verification is given: how to run the project's commands, and who asks. */
export interface VerifyInput {
  /** `loom.executing.testCommand`; the project's own test script when unset. */
  testCommand?: string;
  /** VS Code's workspace trust (the CLI's caller runs it on purpose): commands run only when true. */
  trusted: boolean;
  /** Runs the commands; the project's shell by default. */
  runner?: TestRunner;
  /** Stop: the running command is killed, and nothing is written. */
  signal?: AbortSignal;
  /** Who runs it, named in the report and the handoff (`loom-vscode verify`). */
  writer: string;
}

/** What answering the review is given: the fix run's ports (as Run Tasks'), and who answers. */
export interface AnswerReviewInput {
  run: RunTasksInput;
  /** Named in review-response.md and the handoff (`Loom: Answer Review`). */
  writer: string;
}

/** A person's override of one artifact-analysis finding, with why and who. */
export interface AnalysisOverrideAsk {
  findingId: string;
  reason: string;
  by?: string;
}

/** A step chosen for a spec, written into `dynamic_steps` as it is given (loom reads a bare id too). */
export type ChosenStep = { id: string } & Record<string, unknown>;

/** A handoff to write: for a stage or a task, with what it says, or refreshed as it is. */
export interface HandoffAsk {
  stage?: string;
  task?: string;
  status?: string;
  summary?: string;
  artifacts?: string[];
  /** More fields to keep in the handoff (loom's MCP `data`). */
  data?: Record<string, unknown>;
  /**
   * Keep what the handoff says and take its fingerprints anew: as loom writes them (`true`,
   * `handoff --refresh`), or only the paths it already fingerprints (`same-paths`: a handoff an
   * accepted draft reworked, whose basis the executing loop may have left out by design).
   */
  refresh?: boolean | 'same-paths';
  /** Who wrote it, kept in `written_by`. */
  writtenBy?: string;
  /** A checkpoint of the stage the spec is at (loom_stage_checkpoint): refused for any other stage. */
  currentStageOnly?: boolean;
}

/** Run Tasks' input: how the run reaches models, transcripts and the person it may ask. */
export interface RunTasksInput extends Omit<ExecutingMachineInput, 'work' | 'repoRoot' | 'specDir' | 'definition' | 'ready'> {
  prompts: UserPrompts;
  /** Stop Tasks from the caller's side (a cancelled progress notification); Stop Tasks through `request` works too. */
  signal: AbortSignal;
}

/**
 * The person's word on a step, given when the surface asked them the question the actor put:
 * the step they saw (the spec moved since: asked again), or `true` where the person confirmed
 * up front without being shown a step (`loom-vscode advance --confirm`).
 */
export type Confirmation = true | { from: string; to: string; by?: ConfirmedBy };

/**
 * Who gave the word: the person (the default), or the agent reporting the person's agreement,
 * which the actor accepts only where it says so (`agentMayReport`).
 */
export type ConfirmedBy = 'person' | 'agent';

export type { ApprovalChannel } from '../pipeline/approver';

/** Who gave the word on a move and through what, as the surface knows it. */
export interface Approver {
  by: ConfirmedBy;
  through: ApprovalChannel;
}

export interface RequestOptions {
  confirm?: Confirmation;
  /** Who gave `confirm`, and through what: recorded with an approval, and read by `loom.approvals.requirePerson`. */
  approver?: Approver;
  /** The time recorded with the change; now by default. */
  now?: string;
  /**
   * The commit the spec's code is at, recorded as its drift baseline when the move reaches the
   * stage that syncs; `request` looks it up itself when the move may reach it.
   */
  codeCommit?: string;
}

export type { Handoff };
