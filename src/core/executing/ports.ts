import type { ChatModel } from './dispatch/chatModel';
import type { BreakerChoice, CircuitBreakerReport } from './machine/circuitBreaker';
import type { ModelTier, SubagentRole } from './dispatch/modelTier';

/** The small ports the executing loop needs from its host, besides ChatModel. */

export interface Clock {
  now(): Date;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** One error diagnostic of a file, as VS Code's Problems panel shows it. */
export interface Problem {
  /** 1-based line. */
  line: number;
  message: string;
  /** The language service that reported it (`ts`, `eslint`). */
  source?: string;
  code?: string;
}

/**
 * The Problems panel, for "done means done": the error diagnostics of files, once the language
 * services had time to settle on them. The host implements it with VS Code's diagnostics; the
 * CLI and the unit tests have no language services (noProblems).
 */
export interface ProblemsPort {
  /** Absolute path → its errors; files without errors may be left out. Never throws. */
  errors(files: readonly string[], signal: AbortSignal): Promise<Map<string, Problem[]>>;
}

export const noProblems: ProblemsPort = { errors: async () => new Map() };

/** Maps a role and tier to a model (settings: vendor, family). Throws ModelUnavailableError when none fits. */
export interface ModelSelector {
  select(role: SubagentRole, tier: ModelTier, signal: AbortSignal): Promise<ChatModel>;
  /**
   * Why no model can be used for every tier, or undefined when each has one; asks nothing of a
   * model (no consent dialog). A run is checked with it before the person is asked to send anything.
   */
  check?(signal: AbortSignal): Promise<string | undefined>;
}

/** The questions only the user can answer. Nothing continues while one is open. */
export interface UserPrompts {
  /** NEEDS_CONTEXT: the implementer's question; undefined when the user dismissed it. */
  askForContext(task: string, question: string, signal: AbortSignal): Promise<string | undefined>;
  /** The circuit breaker is open: [A] split and re-plan, [B] fix by hand, [C] skip (when offered). */
  chooseBreakerAction(report: CircuitBreakerReport, signal: AbortSignal): Promise<BreakerChoice>;
  /** Choice C: the tasks that depend on the skipped one, for the user to confirm the impact. */
  confirmSkip(task: string, dependents: readonly string[], signal: AbortSignal): Promise<boolean>;
  /** Choice B: resolves when the user says the manual fix is done. */
  waitForManualFix(task: string, signal: AbortSignal): Promise<void>;
}
