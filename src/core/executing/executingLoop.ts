import { readdirSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { LoomError } from '../errors';
import { normalizeTaskRef, type TaskFile } from '../files/taskFile';
import type { PipelineDefinition, StageDefinition } from '../pipeline/pipelineDefinition';
import { loadSpec } from '../spec/loadSpec';
import type { SpecSnapshot } from '../spec/specSnapshot';
import { planTaskBatches, type TaskBatch } from '../tasks/taskBatches';
import { settleTaskBreaker, markSkipped } from './breakerChoice';
import { isPermanentModelError, ModelUnavailableError } from './chatModel';
import type { CircuitBreakerReport } from './circuitBreaker';
import { GitDiffProvider, type DiffProvider } from './diffProvider';
import { Dispatcher } from './dispatch';
import type { ExecutingEventListener } from './events';
import { buildExecutingHandoff } from './executingHandoff';
import { readExecutingInputs } from './executingInputs';
import { chooseExecutionMode, describeExecutionMode, type ExecutionMode, type ExecutionModeSetting, type ModeTrigger } from './executionMode';
import type { LoopEnvironment } from './loopEnvironment';
import { silentLogger, systemClock, type Clock, type Logger, type ModelSelector, type UserPrompts } from './ports';
import { checkExecutingPreconditions } from './preconditions';
import type { PromptLanguage } from './prompts/promptTemplates';
import { acquireSpecLease } from './runLease';
import { SpecStateStore } from './specStateStore';
import { writeHandoff } from './taskHandoff';
import { TaskRun, type TaskOutcome } from './taskRun';
import { readTaskRunRecord } from './taskRunRecord';
import { readTestReporterRecord, TEST_REPORTER, TestReporterRun, writeTestReporterRecord, type TestReporterOutcome } from './testReporterRun';
import { detectTestCommand, NodeTestRunner, type TestRunner } from './testRunner';
import { TokenBudgetExceededError, TokenLedger, TOKEN_USAGE_KEY } from './tokenLedger';
import type { TranscriptStore } from './transcriptStore';

/**
 * The executing stage, driven by the deterministic core: it checks the preconditions, chooses
 * subagent or direct mode after loom's triggers, runs the tasks batch by batch (serially unless
 * parallel dispatch is allowed), handles NEEDS_CONTEXT, BLOCKED and the circuit breaker through
 * the user, then the test reporter and `handoffs/executing.json`. Models only answer; the core
 * parses, validates and writes every state file. A run resumes from the task states on disk.
 */
export interface ExecutingSettings {
  /** VS Code's workspace trust: commands (the test command) run only when true. */
  trusted: boolean;
  /** The project's test command; detected from the worktree when not set. */
  testCommand?: string;
  /** Dispatch the tasks of a parallel batch at once (subagent mode only). Serial by default. */
  parallel?: boolean;
  /** `loom.executing.mode`: `auto` (loom's triggers, the default), or subagent / direct whatever the triggers say. */
  mode?: ExecutionModeSetting;
  /** Per-spec token budget (input + output); dispatch stops when it is used up. */
  tokenBudget?: number;
  /** Rounds of tool calls one dispatch may make. */
  maxToolRounds?: number;
  /** Time limit of one test command run; the stage's timeout_minutes when unset. */
  testTimeoutMinutes?: number;
  /** Prompt language; the spec's own when unset. */
  language?: PromptLanguage;
}

export interface ExecutingLoopOptions {
  repoRoot: string;
  /** Absolute spec directory. */
  specDir: string;
  definition: PipelineDefinition;
  /** The feature worktree; found from the state's metadata or `.git/worktrees` when unset. */
  worktree?: string;
  models: ModelSelector;
  prompts: UserPrompts;
  transcripts: TranscriptStore;
  diff?: DiffProvider;
  testRunner?: TestRunner;
  clock?: Clock;
  logger?: Logger;
  onEvent?: ExecutingEventListener;
  settings: ExecutingSettings;
}

export type ExecutingOutcome =
  | 'completed'
  | 'blocked'
  | 'needs-context'
  | 'replan'
  | 'cancelled'
  | 'budget-exceeded'
  | 'model-unavailable';

export interface ExecutingResult {
  outcome: ExecutingOutcome;
  /** One sentence for the user. */
  message: string;
  mode: ExecutionMode;
  triggers: ModeTrigger[];
  finished: string[];
  skipped: string[];
  /** The task (or `test-reporter`) the run stopped at. */
  stoppedAt?: string;
  breaker?: CircuitBreakerReport;
  testReport?: { verdict: 'PASS' | 'FAIL'; file: string; evidenceFile?: string };
  tokens: { used: number; budget?: number };
}

/** The loop refused to start; the diagnostics say why, in the files concerned. */
export class ExecutingRefusedError extends LoomError {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(`executing cannot start: ${diagnostics.filter((d) => d.severity === 'error').map((d) => d.message).join('; ')}`);
  }
}

const DEFAULT_MAX_TOOL_ROUNDS = 40;

type Stop = Omit<ExecutingResult, 'mode' | 'triggers' | 'finished' | 'skipped' | 'tokens'>;

export class ExecutingLoop {
  private readonly clock: Clock;
  private readonly logger: Logger;

  constructor(private readonly options: ExecutingLoopOptions) {
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
  }

  /** The preconditions alone, for the host to show before offering to start. */
  check(): { ok: boolean; diagnostics: Diagnostic[] } {
    const snapshot = loadSpec(this.options.repoRoot, this.options.specDir);
    const pre = checkExecutingPreconditions(snapshot, this.options.definition, this.options.worktree);
    return { ok: pre.ok, diagnostics: pre.diagnostics };
  }

  async run(signal: AbortSignal): Promise<ExecutingResult> {
    const { options } = this;
    const now = () => this.clock.now().toISOString();
    const snapshot = loadSpec(options.repoRoot, options.specDir);
    const pre = checkExecutingPreconditions(snapshot, options.definition, options.worktree);
    if (!pre.ok || !pre.stage || !pre.worktree) throw new ExecutingRefusedError(pre.diagnostics);
    const worktree = pre.worktree;
    const release = acquireSpecLease(snapshot, now());
    try {
      return await this.drive(signal, snapshot, pre.stage, worktree);
    } finally {
      release();
    }
  }

  private async drive(signal: AbortSignal, snapshot: SpecSnapshot, stage: StageDefinition, worktree: string): Promise<ExecutingResult> {
    const { options } = this;
    const now = () => this.clock.now().toISOString();
    const store = new SpecStateStore(snapshot.repoRoot, snapshot.dir, now);
    const inputs = readExecutingInputs(snapshot, { language: options.settings.language });
    const tasks = new Map(inputs.tasks.map((t) => [t.id, t]));
    const choice = chooseExecutionMode({
      tasks: inputs.tasks,
      requirements: inputs.requirements,
      specMetadata: snapshot.state?.metadata,
      setting: options.settings.mode,
      filesUnder: (folder) => listFiles(worktree, folder),
    });
    const ledger = new TokenLedger(snapshot.state?.metadata?.[TOKEN_USAGE_KEY]);
    const emit: ExecutingEventListener = (e) => {
      try {
        options.onEvent?.(e);
      } catch (err) {
        this.logger.warn(`an event listener failed: ${(err as Error).message}`);
      }
    };
    const testCommand = options.settings.testCommand ?? detectTestCommand(worktree);
    const timeoutMinutes = stage.timeoutMinutes;
    const env: LoopEnvironment = {
      store,
      specDir: snapshot.specDir,
      worktree,
      inputs,
      tasks,
      maxRetries: stage.maxRetries,
      timeoutMinutes,
      mode: choice.mode,
      dispatcher: new Dispatcher({
        stage: stage.id,
        transcripts: options.transcripts,
        ledger,
        tokenBudget: options.settings.tokenBudget,
        clock: this.clock,
        logger: this.logger,
        maxToolRounds: options.settings.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS,
        onToolCall: (task, role, call) => emit({ type: 'tool-call', task, role, tool: call.name }),
      }),
      models: options.models,
      prompts: options.prompts,
      diff: options.diff ?? new GitDiffProvider(worktree),
      testRunner: options.testRunner ?? new NodeTestRunner(),
      testCommand,
      trusted: options.settings.trusted,
      testTimeoutMs: Math.round((options.settings.testTimeoutMinutes ?? timeoutMinutes) * 60_000),
      protectedPaths: protectedPaths(worktree, snapshot.dir, snapshot.specDir),
      direct: { messages: [], tokens: 0 },
      ledger,
      tokenBudget: options.settings.tokenBudget,
      signal,
      logger: this.logger,
      now,
      emit,
      persistTokens: () => store.updateMetadata({ [TOKEN_USAGE_KEY]: ledger.toJSON(now()) }),
    };

    const result = (stop: Stop): ExecutingResult => {
      const states = store.snapshot().taskStates;
      const finished = inputs.tasks.filter((t) => states.get(t.id)?.status === 'done').map((t) => t.id);
      const skipped = inputs.tasks.filter((t) => readTaskRunRecord(states.get(t.id)).skipped).map((t) => t.id);
      return { ...stop, mode: choice.mode, triggers: choice.triggers, finished, skipped, tokens: { used: ledger.used(), budget: options.settings.tokenBudget } };
    };

    try {
      const description = describeExecutionMode(choice);
      this.logger.info(`${snapshot.specDir}: ${description}`);
      emit({ type: 'mode', mode: choice.mode, triggers: choice.triggers, description });
      store.updateMetadata({ executing_mode: { mode: choice.mode, triggers: choice.triggers, chosen_at: now() } });
      ledger.checkBudget(options.settings.tokenBudget);

      const batches: TaskBatch[] = choice.mode === 'direct' ? [{ type: 'serial', tasks: inputs.tasks.map((t) => t.id) }] : planTaskBatches(inputs.tasks).batches;
      for (const batch of batches) {
        const stop = await this.runBatch(env, batch, choice.mode);
        if (stop) return result(stop);
      }
      const report = await this.runTestReporter(env);
      if ('outcome' in report) return result(report);
      const finished = inputs.tasks.filter((t) => store.taskState(t.id)?.status === 'done').map((t) => t.id);
      const skipped = inputs.tasks.filter((t) => readTaskRunRecord(store.taskState(t.id)).skipped).map((t) => t.id);
      const latest = store.snapshot();
      writeHandoff(latest, 'executing', buildExecutingHandoff({
        finishedTasks: finished,
        skippedTasks: skipped,
        taskHandoffs: latest.handoffs,
        verificationCommand: testCommand,
        testReport: { verdict: 'PASS', file: report.file, evidenceFile: report.evidence.file },
        behaviors: inputs.tasks.filter((t) => finished.includes(t.id)).flatMap((t) => t.behavior_ids),
        traceability: latest.traceability,
        worktree,
        now: now(),
      }));
      return result({
        outcome: 'completed',
        message: `${finished.length} task${finished.length === 1 ? '' : 's'} done${skipped.length ? `, ${skipped.length} skipped` : ''}; test report PASS; handoffs/executing.json written`,
        testReport: { verdict: 'PASS', file: report.file, evidenceFile: report.evidence.file },
      });
    } catch (e) {
      if (signal.aborted) return result({ outcome: 'cancelled', message: 'cancelled; the run resumes from the task states when started again' });
      if (e instanceof TokenBudgetExceededError) return result({ outcome: 'budget-exceeded', message: e.message });
      if (isPermanentModelError(e)) {
        const why = e instanceof ModelUnavailableError ? e.message : `the model refused the request: ${(e as Error).message}`;
        return result({ outcome: 'model-unavailable', message: `${why}; the run resumes from the task states when started again` });
      }
      throw e;
    } finally {
      env.persistTokens();
    }
  }

  /** Runs one batch; returns why the run must stop, if it must. */
  private async runBatch(env: LoopEnvironment, batch: TaskBatch, mode: ExecutionMode): Promise<Stop | undefined> {
    const tasks = batch.tasks.map((id) => env.tasks.get(id)).filter((t): t is TaskFile => t !== undefined);
    const runnable = tasks.filter((t) => !this.skipIfDependencySkipped(env, t));
    const parallel = mode === 'subagent' && batch.type === 'parallel' && this.options.settings.parallel === true && runnable.length > 1;
    if (parallel) {
      // Every task of the batch runs to its own end; their breakers are settled afterwards, in
      // task order, before any later batch starts.
      const settled = await Promise.allSettled(runnable.map((t) => new TaskRun(env, t, true).run()));
      const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failure) throw failure.reason;
      for (let i = 0; i < runnable.length; i++) {
        const stop = await this.settle(env, runnable[i], (settled[i] as PromiseFulfilledResult<TaskOutcome>).value);
        if (stop) return stop;
      }
      return undefined;
    }
    for (const task of runnable) {
      // No task starts while an earlier one has an unfixed blocker: each is settled first.
      const stop = await this.settle(env, task, await new TaskRun(env, task, false).run());
      if (stop) return stop;
    }
    return undefined;
  }

  private skipIfDependencySkipped(env: LoopEnvironment, task: TaskFile): boolean {
    if (readTaskRunRecord(env.store.taskState(task.id)).skipped) return true;
    for (const dep of task.depends_on) {
      const id = normalizeTaskRef(dep);
      if (readTaskRunRecord(env.store.taskState(id)).skipped) {
        markSkipped(env, task.id, id);
        return true;
      }
    }
    return false;
  }

  private async settle(env: LoopEnvironment, task: TaskFile, outcome: TaskOutcome): Promise<Stop | undefined> {
    for (;;) {
      switch (outcome.kind) {
        case 'done':
        case 'skipped':
          return undefined;
        case 'blocked':
          return { outcome: 'blocked', message: `${task.id} is blocked: ${outcome.reason}. Resolve it, then run executing again`, stoppedAt: task.id };
        case 'needs-context':
          return { outcome: 'needs-context', message: `${task.id} needs context: ${outcome.question}`, stoppedAt: task.id };
        case 'breaker': {
          const decision = await settleTaskBreaker(env, task, outcome.report);
          if (decision === 'skipped') return undefined;
          if (decision === 'replan') return { outcome: 'replan', message: `${task.id} waits to be split and re-planned (choice A); edit the plan and its task file, then run executing again`, stoppedAt: task.id, breaker: outcome.report };
          outcome = await new TaskRun(env, task, false).run();
        }
      }
    }
  }

  /** The test reporter, with its own breaker: A ends the run, B waits for the user's fix and reports again. */
  private async runTestReporter(env: LoopEnvironment): Promise<Stop | Extract<TestReporterOutcome, { kind: 'report' }>> {
    const finished = env.inputs.tasks.filter((t) => env.store.taskState(t.id)?.status === 'done');
    const skipped = env.inputs.tasks.filter((t) => readTaskRunRecord(env.store.taskState(t.id)).skipped).map((t) => t.id);
    for (;;) {
      const outcome = await new TestReporterRun(env, finished, skipped).run();
      switch (outcome.kind) {
        case 'report':
          return outcome;
        case 'blocked':
          return { outcome: 'blocked', message: `the test report is blocked: ${outcome.reason}`, stoppedAt: TEST_REPORTER };
        case 'needs-context':
          return { outcome: 'needs-context', message: `the test-report fix needs context: ${outcome.question}`, stoppedAt: TEST_REPORTER };
        case 'breaker': {
          const record = readTestReporterRecord(env);
          let choice = record.breaker?.choice;
          if (!choice) {
            choice = await env.prompts.chooseBreakerAction(outcome.report, env.signal);
            if (!outcome.report.choices.includes(choice)) throw new LoomError(`${choice} is not one of the offered choices (${outcome.report.choices.join(', ')})`);
            record.breaker = { ...(record.breaker ?? { reason: outcome.report.reason, opened_at: env.now(), last_issues: outcome.report.lastIssues }), choice, chosen_at: env.now() };
            writeTestReporterRecord(env, record);
          }
          if (choice !== 'B') return { outcome: 'replan', message: 'the test report failed past max_retries; re-plan (choice A), then run executing again', stoppedAt: TEST_REPORTER, breaker: outcome.report };
          await env.prompts.waitForManualFix(TEST_REPORTER, env.signal);
          writeTestReporterRecord(env, { retry_count: 0, step: 'report', base: record.base, answers: record.answers });
        }
      }
    }
  }
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
