import { assign, emit } from 'xstate';
import { answerWhenNotTaken } from './machineAnswers';
import type { withGuards } from './machineGuards';
import type { MachineReading } from './machineReading';
import type { PipelineEvent } from './machineTypes';
import type { PipelineDefinition, TransitionKind } from './pipelineDefinition';
import { fixRunOutput } from './reviewResponseStage';
import { isReviewProblem, reviewToAnswer } from '../review/reviewToAnswer';
import { moveBaseline } from '../drift/baselineMove';
import { withReportsHint, writeStageReports } from './effects/stageReports';
import { completePipeline, reapprove, recordChange } from './effects/stageChange';
import { adjustSteps, initState, startPipeline } from './effects/steps';
import { setTaskState } from './effects/taskState';
import { writeHandoff } from './effects/handoff';
import { recordWorktree } from './effects/worktree';
import { checkStage, writeReport } from './effects/validatorReports';
import { syncMemory } from './effects/memorySync';
import { recordReviewAnswer, writeReviewFixes } from './effects/reviewAnswer';
import { recordVerification } from './effects/verification';
import { recordTaskChange } from './effects/taskChange';
import { recordSpend } from './effects/spend';

/**
 * The machine's actions: the effects that write (effects/, each sending its answer back as
 * `ANSWERED`), the answers the machine emits, and the bookkeeping of the jobs it runs (the
 * request each answers and its time).
 */
export function withActions(base: ReturnType<typeof withGuards>, def: PipelineDefinition, reading: MachineReading) {
  const { diskStage, confirms } = reading;
  return base.extend({
    actions: {
      writeStageReports: ({ context, event, self }) => writeStageReports(def, context, event as Extract<PipelineEvent, { type: 'ADVANCE' | 'APPROVE' }>, diskStage(context.facts)!, self),
      recordChange: ({ context, event, self }, params: { from: string; to: string; kind: TransitionKind }) => recordChange(def, context, event, self, params, confirms(context, event)),
      complete: ({ context, event, self }, params: { stage: string }) => completePipeline(def, context, event, self, params.stage, confirms(context, event)),
      reapprove: ({ context, event, self }, params: { stage: string }) => reapprove(def, context, event, self, params.stage),
      recordWorktree: ({ context, event, self }) => recordWorktree(def, context, event, self),
      adjustSteps: ({ context, event, self }) => adjustSteps(def, context, event, self),
      setTaskState: ({ context, event, self }) => setTaskState(def, context, event, self),
      startPipeline: ({ context, event, self }) => startPipeline(context, event, self),
      initState: ({ context, event, self }) => initState(def, context, event, self),
      writeHandoff: ({ context, event, self }) => writeHandoff(def, context, event, self),
      checkStage: ({ context, event, self }) => checkStage(def, context, event, self),
      writeReport: ({ context, event, self }) => writeReport(def, context, event, self),
      recordVerification: ({ context, event, self }) => recordVerification(def, context, event, self),
      syncMemory: ({ context, event, self }) => syncMemory(def, context, event, self),
      moveBaseline: ({ context, event, self }) => moveBaseline(context, event, self),
      recordSpend: ({ context, event, self }) => recordSpend(def, context, event, self),
      startAnswer: assign(({ context, event }) => {
        const e = event as Extract<PipelineEvent, { type: 'ANSWER_REVIEW' }>;
        const review = reviewToAnswer(context.facts);
        return {
          answering: { request: e.id ?? '', now: e.now, fixes: isReviewProblem(review) ? 0 : review.fixes.length, writer: e.writer, input: e.input, ...(e.signal ? { signal: e.signal } : {}) },
        };
      }),
      /** Each task the review sends back, pending in fix mode with its fix items: written before the fix run reads them. */
      writeReviewFixes: ({ context, event }) => writeReviewFixes(context, event),
      keepFixRun: assign(({ context, event }) => ({ answering: { ...context.answering!, result: fixRunOutput(event) } })),
      /** The fix run stopped before the fixes were done (a breaker, the budget, Stop): the request hears how it ended; no response is written. */
      fixRunStopped: ({ context, self }) => {
        const at = diskStage(context.facts);
        const a = context.answering!;
        self.send({ type: 'ANSWERED', id: a.request, answer: { kind: 'changed', intent: 'answerReview', from: at, to: at, fixes: a.fixes, ...(a.result ? { result: a.result } : {}) } });
      },
      /** The fix run or the tests failed on an error (a git error, a shell that would not start): the request hears it; the response is not written. */
      answerFailed: ({ context, event, self }) => self.send({ type: 'ANSWERED', id: context.answering?.request, error: (event as unknown as { error: unknown }).error }),
      recordReviewAnswer: ({ context, event, self }) => recordReviewAnswer(def, context, event, self),
      endAnswer: assign({ answering: undefined }),
      startVerification: assign(({ context, event }) => ({ verifyRequest: (event as { id?: string }).id ?? '', jobAt: { ...context.jobAt, verify: (event as { now?: string }).now } })),
      endVerification: assign(({ context }) => ({ verifyRequest: undefined, jobAt: { ...context.jobAt, verify: undefined } })),
      /** The commands could not run (stopped, a shell that would not start): the request hears why, and nothing was written. */
      verificationFailed: ({ context, event, self }) => self.send({ type: 'ANSWERED', id: context.verifyRequest, error: (event as unknown as { error: unknown }).error }),
      alreadyComplete: emit(({ context, event }, params: { stage: string }) => ({
        type: 'answer' as const,
        id: (event as { id?: string }).id,
        answer: { kind: 'changed' as const, intent: 'advance' as const, from: params.stage, to: params.stage, state: context.state, complete: true, alreadyComplete: true },
      })),
      /** The event was not taken: the machine says why (or what it asks first), from the same verdicts its guards read. */
      answerNotTaken: emit(({ context, event }, params: { stage: string; running?: boolean }) => ({
        type: 'answer' as const,
        id: (event as { id?: string }).id,
        answer: withReportsHint(answerWhenNotTaken(def, context, params.stage, event, confirms(context, event), params.running === true), event),
      })),
      /** An effect is done: the state it wrote becomes the machine's, and its answer goes out. */
      takeAnswer: assign(({ context, event }) => (event.type === 'ANSWERED' && event.state ? { state: event.state } : { state: context.state })),
      emitAnswer: emit(({ event }) => {
        const e = event as Extract<PipelineEvent, { type: 'ANSWERED' }>;
        return { type: 'answer' as const, id: e.id, answer: e.answer, error: e.error };
      }),
      takeFacts: assign(({ event }) => (event.type === 'FILES_CHANGED' ? { facts: event.facts, verdicts: event.verdicts, state: event.state } : {})),
      startRun: assign(({ event }) => ({ lastRun: undefined, runRequest: (event as { id?: string }).id })),
      runEnded: emit(({ context }) => ({
        type: 'answer' as const,
        id: context.runRequest,
        ...(context.lastRun && 'result' in context.lastRun
          ? { answer: { kind: 'changed' as const, intent: 'runTasks' as const, from: diskStage(context.facts), to: diskStage(context.facts), result: context.lastRun.result } }
          : { error: context.lastRun && 'error' in context.lastRun ? context.lastRun.error : new Error('the run ended without a result') }),
      })),
      stopped: emit(({ context, event }) => ({
        type: 'answer' as const,
        id: (event as { id?: string }).id,
        answer: { kind: 'changed' as const, intent: 'stopTasks' as const, from: diskStage(context.facts), to: diskStage(context.facts) },
      })),
      startWorktree: assign(({ context, event }) => ({ worktreeRequest: (event as { id?: string }).id ?? '', jobAt: { ...context.jobAt, worktree: (event as { now?: string }).now } })),
      endWorktree: assign(({ context }) => ({ worktreeRequest: undefined, jobAt: { ...context.jobAt, worktree: undefined } })),
      /** The worktree could not be made (git refused, cancelled): the request hears git's error; the next may try again. */
      worktreeFailed: ({ context, event, self }) => self.send({ type: 'ANSWERED', id: context.worktreeRequest, error: (event as unknown as { error: unknown }).error }),
      startTaskChange: assign(({ context, event }) => ({ taskChangeRequest: (event as { id?: string }).id ?? '', jobAt: { ...context.jobAt, taskChange: (event as { now?: string }).now } })),
      endTaskChange: assign(({ context }) => ({ taskChangeRequest: undefined, jobAt: { ...context.jobAt, taskChange: undefined } })),
      /** Git refused (a change that would be lost, a rewritten branch) or the plan could not be read: the request hears why; nothing was written. */
      taskChangeFailed: ({ context, event, self }) => self.send({ type: 'ANSWERED', id: context.taskChangeRequest, error: (event as unknown as { error: unknown }).error }),
      recordTaskChange: ({ context, event, self }) => recordTaskChange(def, context, event, self),
    },
  });
}
