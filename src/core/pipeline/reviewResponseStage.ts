import { and, sendTo } from 'xstate';
import type { ExecutingResult } from '../executing/machine/runTypes';
import { isReviewProblem, reviewToAnswer } from '../review/reviewToAnswer';
import { REVIEW_TESTS_JOB, type ReviewTestsInput } from '../review/reviewTestsJob';
import type { PipelineDefinition } from './pipelineDefinition';
import { stageWithRole } from './stageRoles';
import { runRecorder } from './effects/runRecord';
import type { PipelineContext, PipelineEvent } from './machineTypes';

/** The id of the fix run while the review is answered (the executing statechart, as Run Tasks runs it). */
export const REVIEW_FIX_RUN = 'reviewFixRun';

/**
 * The stage that answers the review waits (idle), runs the review's fixes (the executing
 * statechart invoked as its child, as the stage that runs tasks does: the same review, tests,
 * retry limit and breaker, the person's answers and Stop sent to it), then re-runs the project's
 * tests (the verification runner) and writes review-response.md. A review with nothing to fix
 * goes straight to the tests. A fix run that stops (a breaker, the budget, a model that refuses)
 * answers with why, and nothing is written of the response. Moving on waits until it is done.
 * At the review gate (loom's receiving-code-review between review rounds) the same stage fixes the
 * BLOCKERs and open code threads of a review that does not pass yet, and answers without passing
 * the gate; a review with nothing to fix there is refused with why.
 */
export function reviewResponseStage(def: PipelineDefinition, stage: string, at: 'reviewGate' | 'reviewResponse' = 'reviewResponse') {
  const notTaken = { type: 'answerNotTaken' as const, params: { stage } };
  const whileRunning = { type: 'answerNotTaken' as const, params: { stage, running: true } };
  // At the review gate only the BLOCKERs and code threads no round answered yet are fixed (the gate stays shut: the reviewer's new verdict and the approval open it).
  // The rules are specOffers.ts's, so what a surface offers is what the actor takes.
  const withoutFixes = at === 'reviewGate' ? [] : [{ guard: and(['reviewResponseOnly', 'answerTrusted'] as never), target: 'testing', actions: 'startAnswer' as const }];
  const busy = {
    ANSWER_REVIEW: { actions: whileRunning },
    RUN_TASKS: { actions: whileRunning },
    TASK_CHANGE: { actions: whileRunning },
    ADVANCE: { actions: whileRunning },
    APPROVE: { actions: whileRunning },
    SYNC: { actions: whileRunning },
  };
  return {
    initial: 'idle',
    states: {
      idle: {
        on: {
          ANSWER_REVIEW: [
            { guard: and(['reviewFixesToAnswer', 'answerTrusted'] as never), target: 'fixing', actions: ['startAnswer' as const, 'writeReviewFixes' as const] },
            ...withoutFixes,
            { actions: notTaken },
          ],
        },
      },
      fixing: {
        invoke: {
          id: REVIEW_FIX_RUN,
          src: 'executingRun' as const,
          input: ({ context, event }: { context: PipelineContext; event: PipelineEvent }) => {
            const { input, now } = event as Extract<PipelineEvent, { type: 'ANSWER_REVIEW' }>;
            const review = reviewToAnswer(context.facts);
            // The guards found the worktree and the stage that runs tasks (its retry limit and timeout are the fixes' too).
            const worktree = isReviewProblem(review) ? '' : review.worktree!;
            // What the fix run keeps in the spec's state is this actor's effect, with the request's time.
            return { ...input, ready: { stage: stageWithRole(def, 'tasks')!, worktree, record: runRecorder(context.store, context.facts, now, 'Answer Review') } };
          },
          onDone: [
            { guard: 'fixRunCompleted' as const, target: 'testing', actions: 'keepFixRun' as const },
            { target: 'idle', actions: ['keepFixRun' as const, 'fixRunStopped' as const, 'endAnswer' as const] },
          ],
          onError: { target: 'idle', actions: ['answerFailed' as const, 'endAnswer' as const] },
        },
        on: {
          ...busy,
          STOP_TASKS: { actions: [sendTo(REVIEW_FIX_RUN, { type: 'STOP' }), 'stopped' as const] },
          TASK_ANSWER: { actions: sendTo(REVIEW_FIX_RUN, ({ event }: { event: PipelineEvent }) => (event as Extract<PipelineEvent, { type: 'TASK_ANSWER' }>).answer) },
        },
      },
      testing: {
        invoke: {
          id: REVIEW_TESTS_JOB,
          src: 'reviewTestsJob' as const,
          input: ({ context }: { context: PipelineContext }): ReviewTestsInput => {
            const input = context.answering!.input;
            return {
              facts: context.facts,
              definition: def,
              ...(input.settings.testCommand ? { testCommand: input.settings.testCommand } : {}),
              ...(input.testRunner ? { runner: input.testRunner } : {}),
              ...(context.answering!.signal ? { signal: context.answering!.signal } : {}),
            };
          },
          onDone: { target: 'idle', actions: ['recordReviewAnswer' as const, 'endAnswer' as const] },
          onError: { target: 'idle', actions: ['answerFailed' as const, 'endAnswer' as const] },
        },
        on: {
          ...busy,
          // Stop kills the running test command (leaving the state stops its job); nothing of the response is written.
          STOP_TASKS: { target: 'idle', actions: ['stopped' as const, 'fixRunStopped' as const, 'endAnswer' as const] },
        },
      },
    },
  };
}

/** How the fix run ended, from its done event. */
export const fixRunOutput = (event: unknown) => (event as { output: ExecutingResult }).output;
