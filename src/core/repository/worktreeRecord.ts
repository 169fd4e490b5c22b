import { loadSpec } from '../specdir/loadSpec';
import { assertStateWritable, writePipelineState } from '../store/stateStore';

/** The metadata key loom's git-worktree stage records the feature worktree under. */
export const WORKTREE_PATH_KEY = 'worktree_path';

/**
 * Records the feature worktree in pipeline.state.json `metadata.worktree_path` (absolute, as
 * loom writes it), keeping every other field; progress.md is regenerated with it. A spec without
 * a state file gets nothing written (the worktree is still found through `.git/worktrees`), and a
 * corrupt one is reported, never overwritten. Returns whether the state file was written.
 */
export function recordWorktreePath(repoRoot: string, specDir: string, worktreePath: string, now: string): boolean {
  const snapshot = loadSpec(repoRoot, specDir);
  assertStateWritable(snapshot);
  const state = snapshot.state;
  if (!state) return false;
  if (Object.hasOwn(state.metadata, WORKTREE_PATH_KEY) && state.metadata[WORKTREE_PATH_KEY] === worktreePath) return false;
  writePipelineState(snapshot, { ...state, metadata: { ...state.metadata, [WORKTREE_PATH_KEY]: worktreePath }, updated_at: now }, now);
  return true;
}
