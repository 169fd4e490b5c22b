/**
 * What the dashboard webview shows for one spec: plain JSON, built from the core by
 * `src/core/views/dashboardModel.ts`. Times are ISO-8601 strings as loom writes them; paths are
 * repository-relative with `/`.
 */

import type { StageRole } from '../core/pipeline/stageRoles';

/** A stage's status as every view derives it (core/specdir/stageStatus), `current` being its `running`. */
export type StepStatus = 'done' | 'current' | 'waiting' | 'failed';

/** One visit recorded in `stage_history`. */
export interface StageVisit {
  status: 'passed' | 'failed' | 'retry';
  enteredAt?: string;
  exitedAt?: string;
  reason?: string;
  approved?: boolean;
  /** Who approved and through what (the history's `approved_by`): the person, or an agent's word; the palette, an elicitation, a tool confirmation, the CLI. */
  approvedBy?: { by: 'person' | 'agent'; through?: string };
  validator?: string;
  retryFrom?: string;
  recoveryFrom?: string;
}

export interface StageStep {
  id: string;
  description?: string;
  status: StepStatus;
  humanApproval: boolean;
  /** The part the stage plays, when it is a special one (core/pipeline/stageRoles): the stepper shows the rounds on the convergence stage. */
  role?: StageRole;
  /** The latest visit's times; for the current stage, when it was entered. */
  enteredAt?: string;
  exitedAt?: string;
  /** Every recorded visit, oldest first: a stage retried or failed has several. */
  visits: StageVisit[];
}

export interface Precondition {
  /** What must hold, in words ("plan.md exists"). */
  label: string;
  holds: boolean;
  /** Why it does not hold, when it does not. */
  reasons: string[];
  /** Repository-relative file that can be opened to fix it. */
  path?: string;
  /** Holds, but only for what it reads: a fact beside it the user should see (a file it does not read that cannot be read). */
  caveat?: string;
}

export interface NextTransition {
  to: string;
  kind: 'forward' | 'retry' | 'recover';
  description?: string;
  ready: boolean;
  interactive: boolean;
  preconditions: Precondition[];
  /** What the user is asked to confirm when taking it. */
  confirmations: string[];
}

export interface TaskBatchRef {
  /** 1-based position in the plan. */
  index: number;
  type: 'parallel' | 'serial';
}

/** A tripped circuit breaker: loom's report and, until the user has chosen, its choices. */
export interface BreakerReport {
  reason: 'retries' | 'timeout' | 'conflict' | 'outside-owns';
  /** "review failed 4 times (max_retries 3)" or the timeout. */
  summary: string;
  openedAt?: string;
  /** The reviewer's last blocking issues, or the timeout information. */
  blockingIssues: string[];
  finishedTasks: string[];
  /** Tasks that depend on this one: what skipping it (C) would stop too. */
  dependents: string[];
  /** What the user may choose, with loom's wording. */
  choices: { choice: 'A' | 'B' | 'C'; label: string }[];
  /** The choice already made: the buttons are not offered again. */
  chosen?: { choice: 'A' | 'B' | 'C'; at?: string };
}

/** One item of loom's fix instructions (`### 修复项 N`: 问题 / 文件 / 位置 / 严重度 / 修复方向). */
export interface DashboardFixItem {
  problem: string;
  file?: string;
  location?: string;
  severity?: string;
  direction?: string;
}

export interface ReadableReview {
  summary: string;
  fixItems: DashboardFixItem[];
}

export interface DashboardTask {
  id: string;
  title: string;
  /** `tasks/TN.md`, when the task file exists. */
  path?: string;
  status: string;
  retries: number;
  maxRetries: number;
  lastReviewerResult?: string;
  blocker?: string;
  /** The last review and the blocker as read (text before the fix instructions, and their items). */
  lastReview?: ReadableReview;
  blockerText?: ReadableReview;
  owns: string[];
  dependsOn: string[];
  batch?: TaskBatchRef;
  /** Present only when the task tripped the circuit breaker. */
  breaker?: BreakerReport;
  /** Its latest checkpoint on the feature branch (Review Changes, Reject File, Rewind). */
  checkpoint?: { commit: string; files: string[] };
  /** Its change's review (task-reviews/TN.json): files marked reviewed of all it changed, those changed since marked, open comment threads. */
  review?: { files: number; reviewed: number; changed: string[]; openThreads: number; error?: string };
}

export interface DashboardHandoff {
  name: string;
  path: string;
  status: string;
  summary: string;
  stage?: string;
  taskId?: string;
  writtenAt?: string;
  stale: boolean;
  /** Files whose fingerprint changed since the handoff was written. */
  changed: string[];
}

/** `artifact-analysis`, `convergence`, or the stem of a `findings/*.json` file (e.g. `omission-hunter`). */
export interface DashboardFinding {
  source: string;
  /** The file the finding was read from. */
  file: string;
  id: string;
  kind: string;
  severity: 'info' | 'warning' | 'error' | 'blocker';
  message: string;
  requirementId?: string;
  behaviorId?: string;
  taskId?: string;
  location?: { path: string; line?: number };
  suggestedFix?: string;
}

export interface TokenCount {
  input: number;
  output: number;
}

/** Token usage the executing loop records (pipeline.state.json `metadata.token_usage`); the section is hidden without it. */
export interface TokenUsage {
  total: TokenCount;
  tasks: ({ id: string } & TokenCount)[];
  stages: ({ id: string } & TokenCount)[];
  roles: ({ id: string } & TokenCount)[];
  updatedAt?: string;
  /** The same requests in AI credits where the model's price is known; the others stay in tokens, named. */
  credits?: {
    total: number;
    tasks: { id: string; credits: number }[];
    /** Per stage: the executing stage's subagents and each stage's drafting. */
    stages?: { id: string; credits: number }[];
    unpricedModels: string[];
    unpricedTokens: number;
    source: string;
    /** Each priced model and where its price came from (VS Code, the setting, the table). */
    prices?: { model: string; source: string }[];
  };
}

export interface DashboardActions {
  /** A way Advance takes exists from the current stage (never a human-approval gate's way forward: Approve's). */
  advance: boolean;
  /** The current stage is an approval gate or needs the user's confirmation. */
  approve: boolean;
  markFailed: boolean;
  /** The validators Check stage runs at the current stage; empty when there are none to run there. */
  checkStage: string[];
  /** Stages a failed spec may recover to. */
  recoverTo: string[];
  /** Gates already passed whose approved files changed since: Approve again renews each. */
  reapprove: string[];
  /** The stage verifies (loom's verification skill): Loom: Verify runs the project's checks and tests. */
  verify?: boolean;
  /** Loom: Answer Review would be taken: the review's fixes, or its response, are to do here. */
  answerReview?: boolean;
}

/** An open comment thread of the spec's review (review-comments.json). */
export interface DashboardThread {
  id: string;
  /** Repository-relative, for openFile. */
  path: string;
  /** Spec-relative, as shown. */
  file: string;
  line: number;
  endLine: number;
  author: string;
  body: string;
  replies: number;
  createdAt: string;
}

export interface DashboardModel {
  kind: 'dashboard';
  specDir: string;
  specName: string;
  pipelineType: string;
  /** null when pipeline.state.json is corrupt. */
  stage: string | null;
  stageSource: 'state' | 'inferred' | 'unknown';
  failureReason?: string;
  startedAt?: string;
  updatedAt?: string;
  steps: StageStep[];
  convergence?: { round: number; max: number; status?: string };
  next: NextTransition[];
  actions: DashboardActions;
  tasks: DashboardTask[];
  /** Members of a dependency cycle that stops batching, if any. */
  cycle: string[];
  handoffs: DashboardHandoff[];
  findings: DashboardFinding[];
  tokenUsage?: TokenUsage;
  /** Open comment threads, oldest first; `reviewError` when review-comments.json cannot be read. */
  reviewThreads: DashboardThread[];
  reviewError?: string;
  problems: { errors: number; warnings: number };
  /** The spec's files that cannot be read (pipeline.state.json among them), each openable at its first problem. */
  unreadable: { path: string; file: string; line: number; message: string }[];
  /** Another process holds `.loom-run.lock`. */
  lockedBy?: number;
  /** Loom: Run Pipeline on this spec: running, or where it stopped and why ("Needs you"). */
  run?: DashboardRun;
  /** A synced spec's drift from its code (the core's answer, read when HEAD moves): what changed since its baseline. */
  drift?: DashboardDrift;
}

/** A synced spec's drift as the dashboard shows it: the baseline, the commits and files since, each file's diff one click away. */
export interface DashboardDrift {
  status: 'clean' | 'drifted' | 'no-baseline' | 'shallow' | 'unknown-baseline' | 'unreadable';
  /** The one phrase every surface says ("3 files changed since a1b2c3d"). */
  summary: string;
  baseline?: { commit: string; source: 'synced' | 'accepted' | 'reconciled' | 'inferred'; recordedAt?: string; by?: string; reason?: string };
  /** Repository-relative, as the spec names them; `renamedTo` where a rename took one. */
  files: { path: string; change: 'modified' | 'added' | 'deleted' | 'renamed'; renamedTo?: string; commits: string[]; tasks: string[]; behaviors: string[] }[];
  /** Newest first. */
  commits: { commit: string; subject: string; author: string; date: string; files: string[] }[];
  goneTests: { file: string; behaviors: string[]; commit: string }[];
}

/** One stage of a pipeline run, as the dashboard shows it. */
export interface DashboardRunStage {
  stage: string;
  work: string;
  ms: number;
  rounds: number;
  /** Estimated tokens. */
  tokens: number;
  wrote: string[];
  transcript: string[];
  /** Repository-relative file the stage's transcript was kept in (`<spec>/transcripts/run-<stage>.md`). */
  file?: string;
}

export interface DashboardRun {
  running: boolean;
  mode: 'supervised' | 'autopilot';
  stage: string;
  /** Why it stopped (a stable code) and the sentence; absent while it runs. */
  reason?: string;
  message?: string;
  /** When it stopped (ISO), from its stop record: still true after a reload. */
  since?: string;
  /** The one action that continues it, run by the host (Loom: Continue Pipeline). */
  action?: string;
  stages: DashboardRunStage[];
}
