import type { TaskFile } from '../../files/taskFile';
import type { ChatMessage } from '../dispatch/chatModel';
import type { DiffProvider, WorktreeDiff } from '../evidence/diffProvider';
import type { DispatchRequest, DispatchResult, Dispatcher } from '../dispatch/dispatcher';
import type { ExecutingEvent } from '../events';
import type { ExecutingInputs } from '../dispatch/executingInputs';
import type { ExecutionMode } from '../executionMode';
import type { InFlightWork } from './inFlightWork';
import type { Logger, ModelSelector, ProblemsPort } from '../ports';
import type { SpecStateStore } from '../specStateStore';
import type { RunRecorder } from './runMetadata';
import type { TestRunner } from '../evidence/testRunner';
import type { TokenLedger } from '../transcripts/tokenLedger';
import { ownsAllows } from '../tools/worktreeBoundary';

/**
 * What every step of one run shares: read once at the start, passed down, never global. Each
 * invoked actor gets its own copy with its own `signal` (withSignal), so stopping the actor
 * cancels exactly its request or child process.
 */
export interface LoopEnvironment {
  /** The run's own files (task states, their handoffs, the test report); the spec's state is read here, never written. */
  store: SpecStateStore;
  /** What the run keeps in the spec's state (its metadata), written by the spec's actor (RunRecorder). */
  record: RunRecorder;
  /** Repository-relative spec directory. */
  specDir: string;
  /** Where the steps work: the feature worktree, or the worktree of its own a task of a parallel batch has (taskWorkspace.ts). */
  worktree: string;
  /** The feature worktree, whose branch takes the tasks' checkpoints. */
  featureWorktree: string;
  /**
   * Each done task is one commit on the feature branch: the feature worktree is a worktree of its
   * own (git's linked worktree), never the main checkout, which Loom does not commit in.
   */
  checkpoints: boolean;
  /** Tasks of a parallel batch run in worktrees of their own (checkpoints, and a git that merges trees); found when the run starts. */
  taskWorktrees: boolean;
  /** The Problems panel's errors (noProblems outside VS Code). */
  problems: ProblemsPort;
  /** A diff provider for another worktree of the feature (a task's own). */
  diffFor(worktree: string): DiffProvider;
  inputs: ExecutingInputs;
  tasks: ReadonlyMap<string, TaskFile>;
  maxRetries: number;
  timeoutMinutes: number;
  mode: ExecutionMode;
  dispatcher: Dispatcher;
  models: ModelSelector;
  diff: DiffProvider;
  testRunner: TestRunner;
  testCommand?: string;
  trusted: boolean;
  testTimeoutMs: number;
  /** Worktree-relative paths the model may never write (the spec directory, `.loom/`). */
  protectedPaths: string[];
  /** The single implementer conversation of direct mode. */
  direct: { messages: ChatMessage[]; tokens: number };
  ledger: TokenLedger;
  tokenBudget?: number;
  signal: AbortSignal;
  /** The invoked actors' work still running, for the lease holder to wait on. */
  work: InFlightWork;
  logger: Logger;
  now(): string;
  emit(event: ExecutingEvent): void;
  persistTokens(): void;
}

/** Dispatches and records the tokens it used, whatever the outcome. */
export async function dispatchCounted(env: LoopEnvironment, req: Omit<DispatchRequest, 'spec' | 'timeoutMinutes' | 'signal'>): Promise<DispatchResult> {
  try {
    return await env.dispatcher.dispatch({ ...req, spec: env.specDir, timeoutMinutes: env.timeoutMinutes, signal: env.signal });
  } finally {
    env.persistTokens();
    env.emit({ type: 'tokens', used: env.ledger.used(), budget: env.tokenBudget });
  }
}

const isProtected = (env: LoopEnvironment, path: string) => env.protectedPaths.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p));

/**
 * The diff a task is judged by: never Loom's own files (the spec directory, `.loom/`). In a
 * parallel batch the worktree also holds the other tasks' work, so only files inside the task's
 * owns count; serially, everything since the task began.
 */
export function taskDiff(env: LoopEnvironment, diff: WorktreeDiff, owns: readonly string[] | undefined): WorktreeDiff {
  const keep = (p: string) => !isProtected(env, p) && (!owns || ownsAllows(owns, p));
  const chunks = diff.text.split(/(?=^diff --git )/m).filter((chunk) => {
    const m = /^diff --git a\/(.*?) b\//.exec(chunk);
    return !m || keep(m[1]);
  });
  return { text: chunks.join(''), files: diff.files.filter((f) => keep(f.path)) };
}

export function changedFiles(diff: WorktreeDiff): string[] {
  return diff.files.filter((f) => f.change !== 'deleted').map((f) => f.path);
}

export async function diffOf(env: LoopEnvironment, base: string, owns?: readonly string[]): Promise<WorktreeDiff> {
  return taskDiff(env, await env.diff.diffSince(base, env.signal), owns);
}

export function withSignal(env: LoopEnvironment, signal: AbortSignal): LoopEnvironment {
  return { ...env, signal };
}
