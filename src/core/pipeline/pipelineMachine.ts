import { and, assign, emit, fromPromise, sendTo, setup, spawnChild } from 'xstate';
import { executingMachine } from '../executing/machine/executingMachine';
import type { ExecutingResult } from '../executing/machine/runTypes';
import type { FeatureWorktree } from '../git/featureWorktree';
import { FAILED_STAGE } from '../files/vocabulary';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { GUARDS, holds } from './guards';
import type { GuardCall, GuardName } from './guardCall';
import { advancePassesGate, chooseTransition } from './chooseTransition';
import { answerWhenNotTaken, runTasksCheck } from './machineAnswers';
import { personRequired } from './personRule';
import { completePipeline, reapprovalOf, reapprove, recordChange } from './effects/stageChange';
import { adjustSteps, initState, startPipeline, stepsChange } from './effects/steps';
import { setTaskState, taskStateProblem } from './effects/taskState';
import { handoffProblem, writeHandoff } from './effects/handoff';
import { recordWorktree } from './effects/worktree';
import { checkStage, writeReport } from './effects/validatorReports';
import { syncMemory } from './effects/memorySync';
import { recordReviewAnswer, writeReviewFixes } from './effects/reviewAnswer';
import { recordVerification } from './effects/verification';
import { recordTaskChange } from './effects/taskChange';
import { stageReportDue, withReportsHint, writeStageReports } from './effects/stageReports';
import { stageOf, type PipelineDefinition, type TransitionKind } from './pipelineDefinition';
import { completesPipeline, completionTransition } from './refusals';
import { isCompleted } from './stateRecord';
import { TASK_CHANGE_JOB, taskChangeJob, type TaskChangeJobInput } from '../executing/review/taskChangeJob';
import { EXECUTING_RUN, machineStateOf, stageOnDisk, UNREADABLE, VERIFICATION_JOB, WORKTREE_JOB, type PipelineContext, type PipelineEmitted, type PipelineEvent } from './machineTypes';
import { hasRole } from './stageRoles';
import { fixRunOutput, reviewResponseStage } from './reviewResponseStage';
import { isReviewProblem, reviewToAnswer } from '../review/reviewToAnswer';
import { reviewFixesToAnswer, reviewResponseOnly } from './specOffers';
import { reviewTestsJob } from '../review/reviewTestsJob';
import { verificationJob, type VerificationJobInput } from '../verification/verificationJob';
import { moveBaseline } from '../drift/baselineMove';

export type { StateStorePort } from './machineTypes';
export { EXECUTING_RUN, machineStateOf, stageOfValue, stageOnDisk, UNREADABLE, VERIFICATION_JOB, WORKTREE_JOB, type PipelineContext, type PipelineEmitted, type PipelineEvent } from './machineTypes';

/** The caller's word that the closed stage's context was compressed comes only with the move itself. */
const compressedBy = (event: PipelineEvent) => (event.type === 'ADVANCE' || event.type === 'APPROVE') && event.compressionConfirmed === true;

/** What a worktree job is given and gives back. */
interface WorktreeJob {
  repoRoot: string;
  specName: string;
  dir: string;
  location: string;
  signal?: AbortSignal;
}

/** Makes or reuses the feature worktree (git); loaded when first used, as only this stage needs it. */
const worktreeJob = fromPromise<FeatureWorktree, WorktreeJob>(async ({ input, signal }) => {
  const { ensureFeatureWorktree } = await import('../git/featureWorktree.js');
  const both = input.signal ? AbortSignal.any([signal, input.signal]) : signal;
  return ensureFeatureWorktree({ repoRoot: input.repoRoot, specName: input.specName, specDir: input.dir, location: input.location, signal: both });
});

/**
 * The XState machine of one pipeline, generated from its definition: one state per stage plus
 * `failed`, each transition guarded by the named preconditions, which read the guards' verdicts
 * on the spec's facts. It is the one place that decides: every intent of every surface is an
 * event to the spec's actor (src/core/port/request.ts), every answer is the actor's own, emitted
 * as an `answer` event (changed, refused with its reasons, or a question for a person), and what
 * a request changes is written by its effects (effects/, one file a family), with the request's
 * `now`, through the state store, under the run lock the request holds; the stage reports loom's
 * `run --advance` writes before it decides are the move's own first effect (effects/stageReports.ts),
 * after which the actor follows the files and decides the move. Stages added to
 * pipeline.schema.json or workflow.yaml appear here without code changes.
 */
export function createPipelineMachine(def: PipelineDefinition) {
  // Every state's FILES_CHANGED asks where the files put the spec: work it out once per snapshot
  // (without a state file it is inferred from the artifacts, by the guards).
  let lastDisk: { facts: SpecSnapshot; stage: string | null } | undefined;
  const diskStage = (facts: SpecSnapshot) => (lastDisk?.facts === facts ? lastDisk.stage : (lastDisk = { facts, stage: stageOnDisk(def, facts) }).stage);

  /** The step an event asks for from where the files put the spec: chosen by the one chooser. */
  const stepOf = (context: PipelineContext, event: PipelineEvent): { from: string; to: string } | undefined => {
    const from = diskStage(context.facts);
    if (from === null) return undefined;
    if (event.type === 'RECOVER') return { from, to: event.to };
    if (event.type !== 'ADVANCE' && event.type !== 'APPROVE') return undefined;
    if (event.type === 'ADVANCE' && completesPipeline(def, from, event.to)) return { from, to: from };
    const chosen = chooseTransition(def, from, event.type === 'APPROVE' ? { approve: true } : { to: event.to }, context.verdicts);
    return chosen ? { from, to: chosen.to } : undefined;
  };

  /**
   * Whether the person's word is with the event for the step the machine is about to take: given
   * up front (`true`), or for this very step (the spec has not moved since they were asked).
   * Recovering is confirmed by asking for it. An agent's report counts only where loom takes one:
   * passing a gate with `approve`.
   */
  const confirms = (context: PipelineContext, event: PipelineEvent): boolean => {
    if (event.type === 'RECOVER') return true;
    if (event.type !== 'ADVANCE' && event.type !== 'APPROVE') return false;
    // The team's rule (loom.approvals.requirePerson): an agent's report of the person's word is no word.
    if (personRequired(context.verdicts.rules, event)) return false;
    const word = event.confirm;
    if (word === true) return true;
    if (!word) return false;
    if (word.by === 'agent' && event.type !== 'APPROVE') return false;
    const step = stepOf(context, event);
    return step !== undefined && step.from === word.from && step.to === word.to;
  };

  const namedGuards = Object.fromEntries(
    (Object.keys(GUARDS) as GuardName[]).map((name) => [
      name,
      ({ context, event }: { context: PipelineContext; event: PipelineEvent }, params: unknown) =>
        holds(context.verdicts.outcome({ type: name, params } as GuardCall), confirms(context, event), compressedBy(event)),
    ]),
  ) as Record<GuardName, (args: { context: PipelineContext; event: PipelineEvent }, params: unknown) => boolean>;

  const impl = setup({
    types: {
      context: {} as PipelineContext,
      events: {} as PipelineEvent,
      emitted: {} as PipelineEmitted,
      input: {} as Omit<PipelineContext, 'lastRun' | 'runRequest' | 'worktreeRequest' | 'taskChangeRequest' | 'verifyRequest' | 'answering' | 'jobAt'>,
    },
    actors: { executingRun: executingMachine(), worktreeJob, taskChangeJob, verificationJob, reviewTestsJob },
    guards: {
      ...namedGuards,
      /** The way this move takes is the one transition `params` names (chooseTransition decides). */
      chosen: ({ context, event }, params: { to: string; kind: TransitionKind }) => {
        if (event.type === 'RECOVER') return params.kind === 'recover' && event.to === params.to;
        if (event.type !== 'ADVANCE' && event.type !== 'APPROVE') return false;
        const from = diskStage(context.facts);
        if (from === null) return false;
        if (event.type === 'ADVANCE' && advancePassesGate(def, from, event.to)) return false;
        const way = chooseTransition(def, from, event.type === 'APPROVE' ? { approve: true } : { to: event.to }, context.verdicts);
        return way?.to === params.to && way.kind === params.kind;
      },
      completes: ({ event }, params: { stage: string }) => event.type === 'ADVANCE' && completesPipeline(def, params.stage, event.to) && !advancePassesGate(def, params.stage, event.to),
      completed: ({ context }) => context.state !== undefined && isCompleted(context.state),
      hasReason: ({ event }) => event.type === 'FAIL' && event.reason.trim() !== '',
      reapprovable: ({ context, event }, params: { stage: string }) => event.type === 'REAPPROVE' && reapprovalOf(context, params.stage, event.stage) !== undefined,
      diskStageIs: ({ event }, params: { state: string }) => event.type === 'FILES_CHANGED' && machineStateOf(def, diskStage(event.facts)) === params.state,
      /** Run Tasks' preconditions (plan approved, worktree there, task graph sound, files readable). */
      tasksCanRun: ({ context, event }) => event.type === 'RUN_TASKS' && runTasksCheck(def, context.facts, event.input.worktree).ok,
      /** The person agreed to send the tasks to a language model. */
      runConfirmed: ({ event }) => event.type === 'RUN_TASKS' && event.confirm !== undefined,
      worktreeIdle: ({ context }) => context.worktreeRequest === undefined,
      /** One rewind or rejected file at a time. */
      taskChangeIdle: ({ context }) => context.taskChangeRequest === undefined,
      hasStateRecord: ({ context }) => context.state !== undefined,
      /** Leaving out a stage a person must pass needs that person's word. */
      stepsMayChange: ({ context, event }) => event.type === 'ADJUST_STEPS' && stepsChange(def, context, event).problem === undefined,
      /** Changing the steps needs a person's word; an agent's report of it will do unless a stage a person must pass is left out. */
      stepsConfirmed: ({ context, event }) =>
        event.type === 'ADJUST_STEPS' && event.confirm !== undefined && (event.confirm === true || event.confirm.by !== 'agent' || stepsChange(def, context, event).droppedGates.length === 0),
      /** A spec starts on chosen steps only while it has no state record, and with the person's word (or the agent's report of it). */
      startable: ({ context, event }) => event.type === 'START_PIPELINE' && context.facts.stateCondition === 'missing' && event.steps.length > 0 && event.confirm !== undefined,
      taskStateValid: ({ context, event }) => event.type === 'SET_TASK_STATE' && taskStateProblem(context, event) === undefined,
      handoffValid: ({ context, event }) => event.type === 'WRITE_HANDOFF' && handoffProblem(def, context, event) === undefined,
      /** Verification runs at the stage that verifies (loom's verification skill), not before the work is there. */
      atVerification: ({ context }) => hasRole(def, diskStage(context.facts), 'verification'),
      /** Synced by Loom runs at the stage whose role is to sync (loom's index-update), whatever the pipeline calls it. */
      atSync: ({ context }) => hasRole(def, diskStage(context.facts), 'sync'),
      /**
       * The review's fixes go back to the implementer (loom's receiving-code-review): at the stage that
       * answers it or at the gate between rounds; never twice for one feedback (its handoff fresh).
       */
      /** loom's `run --advance` writes the stage's report before it decides this move (stageReports.ts). */
      stageReportDue: ({ context, event }) => stageReportDue(def, diskStage(context.facts), event) !== undefined,
      reviewFixesToAnswer: ({ context }) => reviewFixesToAnswer(def, context.facts, diskStage(context.facts)),
      /** A review with nothing to fix, not answered yet, at the stage that answers it: the tests re-run and the response. */
      reviewResponseOnly: ({ context }) => reviewResponseOnly(def, context.facts, diskStage(context.facts)),
      /** Answering re-runs the project's tests: only where the workspace is trusted. */
      answerTrusted: ({ event }) => event.type === 'ANSWER_REVIEW' && event.input.settings.trusted,
      fixRunCompleted: ({ event }) => fixRunOutput(event).outcome === 'completed',
      /** It runs the project's commands: only where the workspace is trusted. */
      verificationTrusted: ({ event }) => event.type === 'VERIFY' && event.verify.trusted,
      verificationIdle: ({ context }) => context.verifyRequest === undefined,
    },
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

  type StateConfig = NonNullable<Parameters<typeof impl.createMachine>[0]['states']>;
  const states: StateConfig = {};
  const notTaken = (stage: string) => ({ actions: { type: 'answerNotTaken' as const, params: { stage } } });
  // The stage's report first, where loom writes one before deciding a move; the move comes again once it is written.
  const reportsFirst = { guard: 'stageReportDue' as const, actions: 'writeStageReports' as const };
  for (const id of [...def.stages.map((s) => s.id), FAILED_STAGE]) {
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
    states[id] = {
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
    } as never;
    if (stage?.role === 'tasks') Object.assign(states[id] as object, tasksStage(def, id));
    if (stage?.role === 'reviewResponse' || stage?.role === 'reviewGate') Object.assign(states[id] as object, reviewResponseStage(def, id, stage.role));
  }
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
      ].map((e) => [e, notTaken(UNREADABLE)]),
    ),
  } as never;

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
  return impl.createMachine({
    id: `loom-pipeline-${def.type}`,
    context: ({ input }) => input,
    // A pipeline that cannot be read has no stages: every spec of it is unreadable.
    initial: stageOf(def, def.initial) ? def.initial : UNREADABLE,
    on: {
      ANSWERED: { actions: ['takeAnswer', 'emitAnswer'] },
      // loom writes these reports whenever asked, at any stage, a failed or unreadable one too: no stage takes the event for itself.
      WRITE_REPORT: { actions: 'writeReport' },
      // A new spec's first state: at its root, since the stage it names may be one no pipeline reads yet.
      INIT_STATE: { actions: 'initState' },
      STOP_TASKS: { actions: { type: 'answerNotTaken', params: ({ context }: { context: PipelineContext }) => ({ stage: diskStage(context.facts) ?? UNREADABLE }) } as never },
      [`xstate.done.actor.${WORKTREE_JOB}`]: { actions: ['recordWorktree', 'endWorktree'] },
      [`xstate.error.actor.${WORKTREE_JOB}`]: { actions: ['worktreeFailed', 'endWorktree'] },
      TASK_CHANGE: [
        { guard: 'taskChangeIdle', actions: ['startTaskChange', spawnChild('taskChangeJob', { id: TASK_CHANGE_JOB, input: taskChangeInput(def) }) as never] },
        { actions: { type: 'answerNotTaken', params: ({ context }: { context: PipelineContext }) => ({ stage: diskStage(context.facts) ?? UNREADABLE }) } },
      ],
      [`xstate.done.actor.${TASK_CHANGE_JOB}`]: { actions: ['recordTaskChange', 'endTaskChange'] },
      [`xstate.error.actor.${TASK_CHANGE_JOB}`]: { actions: ['taskChangeFailed', 'endTaskChange'] },
      [`xstate.done.actor.${VERIFICATION_JOB}`]: { actions: ['recordVerification', 'endVerification'] },
      [`xstate.error.actor.${VERIFICATION_JOB}`]: { actions: ['verificationFailed', 'endVerification'] },
    } as never,
    states,
  });
}

/** The worktree job's input, from the spec's facts and the event. */
const worktreeInput = ({ context, event }: { context: PipelineContext; event: PipelineEvent }): WorktreeJob => {
  const e = event as Extract<PipelineEvent, { type: 'CREATE_WORKTREE' }>;
  return { repoRoot: context.facts.repoRoot, specName: context.facts.name, dir: context.facts.dir, location: e.location, signal: e.signal };
};

/** A rewind or a rejected file: the spec's facts, the change, and the person's word on the step that stays where it is (a rewind asks first). */
const taskChangeInput =
  (def: PipelineDefinition) =>
  ({ context, event }: { context: PipelineContext; event: PipelineEvent }): TaskChangeJobInput => {
    const e = event as Extract<PipelineEvent, { type: 'TASK_CHANGE' }>;
    const stage = stageOnDisk(def, context.facts);
    const word = e.confirm;
    const confirmed = word === true || (word !== undefined && word.by !== 'agent' && word.from === stage && word.to === stage);
    return { facts: context.facts, change: e.change, confirmed, ...(e.signal ? { signal: e.signal } : {}) };
  };
/** The verification job's input: the spec's facts and the intent's commands. */
const verificationInput =
  (definition: PipelineDefinition) =>
  ({ context, event }: { context: PipelineContext; event: PipelineEvent }): VerificationJobInput => ({
    facts: context.facts,
    definition,
    verify: (event as Extract<PipelineEvent, { type: 'VERIFY' }>).verify,
  });

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
            const { input } = event as Extract<PipelineEvent, { type: 'RUN_TASKS' }>;
            // What the guard found is what the run works with: the preconditions are checked once, here.
            const pre = runTasksCheck(def, context.facts, input.worktree);
            return { ...input, ready: { stage: pre.stage!, worktree: pre.worktree! } };
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

export type PipelineMachine = ReturnType<typeof createPipelineMachine>;
