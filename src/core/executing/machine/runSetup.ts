import { COPILOT_PRICES, withOverrides } from '../../credits/pricing';
import { readdirSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { loadSpec } from '../../specdir/loadSpec';
import { planTaskBatches, type TaskBatch } from '../../tasks/taskBatches';
import { GitDiffProvider } from '../evidence/diffProvider';
import { Dispatcher } from '../dispatch/dispatcher';
import type { ExecutingEventListener } from '../events';
import { readExecutingInputs } from '../dispatch/executingInputs';
import { chooseExecutionMode, type ExecutionModeChoice } from '../executionMode';
import type { LoopEnvironment } from './loopEnvironment';
import { noProblems, silentLogger, systemClock } from '../ports';
import { isLinkedWorktree } from '../../git/linkedWorktree';
import { BORROWED_FOLDERS } from '../../git/taskWorktrees';
import { SpecStateStore } from '../specStateStore';
import { detectTestCommand, NodeTestRunner } from '../evidence/testRunner';
import { TokenLedger, TOKEN_USAGE_KEY } from '../transcripts/tokenLedger';
import { InFlightWork } from './inFlightWork';
import type { ExecutingRunInput, RunReady } from './runTypes';

/**
 * Everything a run reads once at its start (the spec's actor checked the preconditions first),
 * the mode after loom's triggers, the batches, and the environment every step shares. Nothing
 * is written here; the machine records the mode when it starts running.
 */
export interface RunSetup {
  env: LoopEnvironment;
  choice: ExecutionModeChoice;
  batches: TaskBatch[];
  /** Tasks of a parallel batch go out at once (subagent mode with the setting on). */
  parallel: boolean;
  tokenBudget?: number;
}

const DEFAULT_MAX_TOOL_ROUNDS = 40;

export function prepareRun(input: ExecutingRunInput & RunReady, work: InFlightWork = new InFlightWork()): RunSetup {
  const clock = input.clock ?? systemClock;
  const logger = input.logger ?? silentLogger;
  const now = () => clock.now().toISOString();
  // The spec's actor checked the preconditions before it started the run (its guard tasksCanRun).
  const { stage, worktree, record } = input.ready;
  const snapshot = loadSpec(input.repoRoot, input.specDir);
  const settings = input.settings;
  const store = new SpecStateStore(snapshot.repoRoot, snapshot.dir, now);
  const inputs = readExecutingInputs(snapshot, { language: settings.language });
  const choice = chooseExecutionMode({
    tasks: inputs.tasks,
    requirements: inputs.requirements,
    specMetadata: snapshot.state?.metadata,
    setting: settings.mode,
    filesUnder: (folder) => listFiles(worktree, folder),
  });
  const ledger = new TokenLedger(snapshot.state?.metadata?.[TOKEN_USAGE_KEY]);
  ledger.usePrices(withOverrides(COPILOT_PRICES, settings.creditPrices));
  const emit: ExecutingEventListener = (e) => {
    try {
      input.onEvent?.(e);
    } catch (err) {
      logger.warn(`an event listener failed: ${(err as Error).message}`);
    }
  };
  const env: LoopEnvironment = {
    store,
    specDir: snapshot.specDir,
    worktree,
    inputs,
    tasks: new Map(inputs.tasks.map((t) => [t.id, t])),
    maxRetries: stage.maxRetries,
    timeoutMinutes: stage.timeoutMinutes,
    mode: choice.mode,
    dispatcher: new Dispatcher({
      stage: stage.id,
      transcripts: input.transcripts,
      ledger,
      tokenBudget: settings.tokenBudget,
      creditBudget: settings.creditBudget,
      clock,
      logger,
      maxToolRounds: settings.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS,
      onToolCall: (task, role, call) => emit({ type: 'tool-call', task, role, tool: call.name }),
      onEstimate: (task, role, estimate) => emit({ type: 'estimate', task, role, estimate }),
      onNearLimit: (used, budget) => emit({ type: 'credits-near-limit', used, budget }),
    }),
    models: input.models,
    featureWorktree: worktree,
    checkpoints: isLinkedWorktree(worktree),
    taskWorktrees: false,
    problems: input.problems ?? noProblems,
    diffFor: (other) => (other === worktree && input.diff ? input.diff : new GitDiffProvider(other, { exclude: BORROWED_FOLDERS })),
    diff: input.diff ?? new GitDiffProvider(worktree),
    testRunner: input.testRunner ?? new NodeTestRunner(),
    testCommand: settings.testCommand ?? detectTestCommand(worktree),
    trusted: settings.trusted,
    testTimeoutMs: Math.round((settings.testTimeoutMinutes ?? stage.timeoutMinutes) * 60_000),
    protectedPaths: protectedPaths(worktree, snapshot.dir, snapshot.specDir),
    direct: { messages: [], tokens: 0 },
    ledger,
    tokenBudget: settings.tokenBudget,
    // Each invoked actor replaces it with its own (withSignal); this one is never aborted.
    signal: new AbortController().signal,
    work,
    logger,
    now,
    emit,
    record,
    persistTokens: () => record({ token_usage: ledger.toJSON(now()) }),
  };
  const batches: TaskBatch[] = choice.mode === 'direct' ? [{ type: 'serial', tasks: inputs.tasks.map((t) => t.id) }] : planTaskBatches(inputs.tasks).batches;
  return { env, choice, batches, parallel: choice.mode === 'subagent' && settings.parallel === true, tokenBudget: settings.tokenBudget };
}

/** The spec directory and `.loom/` as seen from the worktree: only Loom writes there. */
function protectedPaths(worktree: string, specDirAbs: string, specDirRel: string): string[] {
  const out = new Set<string>([`${specDirRel}/`, '.loom/']);
  const inside = relative(worktree, specDirAbs);
  if (inside && !inside.startsWith('..') && !isAbsolute(inside)) out.add(`${inside.split(sep).join('/')}/`);
  return [...out];
}

/** Files under a folder of the worktree (repository-relative), for counting owned source files. */
function listFiles(worktree: string, folder: string, limit = 200): string[] | undefined {
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries;
    try {
      entries = readdirSync(join(worktree, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= limit || e.name === '.git' || e.name === 'node_modules') continue;
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(folder);
  return out.length ? out : undefined;
}
