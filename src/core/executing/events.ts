import type { TaskStatus } from '../files/vocabulary';
import type { CircuitBreakerReport } from './machine/circuitBreaker';
import type { ExecutionMode, ModeTrigger } from './executionMode';
import type { ImplementerStatus } from './dispatch/implementerStatus';
import type { ModelTier, SubagentRole } from './dispatch/modelTier';
import type { StepEstimate } from './transcripts/tokenLedger';

/**
 * What the run reports as it goes, for the host's progress UI, tree and dashboard; the three
 * questions (`breaker-choice`, `manual-fix`, `needs-context`) are answered by sending the
 * executing machine the matching event.
 */
export type ExecutingEvent =
  | { type: 'mode'; mode: ExecutionMode; triggers: ModeTrigger[]; description: string }
  | { type: 'task-started'; task: string; resumedAt?: 'implement' | 'review' | 'close' | 'merge' }
  | { type: 'task-status'; task: string; status: TaskStatus; retryCount: number }
  | { type: 'role-started'; task: string; role: SubagentRole; mode: 'first' | 'fix' | 'review' | 'report'; tier: ModelTier; model: string }
  | { type: 'implementer-status'; task: string; status: ImplementerStatus | 'malformed'; detail: string }
  | { type: 'verdict'; task: string; verdict: 'PASS' | 'FAIL' | 'malformed'; fixItems: number }
  | { type: 'prompt-size'; task: string; mode: 'first' | 'fix'; tokens: number }
  | { type: 'tool-call'; task: string; role: SubagentRole; tool: string }
  | { type: 'tokens'; used: number; budget?: number }
  /** What a subagent's dispatch is estimated to cost, before its first request is sent. */
  | { type: 'estimate'; task: string; role: SubagentRole; estimate: StepEstimate }
  /** 80 % of `loom.budget.credits` is used (once per run). */
  | { type: 'credits-near-limit'; used: number; budget: number }
  | { type: 'breaker'; report: CircuitBreakerReport }
  /** The run waits for BREAKER_CHOICE on this task (or `test-reporter`). */
  | { type: 'breaker-choice'; task: string; report: CircuitBreakerReport }
  /** Choice B: the run waits for MANUAL_FIX_DONE. */
  | { type: 'manual-fix'; task: string }
  /** NEEDS_CONTEXT: the run waits for CONTEXT_PROVIDED or CONTEXT_DECLINED. */
  | { type: 'needs-context'; task: string; question: string }
  | { type: 'task-skipped'; task: string; because?: string }
  /** The review passed but the task is not done yet: which condition is unmet goes back to the implementer. */
  | { type: 'done-check'; task: string; check: DoneCheck; detail: string }
  /** A task of a parallel batch works in a worktree of its own. */
  | { type: 'task-worktree'; task: string; path: string; branch: string }
  /** The task's changes are one commit on the feature branch (`merged`: from its own worktree). */
  | { type: 'checkpoint'; task: string; commit: string; files: string[]; merged?: boolean; partial?: boolean }
  /** Task worktrees a crash or a stop left behind, removed before the run goes on. */
  | { type: 'worktrees-cleaned'; tasks: string[] }
  | { type: 'test-report'; verdict: 'PASS' | 'FAIL'; file: string; evidenceFile: string };

/** The conditions of "done" besides the review's PASS (taskMachine.ts closing). */
export type DoneCheck = 'tests-missing' | 'owns-unchanged' | 'tests-failed' | 'new-problems';

export type ExecutingEventListener = (event: ExecutingEvent) => void;
