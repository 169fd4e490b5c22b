import { LoomError } from '../errors';

export type WorktreeErrorReason = 'no-repository' | 'no-commit' | 'dirty' | 'checked-out-elsewhere' | 'path-taken' | 'git-failed';

/** The git-worktree stage could not make or find the feature worktree; the message says why and what to do. */
export class WorktreeError extends LoomError {
  constructor(
    message: string,
    readonly reason: WorktreeErrorReason,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}
