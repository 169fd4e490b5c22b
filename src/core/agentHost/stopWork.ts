import { join } from 'node:path';
import { detectTestCommand, type TestRunner } from '../executing/evidence/testRunner';
import { writeFileAtomic } from '../fs/atomicWrite';
import { readOptionalText } from '../fs/readOptional';
import { t } from '../messages';
import { readWorkspaceString } from '../pipeline/teamRules';
import { hasRole } from '../pipeline/stageRoles';
import type { LoomRepository } from '../repository/loomRepository';
import type { SpecPipeline } from '../repository/specPipeline';
import { findWorktree } from '../specdir/worktree';
import { hexDigest } from '../nodeModules';
import { userCacheFolder } from '../userCacheFolder';
import { errorKeys, newErrors } from './sessionErrors';
import { stopVerdict, type StopVerdict } from './stopCheck';

/** The setting Run Tasks and `verify` read for the test command; the project's own test script otherwise. */
const TEST_COMMAND_SETTING = 'loom.executing.testCommand';
/** Below the hook's own time limit (plugin hooks.json), so Loom answers before the agent gives up on it. */
export const STOP_TESTS_TIMEOUT_MS = 240_000;
/** The tail of a failing run the agent is shown: where a test runner prints its failures and summary. */
const OUTPUT_LINES = 30;
const OUTPUT_CHARS = 4000;

export interface StopWorkOptions {
  /** The hook kept this agent working once already (`stop_hook_active`): say the reasons, run nothing, let it stop. */
  alreadyKept: boolean;
  runner: TestRunner;
  /** The agent's session (the hook input's `session_id`): its errors at SessionStart are the ones that do not count. */
  sessionId?: string;
  signal?: AbortSignal;
}

/** Specs whose task stage has begun (a task out of `pending`): their tests say whether the work is done. */
function taskWorkBegun(spec: SpecPipeline): boolean {
  if (!hasRole(spec.definition, spec.stage, 'tasks')) return false;
  const { taskStates, tasks } = spec.snapshot;
  return [...tasks.keys()].some((id) => (taskStates.get(id)?.status ?? 'pending') !== 'pending');
}

function tail(output: string): string {
  const lines = output.trimEnd().split('\n');
  const text = lines.slice(-OUTPUT_LINES).join('\n');
  return text.length > OUTPUT_CHARS ? `…${text.slice(-OUTPUT_CHARS)}` : text;
}

/**
 * What the plugin's Stop and SubagentStop hooks decide, as Run Tasks decides a task is done: loom's
 * records (stopCheck.ts), then the project's tests in the feature's worktree for every spec whose
 * task stage has begun (the same command Run Tasks and `verify` run), then no error in the specs'
 * files that was not there when the session started. A failing test or a new error keeps the agent
 * working with the failure in the reason; a run that timed out is said but does not hold the agent,
 * since Loom cannot tell it from a slow machine.
 */
export async function stopWork(repo: LoomRepository, options: StopWorkOptions): Promise<StopVerdict & { notes: string[] }> {
  const records = stopVerdict(repo, options.alreadyKept);
  const notes: string[] = [];
  if (options.alreadyKept) return { ...records, notes };
  const reasons = [...records.reasons];
  const runs = new Map<string, { specDirs: string[]; command: string; cwd: string }>();
  for (const spec of repo.scan((s) => s).filter(taskWorkBegun)) {
    const { snapshot } = spec;
    const cwd = findWorktree(snapshot) ?? snapshot.repoRoot;
    const command = readWorkspaceString(snapshot.repoRoot, TEST_COMMAND_SETTING) ?? detectTestCommand(cwd);
    if (!command) continue;
    const key = `${cwd}\0${command}`;
    const run = runs.get(key) ?? { specDirs: [], command, cwd };
    run.specDirs.push(snapshot.specDir);
    runs.set(key, run);
  }
  const signal = options.signal ?? new AbortController().signal;
  for (const { specDirs, command, cwd } of runs.values()) {
    const specDir = specDirs.join(', ');
    try {
      const run = await options.runner.run(command, cwd, { signal, timeoutMs: STOP_TESTS_TIMEOUT_MS });
      if (run.timedOut) notes.push(t('agentHost.stop.testsTimedOut', { specDir, command, seconds: Math.round(STOP_TESTS_TIMEOUT_MS / 1000) }));
      else if (run.exitCode !== 0) reasons.push(t('agentHost.stop.testsFail', { specDir, command, cwd, code: String(run.exitCode), output: tail(run.output) }));
    } catch (e) {
      notes.push(t('agentHost.stop.testsNotRun', { specDir, command, detail: e instanceof Error ? e.message : String(e) }));
    }
  }
  const before = options.sessionId ? sessionErrorsAtStart(repo.root, options.sessionId) : undefined;
  if (before) {
    const fresh = newErrors(before, repo);
    if (fresh.length > 0) reasons.push(t('agentHost.stop.newErrors', { errors: fresh.join('\n') }));
  }
  return { keepWorking: reasons.length > 0, reasons, notes };
}

/** The file `SessionStart` keeps a session's errors in, under the user's cache folder (never the repository); none when caches are off. */
function sessionErrorsFile(repoRoot: string, sessionId: string): string | undefined {
  const folder = userCacheFolder();
  return folder ? join(folder, 'stop-hook', `${hexDigest('sha256', `${repoRoot}\0${sessionId}`).slice(0, 24)}.json`) : undefined;
}

/**
 * The plugin's SessionStart hook: the errors already in the specs' files when the agent begins,
 * so that its Stop hook holds the agent only for the errors it made. A second start of the same
 * session (VS Code resumes one) keeps the first record.
 */
export function startSession(repo: LoomRepository, sessionId: string): void {
  const file = sessionErrorsFile(repo.root, sessionId);
  if (!file || readOptionalText(file) !== undefined) return;
  writeFileAtomic(file, JSON.stringify({ repoRoot: repo.root, sessionId, errors: errorKeys(repo) }));
}

/** The errors SessionStart recorded; undefined when it did not run (or its record cannot be read): then no error counts as new. */
function sessionErrorsAtStart(repoRoot: string, sessionId: string): ReadonlySet<string> | undefined {
  const file = sessionErrorsFile(repoRoot, sessionId);
  const text = file ? readOptionalText(file) : undefined;
  if (text === undefined) return undefined;
  try {
    const errors = (JSON.parse(text) as { errors?: unknown }).errors;
    return Array.isArray(errors) ? new Set(errors.filter((e): e is string => typeof e === 'string')) : undefined;
  } catch {
    // A cache file cut short: the session's start is unknown, so nothing is held against the agent.
    return undefined;
  }
}
