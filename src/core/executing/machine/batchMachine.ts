import { assign, enqueueActions, sendTo, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import { normalizeTaskRef, type TaskFile } from '../../files/taskFile';
import type { TaskBatch } from '../../tasks/taskBatches';
import { markSkipped } from './breakerChoice';
import type { LoopEnvironment } from './loopEnvironment';
import { readTaskRunRecord } from './taskRunRecord';
import type { TaskHeldEvent, UserAnswerEvent } from './runEvents';
import type { RunStop } from './runTypes';
import { taskMachine, type TaskMachineOutput, type TaskOutcome } from './taskMachine';
import { blockOnUnexpected, isUnexpectedTaskFailure } from './runFailures';
import { lazily } from '../../../shared/lazily';

/**
 * One batch of the plan, its tasks as child actors. Serially (the default, and always in direct
 * mode) each task is spawned when the one before it has settled, so no task starts while an
 * earlier one has an unfixed blocker. A parallel batch (subagent mode with the setting on)
 * spawns every task at once; each runs to its own end, an open breaker is held, and afterwards
 * the outcomes and breakers are settled in task order before any later batch starts.
 */
export interface BatchMachineInput {
  env: LoopEnvironment;
  batch: TaskBatch;
  parallel: boolean;
}

export interface BatchMachineOutput {
  /** Why the run stops after this batch; undefined when it goes on. */
  stop?: RunStop;
}

interface BatchContext {
  env: LoopEnvironment;
  batch: TaskBatch;
  parallel: boolean;
  tasks: TaskFile[];
  cursor: number;
  live: string[];
  held: string[];
  ended: Record<string, TaskOutcome>;
  error?: { error: unknown };
  stop?: RunStop;
}

type BatchEvent = UserAnswerEvent | TaskHeldEvent | DoneActorEvent<TaskMachineOutput> | ErrorActorEvent;

export const taskActorId = (task: string) => `task:${task}`;
const taskOfActor = (id: string) => id.replace(/^task:/, '');

/** A task whose dependency was skipped (choice C) is skipped too, before anything is dispatched. */
function skipIfDependencySkipped(env: LoopEnvironment, task: TaskFile): boolean {
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

/** Why an ended task stops the run, after loom's loop; done and skipped go on. */
export function stopFor(task: string, outcome: TaskOutcome): RunStop | undefined {
  switch (outcome.kind) {
    case 'done':
    case 'skipped':
      return undefined;
    case 'blocked':
      // A task stopped on a failure no rule expected: its reason already says what clears it.
      if (outcome.resume) return { outcome: 'blocked', message: outcome.reason, stoppedAt: task, resumeWith: 'run-tasks' };
      return { outcome: 'blocked', message: `${task} is blocked: ${outcome.reason}. Resolve it, then run executing again`, stoppedAt: task };
    case 'needs-context':
      return { outcome: 'needs-context', message: `${task} needs context: ${outcome.question}`, stoppedAt: task };
    case 'replan':
      return { outcome: 'replan', message: `${task} waits to be split and re-planned (choice A); edit the plan and its task file, then run executing again`, stoppedAt: task, breaker: outcome.report };
  }
}

const current = (c: BatchContext) => c.tasks[c.cursor]?.id;

const unexpectedOutcome = (env: LoopEnvironment, task: string, error: unknown): TaskOutcome => ({ kind: 'blocked', reason: blockOnUnexpected(env, task, error), resume: true });

export const batchMachine = lazily(() =>
  setup({
    types: {
      input: {} as BatchMachineInput,
      context: {} as BatchContext,
      events: {} as BatchEvent,
      output: {} as BatchMachineOutput,
    },
    actors: { task: taskMachine() },
    guards: {
      runsInParallel: ({ context }) => context.parallel && context.batch.type === 'parallel' && context.tasks.length > 1,
      allSettled: ({ context }) => context.cursor >= context.tasks.length,
      currentStops: ({ context }) => {
        const outcome = context.ended[current(context)];
        return outcome !== undefined && stopFor(current(context), outcome) !== undefined;
      },
      endedStops: ({ event }) => {
        const { output } = event as DoneActorEvent<TaskMachineOutput>;
        return stopFor(output.task, output.outcome) !== undefined;
      },
      currentEnded: ({ context }) => Object.hasOwn(context.ended, current(context)),
      currentHeld: ({ context }) => context.held.includes(current(context)),
      quiet: ({ context }) => context.live.every((t) => context.held.includes(t)),
      failed: ({ context }) => context.error !== undefined,
      /** A task's actor failed on something other than the model or the budget (runFailures.ts). */
      unexpected: ({ event }) => isUnexpectedTaskFailure((event as ErrorActorEvent).error),
      taskIsLive: ({ context, event }) => 'task' in event && context.live.includes(event.task),
    },
    actions: {
      chooseRunnable: assign(({ context }) => ({
        tasks: context.batch.tasks
          .map((id) => context.env.tasks.get(id))
          .filter((t): t is TaskFile => t !== undefined)
          .filter((t) => !skipIfDependencySkipped(context.env, t)),
      })),
      spawnCurrent: enqueueActions(({ context, enqueue }) => {
        const task = context.tasks[context.cursor];
        enqueue.spawnChild('task', { id: taskActorId(task.id), input: { env: context.env, task, inParallelBatch: false, holdBreaker: false } });
        enqueue.assign({ live: [task.id] });
      }),
      spawnAll: enqueueActions(({ context, enqueue }) => {
        for (const task of context.tasks) enqueue.spawnChild('task', { id: taskActorId(task.id), input: { env: context.env, task, inParallelBatch: true, holdBreaker: true } });
        enqueue.assign({ live: context.tasks.map((t) => t.id) });
      }),
      noteEnded: assign(({ context, event }) => {
        const done = event as DoneActorEvent<TaskMachineOutput>;
        const task = done.output.task;
        return { ended: { ...context.ended, [task]: done.output.outcome }, live: context.live.filter((t) => t !== task), held: context.held.filter((t) => t !== task) };
      }),
      noteFailed: assign(({ context, event }) => {
        const failed = event as ErrorActorEvent;
        const task = taskOfActor(failed.actorId);
        const rest = { live: context.live.filter((t) => t !== task), held: context.held.filter((t) => t !== task) };
        if (isUnexpectedTaskFailure(failed.error)) return { ...rest, ended: { ...context.ended, [task]: unexpectedOutcome(context.env, task, failed.error) } };
        return { ...rest, error: context.error ?? { error: failed.error } };
      }),
      /** Serially: the task's actor failed unexpectedly; it is blocked and the batch stops at it. */
      noteUnexpected: assign(({ context, event }) => {
        const failed = event as ErrorActorEvent;
        const task = taskOfActor(failed.actorId);
        return { ended: { ...context.ended, [task]: unexpectedOutcome(context.env, task, failed.error) }, live: [] };
      }),
      noteHeld: assign(({ context, event }) => ({ held: [...context.held, (event as TaskHeldEvent).task] })),
      stopAtCurrent: assign(({ context }) => ({ stop: stopFor(current(context), context.ended[current(context)]) })),
      advance: assign(({ context }) => ({ cursor: context.cursor + 1 })),
      grantTurn: sendTo(({ context }) => taskActorId(current(context)), { type: 'BREAKER_TURN' }),
      forward: sendTo(
        ({ event }) => taskActorId((event as UserAnswerEvent).task),
        ({ event }) => event,
      ),
      /** Every task of a parallel batch ran to its end; the first failure is the batch's. */
      rethrow: ({ context }) => {
        throw context.error!.error;
      },
    },
  }).createMachine({
    id: 'batch',
    context: ({ input }) => ({ ...input, tasks: [], cursor: 0, live: [], held: [], ended: {} }),
    output: ({ context }) => ({ stop: context.stop }),
    initial: 'choosing',
    on: {
      BREAKER_CHOICE: { guard: 'taskIsLive', actions: 'forward' },
      MANUAL_FIX_DONE: { guard: 'taskIsLive', actions: 'forward' },
      CONTEXT_PROVIDED: { guard: 'taskIsLive', actions: 'forward' },
      CONTEXT_DECLINED: { guard: 'taskIsLive', actions: 'forward' },
    },
    states: {
      choosing: {
        entry: 'chooseRunnable',
        always: [{ guard: 'runsInParallel', target: 'parallel' }, { target: 'serial' }],
      },
      serial: {
        initial: 'next',
        states: {
          next: { always: [{ guard: 'allSettled', target: '#batch.done' }, { target: 'running' }] },
          running: {
            entry: 'spawnCurrent',
            on: {
              'xstate.done.actor.*': [
                { guard: 'endedStops', target: '#batch.done', actions: ['noteEnded', 'stopAtCurrent'] },
                { target: 'next', actions: ['noteEnded', 'advance'] },
              ],
              // The model or the budget: not taken here, so the batch fails with it and the run says so.
              'xstate.error.actor.*': { guard: 'unexpected', target: '#batch.done', actions: ['noteUnexpected', 'stopAtCurrent'] },
            },
          },
        },
      },
      parallel: {
        entry: 'spawnAll',
        on: {
          TASK_HELD: { actions: 'noteHeld' },
          'xstate.done.actor.*': { actions: 'noteEnded' },
          'xstate.error.actor.*': { actions: 'noteFailed' },
        },
        always: { guard: 'quiet', target: 'settling' },
      },
      settling: {
        always: [
          { guard: 'failed', actions: 'rethrow' },
          { guard: 'allSettled', target: 'done' },
          { guard: 'currentStops', target: 'done', actions: 'stopAtCurrent' },
          { guard: 'currentEnded', target: 'settling', reenter: true, actions: 'advance' },
          { guard: 'currentHeld', target: 'awaitingTurn', actions: 'grantTurn' },
        ],
      },
      /** The held breaker whose turn it is: the user chooses, and the task runs on from the choice. */
      awaitingTurn: {
        on: {
          'xstate.done.actor.*': { target: 'settling', actions: 'noteEnded' },
          'xstate.error.actor.*': { target: 'settling', actions: 'noteFailed' },
        },
      },
      done: { type: 'final' },
    },
  }),
);
