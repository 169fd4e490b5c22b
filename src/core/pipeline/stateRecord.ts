import type { PipelineState, StageHistoryEntry } from '../files/pipelineState';
import { FAILED_STAGE } from '../files/vocabulary';
import type { TransitionKind } from './pipelineDefinition';

/** The version written into new state files; loom reads any. */
export const WRITER_VERSION = '0.1.0';

export interface StageChange {
  from: string;
  to: string;
  kind: TransitionKind;
  now: string;
  reason?: string;
  /** The user confirmed an interactive stage or an approval gate. */
  confirmed?: boolean;
  /** sha256 of the approved artifacts, recorded on human-approval gates. */
  approvalFingerprints?: Record<string, string>;
  /** The validator whose failure made the spec fail. */
  validator?: string;
}

export function newPipelineState(specDir: string, pipelineType: string, stage: string, now: string): PipelineState {
  return {
    spec_dir: specDir,
    pipeline_type: pipelineType,
    current_stage: stage,
    loom_version: WRITER_VERSION,
    started_at: now,
    updated_at: now,
    current_stage_started_at: now,
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

/**
 * Applies one stage change to a state record the way loom records it: the stage being left gets
 * a history entry (passed, retry or failed), unknown keys of the record are kept as they were.
 */
export function applyStageChange(state: PipelineState, change: StageChange): PipelineState {
  const entry: StageHistoryEntry = {
    stage: change.from,
    entered_at: state.current_stage_started_at ?? state.updated_at ?? state.started_at ?? change.now,
    exited_at: change.now,
    status: change.kind === 'fail' ? 'failed' : change.kind === 'retry' ? 'retry' : 'passed',
  };
  if (change.reason) entry.reason = change.reason;
  if (change.confirmed && change.kind !== 'fail') {
    entry.approval = 'user_confirmed';
    entry.approved_at = change.now;
  }
  if (change.approvalFingerprints && Object.keys(change.approvalFingerprints).length) entry.approval_fingerprints = change.approvalFingerprints;
  if (change.validator) entry.validator = change.validator;
  if (change.kind === 'recover') entry.recovery_from = failedFrom(state) ?? change.from;

  const next: PipelineState = {
    ...state,
    current_stage: change.to,
    updated_at: change.now,
    current_stage_started_at: change.now,
    stage_history: [...state.stage_history, entry],
    metadata: { ...state.metadata },
  };
  if (change.to === FAILED_STAGE) next.failure_reason = change.reason ?? `failed in ${change.from}`;
  else delete next.failure_reason;
  if (change.kind === 'retry' && change.from === 'converge') {
    const round = Number(state.metadata.convergence_round ?? 0);
    next.metadata.convergence_round = (Number.isFinite(round) ? round : 0) + 1;
  }
  return next;
}
