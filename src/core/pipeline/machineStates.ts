import { and, assign, sendTo, spawnChild } from 'xstate';
import type { ExecutingResult } from '../executing/machine/runTypes';
import { FAILED_STAGE } from '../files/vocabulary';
import { runTasksCheck } from './machineAnswers';
import { runRecorder } from './effects/runRecord';
import { verificationInput, worktreeInput } from './machineJobs';
import { EXECUTING_RUN, UNREADABLE, VERIFICATION_JOB, WORKTREE_JOB, type PipelineContext, type PipelineEvent } from './machineTypes';
import { stageOf, type PipelineDefinition, type TransitionKind } from './pipelineDefinition';
import { completionTransition } from './refusals';
import { reviewResponseStage } from './reviewResponseStage';

/**
 * The machine's states, generated from the definition: one per stage plus `failed` and the
 * unreadable one. Each stage takes its transitions (guarded by the chooser and the named
 * preconditions), answers every event it does not take with why, and follows the files to the
 * stage they name.
 */
export function pipelineStates(def: PipelineDefinition): Record<string, unknown> {
  const states: Record<string, unknown> = {};
  for (const id of [...def.stages.map((s) => s.id), FAILED_STAGE]) states[id] = stageState(def, id);
  // A spec whose stage is unknown takes no change: every event is answered with why.
  states[UNREADABLE] = {
    on: Object.fromEntries(
      [
        'ADVANCE',
        'APPROVE',
        'REAPPROVE',
        'FAIL',
        'RECOVER',
        'RUN_TASKS',
        'ADJUST_STEPS',
        'SET_TASK_STATE',
        'WRITE_HANDOFF',
        'CHECK_STAGE',
        'CREATE_WORKTREE',
        'START_PIPELINE',
        'VERIFY',
        'SYNC',
        'ANSWER_REVIEW',
        'MOVE_BASELINE',
        'RECORD_SPEND',
      ].map((e) => [e, notTaken(UNREADABLE)]),
    ),
  };

  // The files decide where the spec is: loom's CLI, git or a person may have moved it. Staying
  // at the same stage takes the new facts without leaving the state, so work running inside it
  // (the executing stage's run) goes on.
  const stateIds = Object.keys(states);
  for (const id of stateIds) {
    const node = states[id] as { on: Record<string, unknown> };
    node.on.FILES_CHANGED = [
      { guard: { type: 'diskStageIs' as const, params: { state: id } }, actions: 'takeFacts' as const },
      ...stateIds.filter((other) => other !== id).map((other) => ({ target: other, guard: { type: 'diskStageIs' as const, params: { state: other } }, actions: 'takeFacts' as const })),
    ];
  }
  return states;
}

/** Answers an event a state does not take with why (or what it asks first). */
const notTaken = (stage: string) => ({ actions: { type: 'answerNotTaken' as const, params: { stage } } });
/** The stage's report first, where loom writes one before deciding a move; the move comes again once it is written. */
const reportsFirst = { guard: 'stageReportDue' as const, actions: 'writeStageReports' as const };

/** One stage (or `failed`): the ways out of it, its completion at the end of the pipeline, and every other intent it takes or answers. */
function stageState(def: PipelineDefinition, id: string): Record<string, unknown> {
  const outgoing = def.transitions.filter((t) => t.from === id);
  const guarded = (kinds: TransitionKind[]) =>
    outgoing
      .filter((t) => kinds.includes(t.kind))
      .map((t) => ({
        target: t.to,
        guard: and([{ type: 'chosen' as const, params: { to: t.to, kind: t.kind } }, ...t.guards.map((g) => ({ type: g.type, params: g.params }))] as never),
        actions: { type: 'recordChange' as const, params: { from: id, to: t.to, kind: t.kind } },
      }));
  const stage = stageOf(def, id);
  const completion = stage?.terminal
    ? [
        { guard: and([{ type: 'completes' as const, params: { stage: id } }, 'completed'] as never), actions: { type: 'alreadyComplete' as const, params: { stage: id } } },
        {
          guard: and([{ type: 'completes' as const, params: { stage: id } }, ...completionTransition(stage).guards.map((g) => ({ type: g.type, params: g.params }))] as never),
          actions: { type: 'complete' as const, params: { stage: id } },
        },
      ]
    : [];
  const fail = outgoing.find((t) => t.kind === 'fail');
  const state: Record<string, unknown> = {
    on: {
      ADVANCE: [reportsFirst, ...completion, ...guarded(['forward', 'retry']), notTaken(id)],
      APPROVE: [reportsFirst, ...(stage?.confirmation ? guarded(['forward']) : []), notTaken(id)],
      RECOVER: [...guarded(['recover']), notTaken(id)],
      REAPPROVE: [{ guard: { type: 'reapprovable' as const, params: { stage: id } }, actions: { type: 'reapprove' as const, params: { stage: id } } }, notTaken(id)],
      FAIL: [
        ...(fail ? [{ target: FAILED_STAGE, guard: 'hasReason' as const, actions: { type: 'recordChange' as const, params: { from: id, to: FAILED_STAGE, kind: 'fail' as const } } }] : []),
        notTaken(id),
      ],
      RUN_TASKS: notTaken(id),
      ADJUST_STEPS: [{ guard: and(['stepsMayChange', 'stepsConfirmed', 'hasStateRecord'] as never), actions: 'adjustSteps' as const }, notTaken(id)],
      SET_TASK_STATE: [{ guard: 'taskStateValid' as const, actions: 'setTaskState' as const }, notTaken(id)],
      START_PIPELINE: [{ guard: 'startable' as const, actions: 'startPipeline' as const }, notTaken(id)],
      WRITE_HANDOFF: [{ guard: 'handoffValid' as const, actions: 'writeHandoff' as const }, notTaken(id)],
      // A failed spec has no stage whose checks could run: it is recovered first.
      CHECK_STAGE: id === FAILED_STAGE ? notTaken(id) : { actions: 'checkStage' as const },
      SYNC: [{ guard: 'atSync' as const, actions: 'syncMemory' as const }, notTaken(id)],
      MOVE_BASELINE: [{ guard: 'atSync' as const, actions: 'moveBaseline' as const }, notTaken(id)],
      // What a turn cost is kept at any stage the spec can be at, failed and running tasks included.
      RECORD_SPEND: { actions: 'recordSpend' as const },
      ANSWER_REVIEW: notTaken(id),
      CREATE_WORKTREE: [
        {
          guard: 'worktreeIdle' as const,
          // A job of its own, beside the stage: its done and error events reach the handlers at the root.
          actions: ['startWorktree' as const, spawnChild('worktreeJob', { id: WORKTREE_JOB, input: worktreeInput }) as never],
        },
        notTaken(id),
      ],
      VERIFY: [
        {
          guard: and(['atVerification', 'verificationTrusted', 'verificationIdle'] as never),
          // A job of its own, as Create Worktree's: its done and error events reach the handlers at the root.
          actions: ['startVerification' as const, spawnChild('verificationJob', { id: VERIFICATION_JOB, input: verificationInput(def) }) as never],
        },
        notTaken(id),
      ],
    },
  };
  if (stage?.role === 'tasks') Object.assign(state, tasksStage(def, id));
  if (stage?.role === 'reviewResponse' || stage?.role === 'reviewGate') Object.assign(state, reviewResponseStage(def, id, stage.role));
  return state;
}

/**
 * The stage that runs tasks waits (idle) or runs them: the executing statechart invoked as its
 * child. Run Tasks is taken only when the stage's preconditions hold and the person agreed to
 * send the tasks to a model. Stop Tasks and the user's answers go to the child; leaving the
 * stage (Mark Failed, or the files naming another stage) stops it. Advancing waits until the
 * run has ended.
 */
function tasksStage(def: PipelineDefinition, stage: string) {
  const notTaken = { type: 'answerNotTaken' as const, params: { stage } };
  const whileRunning = { type: 'answerNotTaken' as const, params: { stage, running: true } };
  return {
    initial: 'idle',
    states: {
      idle: {
        on: {
          RUN_TASKS: [{ guard: and(['tasksCanRun', 'runConfirmed'] as never), target: 'running', actions: 'startRun' as const }, { actions: notTaken }],
        },
      },
      running: {
        invoke: {
          id: EXECUTING_RUN,
          src: 'executingRun' as const,
          input: ({ context, event }: { context: PipelineContext; event: PipelineEvent }) => {
            const { input, now } = event as Extract<PipelineEvent, { type: 'RUN_TASKS' }>;
            // What the guard found is what the run works with: the preconditions are checked once, here.
            const pre = runTasksCheck(def, context.facts, input.worktree);
            // What the run keeps in the spec's state is this actor's effect, with the request's time.
            return { ...input, ready: { stage: pre.stage!, worktree: pre.worktree!, record: runRecorder(context.store, context.facts, now, 'Run Tasks') } };
          },
          onDone: {
            target: 'idle',
            actions: [assign({ lastRun: ({ event }: { event: { output: ExecutingResult } }) => ({ result: event.output }) }), 'runEnded' as const],
          },
          onError: { target: 'idle', actions: [assign({ lastRun: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) }), 'runEnded' as const] },
        },
        on: {
          STOP_TASKS: { actions: [sendTo(EXECUTING_RUN, { type: 'STOP' }), 'stopped' as const] },
          TASK_ANSWER: { actions: sendTo(EXECUTING_RUN, ({ event }: { event: PipelineEvent }) => (event as Extract<PipelineEvent, { type: 'TASK_ANSWER' }>).answer) },
          RUN_TASKS: { actions: whileRunning },
          TASK_CHANGE: { actions: whileRunning },
          ADVANCE: { actions: whileRunning },
          APPROVE: { actions: whileRunning },
        },
      },
    },
  };
}
