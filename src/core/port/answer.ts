import type { Handoff } from '../files/handoff';
import type { PipelineState } from '../files/pipelineState';
import type { TaskState } from '../files/taskState';
import type { WorkflowStep } from '../files/workflow';
import type { ExecutingResult } from '../executing/machine/runTypes';
import type { FeatureWorktree } from '../git/featureWorktree';
import type { RefusalCode } from '../pipeline/refusals';
import type { TransitionCheck } from '../pipeline/transitionCheck';
import type { StaleApproval } from '../specdir/staleness';
import type { StageCheckResult } from '../validators/stageCheck';
import type { VerificationResult } from '../verification/verificationResult';
import type { FeatureMemorySync } from '../memory/featureMemory';
import type { ReviewAnswer } from '../review/reviewResponse';
import type { ArtifactAnalysisReport } from '../validators/artifactAnalysis';
import type { ConvergenceOutcome } from '../validators/convergence';
import type { OmissionHuntReport } from '../validators/omissionHunt';
import type { IntentType } from './intent';
import type { RecordedBaseline } from '../drift/baseline';
import type { DraftingSpend } from '../credits/draftingSpend';
import type { Question, StepFacts } from './question';

/**
 * The actor's answer to an intent, the same for every surface: it changed the spec, it refused
 * (with a stable code, the reasons and what would help), or it needs a person's word first
 * (with the question to put to them, worded once).
 */
export type Answer<T extends IntentType = IntentType> = Changed<T> | Refused | NeedsConfirmation;

/** What each intent's change produced, besides the stage it left the spec at. */
export interface ChangeResults {
  advance: { complete?: boolean; alreadyComplete?: boolean };
  approve: { complete?: boolean };
  reapprove: { reapproved: StaleApproval };
  fail: Record<string, never>;
  recover: Record<string, never>;
  runTasks: { result: ExecutingResult };
  stopTasks: Record<string, never>;
  createWorktree: { worktree: FeatureWorktree; recorded: boolean };
  adjustSteps: { steps: WorkflowStep[] };
  startPipeline: Record<string, never>;
  initState: Record<string, never>;
  setTaskState: { task: TaskState };
  writeHandoff: { file: string; handoff: Handoff; refreshed: boolean };
  checkStage: { check: StageCheckResult };
  /** `written`: false when the report said the same apart from its time, and was left as it was. */
  analyzeArtifacts: { report: ArtifactAnalysisReport; written: boolean };
  converge: { outcome: ConvergenceOutcome };
  huntOmissions: { report: OmissionHuntReport };
  rewind: { task: string; tasks: string[]; files: string[]; target: string };
  rejectFile: { task: string; file: string };
  sendThreads: { task: string; threads: number };
  verify: { verification: VerificationResult };
  sync: { memory: FeatureMemorySync };
  /** `response`: review-response.md as written (none when the fix run stopped first, `result` saying why). */
  answerReview: { fixes: number; result?: ExecutingResult; response?: ReviewAnswer };
  moveBaseline: { baseline: RecordedBaseline };
  /** `kept`: false for a spec without a state, whose spend is said but has no ledger to go in. */
  recordSpend: { spend: DraftingSpend; kept: boolean };
}

export type Changed<T extends IntentType = IntentType> = {
  kind: 'changed';
  intent: T;
  /** The stage before and after (the same for a change that is not a move). */
  from: string | null;
  to: string | null;
  /** pipeline.state.json as written, for a change that wrote it. */
  state?: PipelineState;
} & ChangeResults[T];

/** Something a person (or an agent) can do about a refusal; each surface offers it its own way. */
export type Remedy =
  | { kind: 'open-file'; file: string; exists: boolean }
  | { kind: 'reapprove' }
  | { kind: 'create-worktree' }
  | { kind: 'recover'; targets: string[] }
  | { kind: 'refine-threads' }
  | { kind: 'stop-tasks' }
  /** The tasks left at the stage that runs them: running them is what helps first. */
  | { kind: 'run-tasks' }
  /** Advance (to `to`: a way the chosen one is not, which holds; the surface names it). */
  | { kind: 'advance'; to?: string }
  /** Approve: the gate Advance does not pass (a human-approval gate) is passed by Approve, with the person's word. */
  | { kind: 'approve' }
  | { kind: 'compress-context' }
  /** No language model fits the settings: the model settings (`loom.models.*`), or a provider to install. */
  | { kind: 'model-settings' };

export interface Refused {
  kind: 'refused';
  /** The main reason, stable English words for scripts and agents. */
  code: RefusalCode;
  /** Every kind of fault found, `code` first. */
  codes: RefusalCode[];
  /** One sentence, in the display language. */
  message: string;
  /** Each unmet condition, in the display language. */
  reasons: string[];
  remedies: Remedy[];
  /** The spec-relative file to open first. */
  file?: string;
  /** The move that was asked for, with its verdicts. */
  check?: TransitionCheck;
  /** Where the spec is. */
  stage: string | null;
  /** The process that holds the spec's run lock (`spec-locked`, `tasks-running` elsewhere). */
  holder?: { pid: number };
}

/**
 * Everything holds but a person's word: the question to put to them and the step it is about.
 * The surface asks (a dialog, VS Code's tool confirmation, MCP elicitation) and sends the same
 * intent again with `confirm` set to `step`.
 */
export interface NeedsConfirmation {
  kind: 'needs-confirmation';
  step: { from: string; to: string };
  question: Question;
  facts: StepFacts;
  /**
   * An agent's report that the person agreed is enough (loom's `approve`: the call itself is that
   * report); otherwise only the person can confirm.
   */
  agentMayReport: boolean;
  /** What the person may do instead of confirming (make the missing worktree rather than confirm it away). */
  remedies?: Remedy[];
}

/** What the actor would answer (SpecPipeline.preview): it would change the spec, or its refusal or question. */
export type Preview = { kind: 'would-change' } | Refused | NeedsConfirmation;
