import { assign, fromPromise, sendTo, setup, type ErrorActorEvent } from 'xstate';
import { buildExecutingHandoff } from '../executingHandoff';
import { describeExecutionMode } from '../executionMode';
import { writeHandoff } from '../taskHandoff';
import { readTaskRunRecord } from './taskRunRecord';
import { TokenBudgetExceededError } from '../transcripts/tokenLedger';
import { runFailureStop } from './runFailures';
import { batchMachine, type BatchMachineOutput } from './batchMachine';
import { InFlightWork } from './inFlightWork';
import type { ExecutingMachineEvent } from './runEvents';
import { prepareRun, type RunSetup } from './runSetup';
import type { ExecutingResult, ExecutingRunInput, RunReady, RunStop } from './runTypes';
import { testReporterMachine, type TestReporterOutput } from './testReporterMachine';
import { lazily } from '../../../shared/lazily';
import type { LoopEnvironment } from './loopEnvironment';
import { prepareWorkspace } from './taskWorkspace';
import { t } from '../../messages';

/**
 * The executing stage as a statechart, the single authority of a run: it checks the
 * preconditions and chooses subagent or direct mode (when it is created: a refusal is its
 * error), runs the plan batch by batch as child actors, then the test reporter, and writes
 * `handoffs/executing.json`. Models only answer; the core parses, validates and writes every
 * state file. Stop Tasks is STOP; the user's answers are events (runEvents.ts), each asked for
 * first through `onEvent`. It is restored from loom's task states on disk, so a new actor over
 * the same spec resumes where the last one stopped.
 *
 * Whoever starts it holds the spec's run lease (runLease.ts) and, after it ends, waits for
 * `work.settled()` before releasing it: a stopped actor's aborted requests settle a moment later.
 */
export interface ExecutingMachineInput extends ExecutingRunInput, RunReady {
  /** Tracks the invoked actors' work still running; one is made when it is not given. */
  work?: InFlightWork;
}

/** What writing the executing handoff recorded, told back to the machine. */
interface HandedOff {
  type: 'HANDED_OFF';
  finished: number;
  skipped: number;
  testReport: { verdict: 'PASS'; file: string; evidenceFile?: string };
}

interface ExecutingContext {
  run: RunSetup;
  batchIndex: number;
  stop?: RunStop;
  report?: NonNullable<TestReporterOutput['report']>;
}

function resultOf(c: ExecutingContext): ExecutingResult {
  const { env, choice, tokenBudget } = c.run;
  const states = env.store.snapshot().taskStates;
  const finished = env.inputs.tasks.filter((t) => states.get(t.id)?.status === 'done').map((t) => t.id);
  const skipped = env.inputs.tasks.filter((t) => readTaskRunRecord(states.get(t.id)).skipped).map((t) => t.id);
  const stop = c.stop ?? { outcome: 'cancelled', message: t('run.cancelled') };
  return { ...stop, mode: choice.mode, triggers: choice.triggers, finished, skipped, tokens: { used: env.ledger.used(), budget: tokenBudget }, credits: env.ledger.creditSummary() };
}

/** The user's answers go to whichever child is asking (the batch, or the test reporter). */
const answersTo = <A extends string>(action: A) => ({
  BREAKER_CHOICE: { actions: action },
  MANUAL_FIX_DONE: { actions: action },
  CONTEXT_PROVIDED: { actions: action },
  CONTEXT_DECLINED: { actions: action },
});

const errorOf = (event: unknown) => (event as ErrorActorEvent).error;

export const executingMachine = lazily(() =>
  setup({
    types: {
      input: {} as ExecutingMachineInput,
      context: {} as ExecutingContext,
      events: {} as ExecutingMachineEvent | HandedOff,
      output: {} as ExecutingResult,
    },
    actors: {
      batch: batchMachine(),
      testReporter: testReporterMachine(),
      /** Task worktrees a crash left for tasks with nothing to resume removed; whether tasks can have their own. */
      prepareWorkspace: fromPromise<{ taskWorktrees: boolean; removed: string[] }, LoopEnvironment>(({ input, signal }) => input.work.track(prepareWorkspace(input, signal))),
    },
    guards: {
      budgetUsedUp: ({ context }) => {
        const budget = context.run.tokenBudget;
        return budget !== undefined && budget > 0 && context.run.env.ledger.used() >= budget;
      },
      checkpointsOn: ({ context }) => context.run.env.checkpoints,
      allBatchesRun: ({ context }) => context.batchIndex >= context.run.batches.length,
      batchStopped: ({ event }) => (event as unknown as { output: BatchMachineOutput }).output.stop !== undefined,
      reporterStopped: ({ event }) => (event as unknown as { output: TestReporterOutput }).output.stop !== undefined,
      /** The failures that end a run with an outcome rather than an error (runFailures.ts); anything else is the machine's error. */
      knownFailure: ({ event }) => runFailureStop(errorOf(event)) !== undefined,
    },
    actions: {
      announceMode: ({ context }) => {
        const { env, choice } = context.run;
        const description = describeExecutionMode(choice);
        env.logger.info(`${env.specDir}: ${description}`);
        env.emit({ type: 'mode', mode: choice.mode, triggers: choice.triggers, description });
        env.record({ executing_mode: { mode: choice.mode, triggers: choice.triggers, chosen_at: env.now() } });
      },
      persistTokens: ({ context }) => context.run.env.persistTokens(),
      keepWorkspace: ({ context, event }) => {
        const { taskWorktrees } = (event as unknown as { output: { taskWorktrees: boolean } }).output;
        // Read by the tasks of the batches to come; nothing has started yet.
        context.run.env.taskWorktrees = taskWorktrees && context.run.parallel;
      },
      workspaceFailed: ({ context, event }) =>
        context.run.env.logger.warn(`the task worktrees could not be checked (${(errorOf(event) as Error)?.message}); the tasks of a parallel batch share the feature worktree`),
      stopForBudget: assign(({ context }) => ({
        stop: { outcome: 'budget-exceeded' as const, message: new TokenBudgetExceededError(context.run.env.ledger.used(), context.run.tokenBudget!).message },
      })),
      stopForFailure: assign(({ event }) => ({ stop: runFailureStop(errorOf(event)) })),
      nextBatch: assign(({ context }) => ({ batchIndex: context.batchIndex + 1 })),
      keepStop: assign(({ event }) => ({ stop: (event as unknown as { output: { stop: RunStop } }).output.stop })),
      keepReport: assign(({ event }) => ({ report: (event as unknown as { output: TestReporterOutput }).output.report })),
      cancel: assign(() => ({ stop: { outcome: 'cancelled' as const, message: t('run.cancelled') } })),
      forwardToBatch: sendTo('batch', ({ event }) => event),
      forwardToReporter: sendTo('testReporter', ({ event }) => event),
      /** The stage handoff, written once the report passed; the machine hears what it recorded. */
      writeExecutingHandoff: ({ context, self }) => {
        const { env } = context.run;
        const report = context.report!;
        const latest = env.store.snapshot();
        const finished = env.inputs.tasks.filter((t) => latest.taskStates.get(t.id)?.status === 'done').map((t) => t.id);
        const skipped = env.inputs.tasks.filter((t) => readTaskRunRecord(latest.taskStates.get(t.id)).skipped).map((t) => t.id);
        const testReport = { verdict: 'PASS' as const, file: report.file, evidenceFile: report.evidence.file };
        writeHandoff(
          latest,
          'executing',
          buildExecutingHandoff({
            finishedTasks: finished,
            skippedTasks: skipped,
            taskHandoffs: latest.handoffs,
            verificationCommand: env.testCommand,
            testReport,
            behaviors: env.inputs.tasks.filter((t) => finished.includes(t.id)).flatMap((t) => t.behavior_ids),
            traceability: latest.traceability,
            worktree: env.worktree,
            now: env.now(),
          }),
        );
        self.send({ type: 'HANDED_OFF', finished: finished.length, skipped: skipped.length, testReport });
      },
      handedOff: assign(({ event }) => {
        const e = event as HandedOff;
        return {
          stop: {
            outcome: 'completed' as const,
            message: t('run.completed', { finished: e.finished, skipped: e.skipped }),
            testReport: e.testReport,
          },
        };
      }),
    },
  }).createMachine({
    id: 'executing',
    context: ({ input }) => ({ run: prepareRun(input, input.work), batchIndex: 0 }),
    output: ({ context }) => resultOf(context),
    initial: 'running',
    states: {
      running: {
        entry: 'announceMode',
        exit: 'persistTokens',
        on: { STOP: { target: 'cancelled', actions: 'cancel' } },
        initial: 'choosingWorkspace',
        states: {
          choosingWorkspace: { always: [{ guard: 'checkpointsOn', target: 'preparing' }, { target: 'checkingBudget' }] },
          preparing: {
            invoke: {
              src: 'prepareWorkspace',
              input: ({ context }) => context.run.env,
              onDone: { target: 'checkingBudget', actions: 'keepWorkspace' },
              onError: { target: 'checkingBudget', actions: 'workspaceFailed' },
            },
          },
          checkingBudget: { always: [{ guard: 'budgetUsedUp', target: '#executing.stopped', actions: 'stopForBudget' }, { target: 'choosingBatch' }] },
          choosingBatch: { always: [{ guard: 'allBatchesRun', target: 'reporting' }, { target: 'batch' }] },
          batch: {
            invoke: {
              id: 'batch',
              src: 'batch',
              input: ({ context }) => ({ env: context.run.env, batch: context.run.batches[context.batchIndex], parallel: context.run.parallel }),
              onDone: [
                { guard: 'batchStopped', target: '#executing.stopped', actions: 'keepStop' },
                { target: 'choosingBatch', actions: 'nextBatch' },
              ],
              onError: { guard: 'knownFailure', target: '#executing.stopped', actions: 'stopForFailure' },
            },
            on: answersTo('forwardToBatch'),
          },
          reporting: {
            invoke: {
              id: 'testReporter',
              src: 'testReporter',
              input: ({ context }) => {
                const { env } = context.run;
                const states = env.store.snapshot().taskStates;
                return {
                  env,
                  finished: env.inputs.tasks.filter((t) => states.get(t.id)?.status === 'done'),
                  skipped: env.inputs.tasks.filter((t) => readTaskRunRecord(states.get(t.id)).skipped).map((t) => t.id),
                };
              },
              onDone: [
                { guard: 'reporterStopped', target: '#executing.stopped', actions: 'keepStop' },
                { target: 'handingOff', actions: 'keepReport' },
              ],
              onError: { guard: 'knownFailure', target: '#executing.stopped', actions: 'stopForFailure' },
            },
            on: answersTo('forwardToReporter'),
          },
          handingOff: { entry: 'writeExecutingHandoff', on: { HANDED_OFF: { target: '#executing.completed', actions: 'handedOff' } } },
        },
      },
      stopped: { type: 'final' },
      cancelled: { type: 'final' },
      completed: { type: 'final' },
    },
  }),
);
