import { fromPromise } from 'xstate';
import { NodeTestRunner, type TestRunner } from '../executing/evidence/testRunner';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { stageWithRole } from '../pipeline/stageRoles';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { findWorktree } from '../specdir/worktree';
import { verificationCommands } from '../verification/projectCommands';
import { runVerificationCommands, type CommandResult } from '../verification/verificationRun';

export const REVIEW_TESTS_JOB = 'reviewTestsJob';

export interface ReviewTestsInput {
  facts: SpecSnapshot;
  definition: PipelineDefinition;
  testCommand?: string;
  runner?: TestRunner;
  signal?: AbortSignal;
}

/** The time limit of the test run when the stage names none (loom's default timeout_minutes). */
const DEFAULT_TIMEOUT_MINUTES = 30;

/**
 * The project's tests re-run once the review's fixes are in ("修复后必须重新运行测试"), by the
 * verification runner: in the feature worktree (else the repository), the full log kept under
 * `evidence/` with its sha256, for review-response.md to cite. Undefined when the project has no
 * test command. The actor stopping, or the intent's signal, kills the running command.
 */
export const reviewTestsJob = fromPromise<{ tests?: CommandResult }, ReviewTestsInput>(async ({ input, signal }) => {
  const { facts, definition } = input;
  const worktree = findWorktree(facts);
  const cwd = worktree ?? facts.repoRoot;
  const { test } = verificationCommands(cwd, facts.repoRoot, input.testCommand);
  const run = await runVerificationCommands({
    specDir: facts.dir,
    cwd,
    where: worktree ? 'worktree' : 'repository',
    commands: { checks: [], ...(test ? { test } : {}) },
    runner: input.runner ?? new NodeTestRunner(),
    timeoutMinutes: stageWithRole(definition, 'reviewResponse')?.timeoutMinutes ?? stageWithRole(definition, 'verification')?.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES,
    // The actor stopping the job, or Stop from the person.
    signal: input.signal ? AbortSignal.any([signal, input.signal]) : signal,
    now: () => new Date().toISOString(),
  });
  return run.test ? { tests: run.test } : {};
});
