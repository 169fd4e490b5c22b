import { isPlainObject } from '../files/plainShapes';
import type { PipelineState } from '../files/pipelineState';
import { revParse } from '../git/gitCommand';
import { findWorktree } from '../specdir/worktree';
import type { SpecSnapshot } from '../specdir/specSnapshot';

/**
 * The commit a synced spec was last true to, kept in the state's free-form `metadata` (loom's
 * schema leaves it open and loom 3's state store writes it back as it read it), under one key.
 */
export const BASELINE_KEY = 'drift_baseline';

/** How the baseline came to be: the move to synced, a person's Accept as Accurate, a reconcile written. */
export type BaselineSource = 'synced' | 'accepted' | 'reconciled';

export interface RecordedBaseline {
  commit: string;
  recorded_at: string;
  source: BaselineSource;
  /** Who accepted the code as it is, and why (Accept as Accurate). */
  by?: string;
  reason?: string;
}

/** The baseline the state records, or undefined when it records none (or not in this shape). */
export function recordedBaseline(state: PipelineState | undefined): RecordedBaseline | undefined {
  const meta = state?.metadata;
  const v = meta && Object.hasOwn(meta, BASELINE_KEY) ? meta[BASELINE_KEY] : undefined;
  if (!isPlainObject(v) || typeof v.commit !== 'string' || !/^[0-9a-f]{7,64}$/.test(v.commit)) return undefined;
  const source: BaselineSource = v.source === 'accepted' || v.source === 'reconciled' ? v.source : 'synced';
  return {
    commit: v.commit,
    recorded_at: typeof v.recorded_at === 'string' ? v.recorded_at : '',
    source,
    ...(typeof v.by === 'string' ? { by: v.by } : {}),
    ...(typeof v.reason === 'string' ? { reason: v.reason } : {}),
  };
}

/** The state with `baseline` recorded in its metadata (everything else kept as it is). */
export function withBaseline(state: PipelineState, baseline: RecordedBaseline): PipelineState {
  return { ...state, metadata: { ...state.metadata, [BASELINE_KEY]: { ...baseline } } };
}

/**
 * The commit the spec's code is at: HEAD of the feature worktree when it has one (the code was
 * written there), else of the repository. Undefined outside git or before the first commit.
 */
export async function codeCommitOf(snapshot: Pick<SpecSnapshot, 'repoRoot' | 'name' | 'state'>, signal?: AbortSignal): Promise<string | undefined> {
  try {
    return await revParse(findWorktree(snapshot) ?? snapshot.repoRoot, 'HEAD', signal);
  } catch {
    // No git at all: the move to synced is still made, with no baseline to record.
    return undefined;
  }
}

/**
 * HEAD of the repository: what drift reads at (scanDrift logs from it), so what a baseline moved
 * by a person or a reconcile is set to. Undefined outside git or before the first commit.
 */
export async function headCommitOf(repoRoot: string, signal?: AbortSignal): Promise<string | undefined> {
  try {
    return await revParse(repoRoot, 'HEAD', signal);
  } catch {
    return undefined;
  }
}
