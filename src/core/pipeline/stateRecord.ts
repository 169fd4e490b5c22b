import type { PipelineState, StageHistoryEntry } from '../files/pipelineState';
import { FAILED_STAGE } from '../files/vocabulary';
import type { TransitionKind } from './pipelineDefinition';
import type { ApprovedBy } from './approver';

/**
 * The `loom_version` new state files get when the repository names none: loom's own default
 * (pipeline-engine.js `_readVersion` falls back to it). Loom reads any.
 */
export const WRITER_VERSION = '2.0.0';

export interface StageChange {
  from: string;
  to: string;
  kind: TransitionKind;
  now: string;
  reason?: string;
  /** The user confirmed an interactive stage or an approval gate. */
  confirmed?: boolean;
  /**
   * Who confirmed and through what, kept as `approved_by` beside loom's `approval` (loom 3 keeps an
   * unknown key of a history entry as it is and reads none of it).
   */
  approvedBy?: ApprovedBy;
  /** sha256 of the approved artifacts, recorded (even when empty) on human-approval gates. */
  approvalFingerprints?: Record<string, string>;
  /** The validator whose failure made the spec fail or go back. */
  validator?: string;
  /** The stage left is the convergence stage (stageRoles), whose rounds loom counts: the caller knows the pipeline, this record does not. */
  fromConvergence: boolean;
}

/**
 * A new state record as loom's `PipelineStateStore.init` writes it: no history, no
 * `current_stage_started_at` (leaving the first stage takes `started_at` as its entry time).
 */
export function newPipelineState(specDir: string, pipelineType: string, stage: string, now: string, loomVersion = WRITER_VERSION): PipelineState {
  return {
    spec_dir: specDir,
    pipeline_type: pipelineType,
    current_stage: stage,
    loom_version: loomVersion,
    started_at: now,
    updated_at: now,
    stage_history: [],
    metadata: {},
  };
}

/** The stage a failed spec failed in: the newest `failed` history entry. */
export function failedFrom(state: PipelineState): string | undefined {
  for (let i = state.stage_history.length - 1; i >= 0; i--) {
    if (state.stage_history[i].status === 'failed') return state.stage_history[i].stage;
  }
  return undefined;
}

/** When the current stage was entered, as loom's transition reads it. */
const enteredAt = (state: PipelineState, now: string) => state.current_stage_started_at ?? state.started_at ?? now;

/**
 * Applies one stage change to a state record the way loom's state store records it: the stage
 * being left gets a history entry, unknown keys of the record are kept as they were.
 * - forward: `passed`; on a confirmed stage `approval: user_confirmed`, on a human-approval gate
 *   also `approval_fingerprints` (always, as loom's approve does) and `approved_at`.
 * - retry (going back, e.g. converge → executing): `retry` with `retry_from`, `validator` and
 *   `reason`; from converge it counts `metadata.convergence_round` up, and leaving converge
 *   forward removes it again, as loom does when convergence-pass holds.
 * - fail: `failed` with the reason, `current_stage: failed` and `failure_reason`.
 * - recover: `passed` with `recovery_from: failed`. `failure_reason` stays, as in loom.
 */
export function applyStageChange(state: PipelineState, change: StageChange): PipelineState {
  const entry: StageHistoryEntry = {
    stage: change.from,
    entered_at: enteredAt(state, change.now),
    exited_at: change.now,
    status: change.kind === 'fail' ? 'failed' : change.kind === 'retry' ? 'retry' : 'passed',
  };
  if (change.kind === 'retry') entry.retry_from = change.from;
  if (change.validator) entry.validator = change.validator;
  if (change.reason) entry.reason = change.reason;
  if (change.confirmed && change.kind !== 'fail') {
    entry.approval = 'user_confirmed';
    if (change.approvalFingerprints) entry.approval_fingerprints = change.approvalFingerprints;
    entry.approved_at = change.now;
    if (change.approvedBy) entry.approved_by = { ...change.approvedBy };
  }
  if (change.kind === 'recover') entry.recovery_from = change.from;

  const next: PipelineState = {
    ...state,
    current_stage: change.to,
    current_stage_started_at: change.now,
    updated_at: change.now,
    stage_history: [...state.stage_history, entry],
    metadata: { ...state.metadata },
  };
  if (change.to === FAILED_STAGE) next.failure_reason = change.reason ?? `failed in ${change.from}`;
  if (change.fromConvergence) {
    if (change.kind === 'retry') {
      const round = Number(state.metadata.convergence_round ?? 0);
      next.metadata.convergence_round = (Number.isFinite(round) ? round : 0) + 1;
    } else if (change.kind === 'forward') {
      delete next.metadata.convergence_round;
    }
  }
  return next;
}

/**
 * Renews approvals that went stale: the history entries at `indices` get the new
 * `approval_fingerprints` and `approved_at`, and keep what they held before in
 * `superseded_approvals` (with the reason), so nothing of the audit trail is lost. loom 3's
 * `checkApprovalFreshness` reads every history entry and its `--approve` never clears an old one:
 * rewriting the stale entries in place is what lets loom's `run --advance` go on too. The spec
 * stays at its stage, and no history entry is added.
 */
export function renewApprovals(state: PipelineState, indices: readonly number[], fingerprints: Record<string, string>, now: string, reason: string): PipelineState {
  const renew = new Set(indices);
  const stage_history = state.stage_history.map((entry, i) => {
    if (!renew.has(i)) return entry;
    const superseded = Array.isArray(entry.superseded_approvals) ? entry.superseded_approvals : [];
    return {
      ...entry,
      approval: 'user_confirmed' as const,
      approval_fingerprints: fingerprints,
      approved_at: now,
      superseded_approvals: [...superseded, { approved_at: entry.approved_at ?? entry.exited_at, approval_fingerprints: entry.approval_fingerprints ?? {}, superseded_at: now, reason }],
    };
  });
  return { ...state, updated_at: now, stage_history };
}

/** The current (terminal) stage was completed before, so completing it again records nothing. */
export const isCompleted = (state: PipelineState) => state.metadata.completed === true && state.metadata.completed_stage === state.current_stage;

/**
 * Completes the terminal stage as loom's `completeCurrentStage` does: a `passed` history entry
 * with `terminal: true`, and `metadata.completed`, `completed_stage`, `completed_at`. The stage
 * itself does not change. Completing an already completed stage returns the record unchanged.
 */
export function completeStage(state: PipelineState, now: string, confirmed = false, approvedBy?: ApprovedBy): PipelineState {
  if (isCompleted(state)) return state;
  const entry: StageHistoryEntry = {
    stage: state.current_stage,
    entered_at: enteredAt(state, now),
    exited_at: now,
    status: 'passed',
    terminal: true,
  };
  if (confirmed) {
    entry.approval = 'user_confirmed';
    entry.approved_at = now;
    if (approvedBy) entry.approved_by = { ...approvedBy };
  }
  return {
    ...state,
    updated_at: now,
    stage_history: [...state.stage_history, entry],
    metadata: { ...state.metadata, completed: true, completed_stage: state.current_stage, completed_at: now },
  };
}
