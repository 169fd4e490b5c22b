import type { Diagnostic } from '../../diagnostics/diagnostic';
import { LoomError } from '../../errors';
import type { PipelineDefinition, StageDefinition } from '../../pipeline/pipelineDefinition';
import type { CircuitBreakerReport } from './circuitBreaker';
import type { RunRecorder } from './runMetadata';
import type { DiffProvider } from '../evidence/diffProvider';
import type { ExecutingEventListener } from '../events';
import type { ExecutionMode, ExecutionModeSetting, ModeTrigger } from '../executionMode';
import type { Clock, Logger, ModelSelector, ProblemsPort } from '../ports';
import type { PromptLanguage } from '../dispatch/prompts/promptTemplates';
import type { TestRunner } from '../evidence/testRunner';
import type { TranscriptStore } from '../transcripts/transcriptStore';

/** What one run of the executing stage is given, and what it ends with. */
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
  /** `loom.budget.credits`: AI credits the spec may spend; a request that would pass it is not made. */
  creditBudget?: number;
  /** `loom.credits.prices`: the person's prices over Loom's table. */
  creditPrices?: unknown;
  /** Rounds of tool calls one dispatch may make. */
  maxToolRounds?: number;
  /** Time limit of one test command run; the stage's timeout_minutes when unset. */
  testTimeoutMinutes?: number;
  /** Prompt language; the spec's own when unset. */
  language?: PromptLanguage;
}

/** The input of executingMachine. The questions for the user arrive as events, not through a port. */
export interface ExecutingRunInput {
  repoRoot: string;
  /** Absolute spec directory. */
  specDir: string;
  definition: PipelineDefinition;
  /** The feature worktree; found from the state's metadata or `.git/worktrees` when unset. */
  worktree?: string;
  models: ModelSelector;
  transcripts: TranscriptStore;
  diff?: DiffProvider;
  testRunner?: TestRunner;
  /** The Problems panel's errors, for "done means done"; none outside VS Code. */
  problems?: ProblemsPort;
  clock?: Clock;
  logger?: Logger;
  onEvent?: ExecutingEventListener;
  settings: ExecutingSettings;
}

/**
 * What the spec's actor hands its run once its guard (tasksCanRun) let it start: the stage and the
 * worktree it found, and how the run's metadata is written into the spec's state (by the actor).
 */
export interface RunReady {
  ready: { stage: StageDefinition; worktree: string; record: RunRecorder };
}

export type ExecutingOutcome = 'completed' | 'blocked' | 'needs-context' | 'replan' | 'cancelled' | 'budget-exceeded' | 'model-unavailable';

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
  /** What clears the stop: a task that failed unexpectedly resumes from its step when the tasks run again. */
  resumeWith?: 'run-tasks';
  testReport?: { verdict: 'PASS' | 'FAIL'; file: string; evidenceFile?: string };
  tokens: { used: number; budget?: number };
  /** The spec's AI credits so far (issue 49), and the models whose requests had no price. */
  /** `unpricedTokens`: the tokens of the models without a price (not in `used`); absent in results from before. */
  credits?: { used: number; unpriced: string[]; unpricedTokens?: number };
}

/** Why a run ends early, before the mode, the task lists and the tokens are added. */
export type RunStop = Omit<ExecutingResult, 'mode' | 'triggers' | 'finished' | 'skipped' | 'tokens' | 'credits'>;

/** The run refused to start; the diagnostics say why, in the files concerned. */
export class ExecutingRefusedError extends LoomError {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(
      `executing cannot start: ${diagnostics
        .filter((d) => d.severity === 'error')
        .map((d) => d.message)
        .join('; ')}`,
    );
  }
}
