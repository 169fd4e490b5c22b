// The core's typed errors, which the surfaces map to their own messages.
export { CorruptArtifactError, CorruptStateError, LoomError, OverrideRefusedError, SpecLockedError, TransitionRefusedError } from '../errors';
export { WorktreeError } from '../git/worktreeError';
