import type { FeatureWorktree } from '../../git/featureWorktree';
import { stageOnDisk, type PipelineContext, type PipelineEvent } from '../machineTypes';
import type { PipelineDefinition } from '../pipelineDefinition';
import { answerWith, jobNow, type Sender } from './answered';

/** The metadata key loom's git-worktree stage records the feature worktree under. */
export const WORKTREE_PATH_KEY = 'worktree_path';

/**
 * The worktree git made or reused, recorded in `metadata.worktree_path` (absolute, as loom
 * writes it), read afresh under the lock: git took a while, and the state may have moved.
 * A spec without a state file gets nothing written (the worktree is found through git).
 */
export function recordWorktree(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender): void {
  const worktree = (event as unknown as { output: FeatureWorktree }).output;
  answerWith(self, context.worktreeRequest, () => {
    const now = jobNow(context.jobAt?.worktree, 'Create Worktree');
    const state = context.store.updateState(
      context.facts,
      (fresh) => {
        const current = fresh.state;
        if (!current || (Object.hasOwn(current.metadata, WORKTREE_PATH_KEY) && current.metadata[WORKTREE_PATH_KEY] === worktree.path)) return undefined;
        return { ...current, metadata: { ...current.metadata, [WORKTREE_PATH_KEY]: worktree.path }, updated_at: now };
      },
      now,
    );
    const at = state?.current_stage ?? stageOnDisk(def, context.facts);
    return { answer: { kind: 'changed', intent: 'createWorktree', from: at, to: at, ...(state ? { state } : {}), worktree, recorded: state !== undefined }, state };
  });
}
