import type { BreakerChoice } from './circuitBreaker';

/**
 * What the executing statechart is told from outside: Stop Tasks, and the user's answers to the
 * questions it waits on (it reports each question through `onEvent` first). `task` is a task id
 * or `test-reporter`.
 */
export type UserAnswerEvent =
  | { type: 'BREAKER_CHOICE'; task: string; choice: BreakerChoice }
  /** Choice B: the user says the manual fix is done; the task is reviewed again. */
  | { type: 'MANUAL_FIX_DONE'; task: string }
  | { type: 'CONTEXT_PROVIDED'; task: string; context: string }
  | { type: 'CONTEXT_DECLINED'; task: string };

export type ExecutingMachineEvent = { type: 'STOP' } | UserAnswerEvent;

/** A task of a parallel batch whose breaker opened, waiting for its turn to be settled. */
export type TaskHeldEvent = { type: 'TASK_HELD'; task: string };

/** Sent by a parallel batch to the task whose held breaker is next to be settled. */
export type BreakerTurnEvent = { type: 'BREAKER_TURN' };
