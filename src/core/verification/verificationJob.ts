import { fromPromise } from 'xstate';
import { NodeTestRunner } from '../executing/evidence/testRunner';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { stageWithRole } from '../pipeline/stageRoles';
import type { VerifyInput } from '../port/intent';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { findWorktree } from '../specdir/worktree';
import { verificationCommands } from './projectCommands';
import { runVerificationCommands, type VerificationRun } from './verificationRun';

/** What the verification job is given: the spec's facts when it was asked, and the intent's input. */
export interface VerificationJobInput {
  facts: SpecSnapshot;
  definition: PipelineDefinition;
  verify: VerifyInput;
}

/** What the job gives back: what ran, and who asked (named in the report). */
export interface VerificationJobOutput {
  run: VerificationRun;
  writer: string;
}

/** The time limit of one command when the verification stage names none (loom's default timeout_minutes). */
const DEFAULT_TIMEOUT_MINUTES = 30;

/**
 * The spec actor's verification job: in the feature worktree when the spec has one, else the
 * repository, the project's build and type checks, then its tests, each logged under `evidence/`.
 * Its signal (the actor stopping) and the intent's (Stop) both kill the running command.
 */
export const verificationJob = fromPromise<VerificationJobOutput, VerificationJobInput>(async ({ input, signal }) => {
  const { facts, definition, verify } = input;
  const both = verify.signal ? AbortSignal.any([signal, verify.signal]) : signal;
  const worktree = findWorktree(facts);
  const cwd = worktree ?? facts.repoRoot;
  const run = await runVerificationCommands({
    specDir: facts.dir,
    cwd,
    where: worktree ? 'worktree' : 'repository',
    commands: verificationCommands(cwd, facts.repoRoot, verify.testCommand),
    runner: verify.runner ?? new NodeTestRunner(),
    timeoutMinutes: stageWithRole(definition, 'verification')?.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES,
    signal: both,
    now: () => new Date().toISOString(),
  });
  return { run, writer: verify.writer };
});
