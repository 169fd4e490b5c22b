import { failureExcerpt, writeTestLog } from '../executing/evidence/testEvidence';
import type { TestRunner } from '../executing/evidence/testRunner';
import type { VerificationCommands } from './projectCommands';

/** One command verification ran, with the log it keeps under `evidence/` and that log's sha256. */
export interface CommandResult {
  command: string;
  /** null when it was killed at the time limit. */
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** Spec-relative, `evidence/verify-tests-<time>.log`. */
  log: string;
  sha256: string;
  /** The end of the output, where runners print their failures (for a fix item); empty when it passed. */
  excerpt: string;
}

/** What verification ran, and where. */
export interface VerificationRun {
  /** The feature worktree, else the repository. */
  cwd: string;
  where: 'worktree' | 'repository';
  checks: CommandResult[];
  /** The tests re-run; undefined when the project has no test command. */
  test?: CommandResult;
  timeoutMinutes: number;
}

export interface VerificationRunInput {
  /** Absolute spec directory: the logs go under its `evidence/`. */
  specDir: string;
  cwd: string;
  where: VerificationRun['where'];
  commands: VerificationCommands;
  runner: TestRunner;
  /** Each command's time limit: the verification stage's `timeout_minutes`. */
  timeoutMinutes: number;
  signal: AbortSignal;
  now: () => string;
}

/**
 * Runs the project's build and type checks, then its tests, each to the end (a broken build does
 * not hide what the tests say), and keeps each full output as a log under `evidence/` with its
 * sha256, as loom's skill keeps its evidence. A stop (the signal) kills the running command and
 * rejects: no log is written for a run that did not finish, and no report is written at all.
 */
export async function runVerificationCommands(input: VerificationRunInput): Promise<VerificationRun> {
  const timeoutMs = input.timeoutMinutes * 60_000;
  const runOne = async (command: string, name: string): Promise<CommandResult> => {
    const run = await input.runner.run(command, input.cwd, { signal: input.signal, timeoutMs });
    if (input.signal.aborted) throw input.signal.reason;
    const log = writeTestLog(input.specDir, name, run, input.now());
    return {
      command,
      exitCode: run.timedOut ? null : run.exitCode,
      timedOut: run.timedOut,
      durationMs: run.durationMs,
      log: log.file,
      sha256: log.sha256,
      excerpt: run.exitCode === 0 && !run.timedOut ? '' : failureExcerpt(run, 1500),
    };
  };
  const checks: CommandResult[] = [];
  for (const [i, command] of input.commands.checks.entries()) checks.push(await runOne(command, `verify-check-${i + 1}`));
  const test = input.commands.test ? await runOne(input.commands.test, 'verify-tests') : undefined;
  return { cwd: input.cwd, where: input.where, checks, ...(test ? { test } : {}), timeoutMinutes: input.timeoutMinutes };
}
