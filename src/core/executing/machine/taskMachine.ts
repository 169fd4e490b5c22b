import { join } from 'node:path';
import { assign, fromCallback, sendParent, setup, type EventObject } from 'xstate';
import type { TaskFile } from '../../files/taskFile';
import type { TaskState } from '../../files/taskState';
import type { TaskStatus } from '../../files/vocabulary';
import { sha256OfFile } from '../../fs/sha256';
import { behaviorTests, missingTestFixItems, testsAsRecorded } from '../evidence/behaviorClosure';
import { holdForManualFix, holdForReplan, persistBreakerChoice, reopenForReview, skipWithDependents } from './breakerChoice';
import { describeBreakerReason, type BreakerReason, type CircuitBreakerReport } from './circuitBreaker';
import type { WorktreeDiff } from '../evidence/diffProvider';
import { summarizeFixItems, type FixItem } from '../dispatch/fixInstructions';
import { changedFiles, type LoopEnvironment } from './loopEnvironment';
import { claimTask } from '../runLease';
import type { ImplementerResult, JudgeResult } from '../dispatch/subagentCalls';
import { buildTaskHandoff, writeHandoff } from '../taskHandoff';
import { readTaskRunRecord, type TaskRunRecord } from './taskRunRecord';
import type { EvidenceLog } from '../evidence/testEvidence';
import { isTestPath } from '../tools/testFiles';
import { UntrustedWorkspaceError, type TestRun } from '../evidence/testRunner';
import { updateTraceability } from '../evidence/traceabilityUpdate';
import type { BreakerTurnEvent, UserAnswerEvent } from './runEvents';
import {
  breakerRecordOf,
  breakerReportOf,
  deletedTestFixItems,
  failedTestRunFixItem,
  freshTaskState,
  noStatusFixItem,
  pastRetryLimit,
  recordFailure,
  rememberReport,
  testRunStatus,
  type TaskStep,
} from './taskAttempt';
import { dispatchImplementer, dispatchReviewer, readNewProblems, readTaskDiff, runTaskTests, takeDiffBase, taskStep, type TaskStepInput } from './taskSteps';
import { commitTask, keepPartial, mergeTask, openOwnWorktree, prepareManualFix, setAside, workEnvOf, type MergeResult } from './taskWorkspace';
import { countProblems, newProblemFixItems, type NewProblems, type ProblemsBefore } from '../evidence/problems';
import { outsideOwns, unchangedOwns, unchangedOwnsFixItems } from '../evidence/ownedChanges';
import type { DoneCheck } from '../events';
import type { CheckpointRecord } from './taskRunRecord';
import { t } from '../../messages';
import { lazily } from '../../../shared/lazily';
import { closureOf, recordClosure, type TaskClosure } from './taskClosure';
import { isUnexpectedTaskFailure } from './runFailures';
import { loomReviewToFix } from './loomTaskState';
import { answerSentThreads } from '../review/taskReviewRound';

/** After the round's checkpoint: the threads it carried answered with what changed and the implementer's summary. */
const answerThreadsOfRound = (input: TaskStepInput, env: LoopEnvironment) =>
  answerSentThreads({ dir: env.store.dir, specDir: env.specDir }, input.task.id, {
    checkpoints: input.record.checkpoints ?? [],
    worktree: env.featureWorktree,
    ...(input.record.summary ? { summary: input.record.summary } : {}),
    now: env.now(),
    language: env.inputs.language,
    signal: env.signal,
  });

/**
 * One task as a statechart, after loom's loop: pending → implementing (first-implementation) →
 * reviewing → fixing ⟲ (fix mode, `retry_count += 1` per failure) → closing → done; or breaker
 * (past max_retries, or timed-out at once), waiting for the A/B/C choice; blocked; needs-context,
 * waiting for the user's answer.
 *
 * Done means done: after the reviewer's PASS, closing checks that every behavior has its test,
 * that every file the task owns was changed, that the test command passes in the task's worktree
 * (its log kept as evidence) and that the files it changed have no new errors in the Problems
 * panel; each unmet condition goes back to the implementer as a fix item (`done-check` says which).
 * Then the task's changes become its checkpoint, one commit on the feature branch. A task of a
 * parallel batch works in a worktree of its own: its checkpoint is made on its own branch and
 * merged into the feature branch when its turn comes (BREAKER_TURN, in task order); a conflict, or
 * a change outside its owns, opens the breaker at once, naming the files.
 *
 * The task state on disk is its persisted form: every step is written before it starts, and a
 * new actor restores itself from it (`restoring`). A finished task is never dispatched again; one
 * caught mid-implementation is dispatched once more, in first-time mode (its worktree may hold a
 * half-done fix), with its retry count kept; one caught in review or after it resumes there.
 */
export interface TaskMachineInput {
  env: LoopEnvironment;
  task: TaskFile;
  inParallelBatch: boolean;
  /** In a parallel batch an open breaker waits for BREAKER_TURN, so the breakers are settled in task order. */
  holdBreaker: boolean;
}

export type TaskOutcome =
  | { kind: 'done' }
  | { kind: 'skipped' }
  /** `resume`: it failed where no rule expected it; running the tasks again resumes it from its step. */
  | { kind: 'blocked'; reason: string; resume?: true }
  | { kind: 'needs-context'; question: string }
  | { kind: 'replan'; report: CircuitBreakerReport };

export interface TaskMachineOutput {
  task: string;
  outcome: TaskOutcome;
}

interface TaskContext extends TaskMachineInput {
  state: TaskState;
  record: TaskRunRecord;
  /** task-started has been reported: a later answer resumes the step rather than the start. */
  started: boolean;
  /** The task's state file as this actor found it, byte for byte (undefined: it had none). */
  found?: string;
  /** No step of this actor has done its work yet: a run that stops now puts `found` back. */
  untouched: boolean;
  /** What the task's tests and evidence are checked against once the review passed; in memory only until `keepClosure` records it. */
  closure?: { changed: string[]; tests: Map<string, string[]>; missing: string[]; unchanged: string[]; outside: string[] };
  evidence?: string;
  report?: CircuitBreakerReport;
  outcome?: TaskOutcome;
  /** Why a step the task cannot do without (its worktree, its checkpoint, its merge) failed. */
  failure?: string;
}

type TaskEvent = UserAnswerEvent | BreakerTurnEvent;

const taskSha = (c: TaskContext) => sha256OfFile(join(c.env.store.repoRoot, c.task.file));
/** The diff is cut to the task's owns where other work shares its worktree: a parallel batch without worktrees of its own, or a fix among later tasks' changes. */
const ownsOf = (c: TaskContext) => (c.record.worktree ? undefined : c.inParallelBatch || c.record.diff_owns ? c.task.owns : undefined);
const workEnv = (c: TaskContext) => workEnvOf(c.env, c.record);
const stepInput = ({ context: c }: { context: TaskContext }): TaskStepInput => ({ env: workEnv(c), task: c.task, record: c.record, owns: ownsOf(c) });
const forThisTask = (c: TaskContext, e: TaskEvent) => 'task' in e && e.task === c.task.id;
const languageOf = (c: TaskContext) => c.env.inputs.language;
/** What checkClosure found (nothing before it ran): its guards and their reports read it here. */
const checksOf = (c: TaskContext) => c.closure ?? { changed: [], tests: new Map<string, string[]>(), missing: [], unchanged: [], outside: [] };
/** The closure a step after the checks needs: this run's, else the one recorded on disk (or derived again), never assumed. */
const closureNow = (c: TaskContext): TaskClosure =>
  c.closure
    ? { changed: c.closure.changed, tests: c.closure.tests, ...(c.evidence ? { evidence: c.evidence } : {}) }
    : closureOf(c.record, { task: c.task.id, behaviors: c.task.behavior_ids, worktree: c.env.worktree, specDir: c.env.store.dir });

/** The next step as the record says, with the retry budget already checked. */
const resumeTargets = [
  { guard: 'stepIsMerge', target: 'awaitingMerge' },
  { guard: 'stepIsReview', target: 'reviewing' },
  { guard: 'stepIsClose', target: 'closing' },
  { guard: 'fixMode', target: 'fixing' },
  { target: 'implementing' },
] as const;

/** A step the task needs failed (git refused): the task is blocked, with git's reason, and its work stays where it is. */
const blockedOnFailure = [
  { type: 'keepFailure' as const },
  { type: 'setStatus' as const, params: ({ context }: { context: TaskContext }) => ({ status: 'blocked' as const, blocker: context.failure! }) },
  'persistTask' as const,
  { type: 'end' as const, params: ({ context }: { context: TaskContext }) => ({ outcome: { kind: 'blocked' as const, reason: context.failure! } }) },
];

export const taskMachine = lazily(() =>
  setup({
    types: {
      input: {} as TaskMachineInput,
      context: {} as TaskContext,
      events: {} as TaskEvent,
      output: {} as TaskMachineOutput,
    },
    actors: {
      /** Keeps a second dispatch of the same task out while this actor lives. */
      claimTask: fromCallback<EventObject, { dir: string; task: string }>(({ input }) => claimTask(input.dir, input.task)),
      takeDiffBase: taskStep(takeDiffBase),
      dispatchImplementer: taskStep(dispatchImplementer),
      dispatchReviewer: taskStep(dispatchReviewer),
      readTaskDiff: taskStep(readTaskDiff),
      runTaskTests: taskStep(runTaskTests),
      readNewProblems: taskStep(readNewProblems),
      openOwnWorktree: taskStep(openOwnWorktree),
      commitTask: taskStep((input: TaskStepInput, env) => commitTask(input, env)),
      mergeTask: taskStep(mergeTask),
      keepPartial: taskStep(keepPartial),
      setAside: taskStep(setAside),
      prepareManualFix: taskStep(prepareManualFix),
      answerThreads: taskStep(answerThreadsOfRound),
    },
    guards: {
      isDone: ({ context }) => context.state.status === 'done',
      isSkipped: ({ context }) => context.record.skipped !== undefined,
      breakerStillOpen: ({ context }) => {
        if (context.state.status !== 'failed') return false;
        const sha = context.record.breaker?.task_sha256;
        return !sha || sha === taskSha(context);
      },
      wasReplanned: ({ context }) => context.state.status === 'failed',
      awaitsContext: ({ context }) => context.record.awaiting_context !== undefined,
      hasBase: ({ context }) => context.record.base !== undefined,
      started: ({ context }) => context.started,
      stepIsReview: ({ context }) => context.record.step === 'review',
      stepIsClose: ({ context }) => context.record.step === 'close',
      stepIsMerge: ({ context }) => context.record.step === 'merge' && context.record.task_commit !== undefined && context.record.worktree !== undefined,
      /**
       * A task of a parallel batch gets a worktree of its own where the run can make them; one that
       * has one keeps it. A task with a checkpoint already (a file of it rejected) is fixed where
       * its rejected file was put back: the feature worktree.
       */
      needsOwnWorktree: ({ context }) => context.record.worktree !== undefined || (context.inParallelBatch && context.env.taskWorktrees && !context.record.checkpoints?.length),
      hasOwnWorktree: ({ context }) => context.record.worktree !== undefined,
      checkpointsOn: ({ context }) => context.env.checkpoints,
      outsideOwns: ({ context }) => checksOf(context).outside.length > 0,
      ownsUnchanged: ({ context }) => checksOf(context).unchanged.length > 0,
      newProblems: ({ event }) => ((event as unknown as { output: NewProblems[] }).output ?? []).length > 0,
      committedOnOwnBranch: ({ context, event }) => context.record.worktree !== undefined && (event as unknown as { output?: CheckpointRecord }).output !== undefined,
      merged: ({ event }) => (event as unknown as { output: MergeResult }).output.kind === 'merged',
      fixMode: ({ context }) => context.record.mode === 'fix',
      pastRetryLimit: ({ context }) => pastRetryLimit(context.state, context.env.maxRetries),
      implementerTimedOut: ({ event }) => (event as unknown as { output: ImplementerResult }).output.kind === 'timeout',
      implementerMalformed: ({ event }) => (event as unknown as { output: ImplementerResult }).output.kind === 'malformed',
      needsContext: ({ event }) => statusOf(event) === 'NEEDS_CONTEXT',
      reportedBlocked: ({ event }) => statusOf(event) === 'BLOCKED',
      judgeTimedOut: ({ event }) => (event as unknown as { output: JudgeResult }).output.kind === 'timeout',
      judgeMalformed: ({ event }) => (event as unknown as { output: JudgeResult }).output.kind === 'malformed',
      reviewFailed: ({ event }) => verdictOf(event) === 'FAIL',
      deletedTests: ({ event }) => deletedTestsOf(event).length > 0,
      testsMissing: ({ context }) => checksOf(context).missing.length > 0,
      noBehaviors: ({ context }) => context.task.behavior_ids.length === 0,
      cannotRecordEvidence: ({ context }) => evidenceBlocker(context) !== undefined,
      testsFailed: ({ event }) => (event as unknown as { output: { run: TestRun } }).output.run.exitCode !== 0,
      holdsBreaker: ({ context }) => context.holdBreaker,
      choicePersisted: ({ context }) => context.record.breaker?.choice !== undefined,
      offeredChoice: ({ context, event }) => forThisTask(context, event) && event.type === 'BREAKER_CHOICE' && (context.report?.choices.includes(event.choice) ?? false),
      choseA: ({ context }) => context.record.breaker?.choice === 'A',
      choseB: ({ context }) => context.record.breaker?.choice === 'B',
      forThisTask: ({ context, event }) => forThisTask(context, event),
      answered: ({ context, event }) => forThisTask(context, event) && event.type === 'CONTEXT_PROVIDED' && event.context.trim() !== '',
    },
    actions: {
      restore: assign(({ context }) => {
        const found = context.env.store.taskStateText(context.task.id);
        const onDisk = context.env.store.taskState(context.task.id);
        const state = onDisk ?? freshTaskState(context.task.id);
        // A state loom wrote after a failed review: the reviewer's fix items, in fix mode.
        const fromLoom = loomReviewToFix(onDisk);
        const record = fromLoom ?? readTaskRunRecord(onDisk);
        // Caught mid-implementation: the worktree may hold half of a fix, so the task is
        // dispatched again with the whole task (first-time mode), its retry count kept.
        if (!fromLoom && onDisk?.status === 'executing' && (record.step ?? 'implement') === 'implement' && record.mode === 'fix') record.mode = 'first';
        return { state, record, found, untouched: true };
      }),
      resetReplanned: assign(({ context }) => ({
        // A task that had a worktree of its own starts in a new one; its old base was that worktree's.
        record: context.record.worktree ? {} : { base: context.record.base, ...(context.record.checkpoints ? { checkpoints: context.record.checkpoints } : {}) },
        state: { ...context.state, retry_count: 0, last_reviewer_result: null, blocker: null },
      })),
      announceStart: assign(({ context }) => {
        const step = context.record.step ?? (context.state.status === 'reviewing' ? 'review' : 'implement');
        context.env.emit({ type: 'task-started', task: context.task.id, ...(context.state.status !== 'pending' ? { resumedAt: step } : {}) });
        return { started: true, record: { ...context.record, step } };
      }),
      keepBase: assign(({ context, event }) => {
        const { base, problemsBefore } = (event as unknown as { output: { base: string; problemsBefore: ProblemsBefore } }).output;
        return { record: { ...context.record, base, ...(Object.keys(problemsBefore).length ? { problems_before: problemsBefore } : {}) } };
      }),
      keepWorktree: assign(({ context, event }) => ({ record: { ...context.record, worktree: (event as unknown as { output: NonNullable<TaskRunRecord['worktree']> }).output } })),
      keepFailure: assign(({ context, event }) => {
        const error = (event as unknown as { error?: unknown }).error;
        return { failure: t('task.stepFailed', { task: context.task.id, detail: error instanceof Error ? error.message : String(error) }, languageOf(context)) };
      }),
      keepCheckpoint: assign(({ context, event }) => {
        const checkpoint = (event as unknown as { output?: CheckpointRecord }).output;
        // Nothing was committed from a worktree of its own: that worktree is gone (commitTask).
        const { worktree: _gone, ...rest } = context.record;
        return { record: checkpoint ? { ...rest, checkpoints: [...(rest.checkpoints ?? []), checkpoint] } : rest };
      }),
      keepTaskCommit: assign(({ context, event }) => ({ record: { ...context.record, task_commit: (event as unknown as { output: CheckpointRecord }).output.commit, step: 'merge' as const } })),
      keepMerged: assign(({ context, event }) => {
        const merged = (event as unknown as { output: Extract<MergeResult, { kind: 'merged' }> }).output;
        const { worktree: _gone, task_commit: _merged, conflict: _c, ...rest } = context.record;
        return { record: { ...rest, checkpoints: [...(rest.checkpoints ?? []), merged.checkpoint] } };
      }),
      keepConflict: assign(({ context, event }) => {
        const out = (event as unknown as { output: MergeResult }).output;
        return out.kind === 'conflict' ? { record: { ...context.record, conflict: { head: out.head, tree: out.tree } } } : {};
      }),
      /** A's or C's step kept the task's work: on the feature branch (C, its own worktree gone) or on its own branch. */
      keepSetAside: assign(({ context, event }) => {
        const out = (event as unknown as { output: { checkpoint?: CheckpointRecord } }).output;
        const { worktree: _gone, task_commit: _c, conflict: _x, ...rest } = context.record;
        return { record: { ...rest, ...(out.checkpoint ? { checkpoints: [...(rest.checkpoints ?? []), out.checkpoint] } : {}) } };
      }),
      keepManualFix: assign(({ context, event }) => {
        const patch = (event as unknown as { output: Partial<TaskRunRecord> }).output;
        const record: TaskRunRecord = { ...context.record, ...patch };
        for (const k of Object.keys(patch) as (keyof TaskRunRecord)[]) if (patch[k] === undefined) delete record[k];
        return { record };
      }),
      reportDoneCheck: ({ context }, params: { check: DoneCheck; detail: string }) => {
        context.env.logger.info(`${context.task.id} passed its review but is not done: ${params.check}: ${params.detail}`);
        context.env.emit({ type: 'done-check', task: context.task.id, check: params.check, detail: params.detail });
      },
      enterStep: assign(({ context }, params: { step: TaskStep }) => ({ record: { ...context.record, step: params.step } })),
      setStatus: assign(({ context }, params: { status: TaskStatus; blocker?: string | null; lastResult?: string }) => ({
        state: {
          ...context.state,
          status: params.status,
          ...(params.blocker !== undefined ? { blocker: params.blocker } : {}),
          ...(params.lastResult !== undefined ? { last_reviewer_result: params.lastResult } : {}),
        },
      })),
      persistTask: ({ context }) => {
        context.env.store.writeTask({ ...context.state, metadata: { ...context.record } });
        context.env.emit({ type: 'task-status', task: context.task.id, status: context.state.status, retryCount: context.state.retry_count });
      },
      rememberImplementer: assign(({ context, event }) => {
        const result = (event as unknown as { output: ImplementerResult }).output;
        if (result.kind === 'timeout') return {};
        const record = rememberReport(context.record, result.report);
        if (result.kind === 'status') {
          record.implementer_status = result.status;
          if (result.status === 'DONE_WITH_CONCERNS' && !record.concerns && result.detail) record.concerns = result.detail;
        }
        return { record, state: { ...context.state, agent_session_id: result.dispatchId } };
      }),
      askForContext: assign(({ context, event }) => ({ record: { ...context.record, awaiting_context: detailOf(event) || 'the implementer needs more context' } })),
      recordFailure: assign(({ context }, params: { items: FixItem[]; next: TaskStep; result: string }) => recordFailure(context, params.items, params.next, params.result)),
      openBreaker: assign(({ context }, params: { reason: BreakerReason }) => {
        const { env, task } = context;
        const breaker = breakerRecordOf(params.reason, context.record, env.now(), taskSha(context));
        const record = { ...context.record, breaker };
        const state = env.store.writeTask({
          ...context.state,
          status: 'failed',
          blocker: t('breaker.blocker', { reason: describeBreakerReason(params.reason, languageOf(context)) }, languageOf(context)),
          metadata: record,
        });
        env.emit({ type: 'task-status', task: task.id, status: 'failed', retryCount: state.retry_count });
        env.record({ circuit_breaker: { task: task.id, reason: params.reason, opened_at: breaker.opened_at } });
        const report = breakerReportOf(env, task, state, breaker);
        env.emit({ type: 'breaker', report });
        return { state, record, report };
      }),
      reportOpenBreaker: assign(({ context }) => ({ report: breakerReportOf(context.env, context.task, context.state, context.record.breaker) })),
      takeTurn: assign({ inParallelBatch: false }),
      askBreakerChoice: ({ context }) => context.env.emit({ type: 'breaker-choice', task: context.task.id, report: context.report! }),
      persistChoice: assign(({ context, event }) => {
        if (event.type !== 'BREAKER_CHOICE') return {};
        persistBreakerChoice(context.env, context.report!, event.choice);
        const onDisk = context.env.store.taskState(context.task.id)!;
        return { state: onDisk, record: readTaskRunRecord(onDisk) };
      }),
      ignoreChoice: ({ context, event }) => {
        if (event.type === 'BREAKER_CHOICE') context.env.logger.warn(`${event.choice} is not one of the offered choices for ${context.task.id} (${context.report?.choices.join(', ')}); still waiting`);
      },
      holdForReplan: ({ context }) => holdForReplan(context.env, context.report!),
      holdForManualFix: ({ context }) => holdForManualFix(context.env, context.report!),
      askManualFix: ({ context }) => context.env.emit({ type: 'manual-fix', task: context.task.id }),
      reopenForReview: ({ context }) => reopenForReview(context.env, context.task.id),
      skipWithDependents: ({ context }) => skipWithDependents(context.env, context.report!),
      askUser: ({ context }) => context.env.emit({ type: 'needs-context', task: context.task.id, question: context.record.awaiting_context! }),
      keepAnswer: assign(({ context, event }) => {
        if (event.type !== 'CONTEXT_PROVIDED') return {};
        const { awaiting_context: question, ...rest } = context.record;
        return { record: { ...rest, answers: [...(rest.answers ?? []), { question: question!, answer: event.context.trim() }] } };
      }),
      checkClosure: assign(({ context, event }) => {
        const diff = (event as unknown as { output: WorktreeDiff }).output;
        const changed = changedFiles(diff);
        const found = behaviorTests({
          behaviors: context.task.behavior_ids,
          declared: new Map(Object.entries(context.record.declared_tests ?? {})),
          changedFiles: changed,
          worktree: workEnv(context).worktree,
        });
        const touched = diff.files.map((f) => f.path);
        return {
          closure: {
            changed,
            tests: found.tests,
            missing: found.missing,
            // A fix after a rejected file changes that file only: what its checkpoints hold was changed too.
            unchanged: unchangedOwns(context.task.owns, [...touched, ...(context.record.checkpoints ?? []).flatMap((c) => c.files)]),
            // Only in a worktree of its own is every change the task's.
            outside: context.record.worktree ? outsideOwns(context.task.owns, touched) : [],
          },
        };
      }),
      keepEvidence: assign(({ event }) => ({ evidence: (event as unknown as { output: { log: EvidenceLog } }).output.log.file })),
      /** Every check passed: what completion needs goes into the record before the checkpoint, the merge and the worktree's removal. */
      keepClosure: assign(({ context }) => ({ record: recordClosure(context.record, closureNow(context)) })),
      writeCompletion: assign(({ context }) => {
        const { env, task, record } = context;
        const closure = closureNow(context);
        writeHandoff(
          env.store.snapshot(),
          task.id,
          buildTaskHandoff({
            task: task.id,
            summary: record.summary ?? '',
            artifacts: closure.changed,
            exportedInterfaces: record.exported_interfaces ?? [],
            requirements: task.requirements,
            concerns: record.concerns ?? '',
            worktree: env.worktree,
            now: env.now(),
          }),
        );
        const requirementOf = new Map<string, string>();
        for (const r of env.inputs.requirements) for (const b of r.behaviors) requirementOf.set(b.id, r.id);
        const snapshot = env.store.snapshot();
        updateTraceability(
          snapshot,
          task.behavior_ids.map((b) => ({
            requirement: requirementOf.get(b) ?? b.replace(/-B\d+$/, ''),
            behavior: b,
            tasks: [task.id],
            tests: testsAsRecorded(snapshot.dir, env.worktree, closure.tests.get(b) ?? []),
            evidence: closure.evidence ? [closure.evidence] : [],
          })),
        );
        return {
          record: {
            base: record.base,
            completed_at: env.now(),
            ...(record.concerns ? { concerns: record.concerns } : {}),
            ...(record.checkpoints ? { checkpoints: record.checkpoints } : {}),
          },
        };
      }),
      end: assign((_, params: { outcome: TaskOutcome }) => ({ outcome: params.outcome })),
      stepAnswered: assign({ untouched: false }),
      /**
       * The model or the budget stopped the run before any step of this task did its work: its
       * state file goes back to what it was, so the blocker, fix items and retry count a person
       * or a reviewer (or loom) wrote there are as they were; the run's own stop says why.
       */
      putBackUntouched: ({ context, event }) => {
        const error = (event as unknown as { error?: unknown }).error;
        if (!context.untouched || isUnexpectedTaskFailure(error)) return;
        context.env.store.putBackTask(context.task.id, context.found);
        const back = context.env.store.taskState(context.task.id);
        if (back) context.env.emit({ type: 'task-status', task: context.task.id, status: back.status, retryCount: back.retry_count });
      },
      /** Whatever stopped the step is the task's actor's failure: the batch decides what it means (runFailures.ts). */
      rethrow: ({ event }) => {
        throw (event as unknown as { error?: unknown }).error;
      },
    },
  }).createMachine({
    id: 'task',
    context: ({ input }) => ({ ...input, state: freshTaskState(input.task.id), record: {}, started: false, untouched: true }),
    invoke: { src: 'claimTask', input: ({ context }) => ({ dir: context.env.store.dir, task: context.task.id }) },
    initial: 'restoring',
    output: ({ context }) => ({ task: context.task.id, outcome: context.outcome ?? { kind: 'done' } }),
    states: {
      restoring: {
        entry: 'restore',
        always: [
          { guard: 'isDone', target: 'done' },
          { guard: 'isSkipped', target: 'skipped' },
          { guard: 'breakerStillOpen', target: 'breaker', actions: 'reportOpenBreaker' },
          // A task file edited since its breaker opened (re-planned, choice A) starts afresh.
          { guard: 'wasReplanned', target: 'pending', actions: 'resetReplanned' },
          { target: 'pending' },
        ],
      },
      pending: {
        always: [{ guard: 'awaitsContext', target: 'needsContext' }, { target: 'starting' }],
      },
      starting: {
        entry: 'announceStart',
        always: [{ guard: 'needsOwnWorktree', target: 'openingWorktree' }, { guard: 'hasBase', target: 'resuming' }, { target: 'takingBase' }],
      },
      /** A task of a parallel batch: its own worktree, made from the feature branch's head (or found again), recorded before anything runs there. */
      openingWorktree: {
        invoke: {
          src: 'openOwnWorktree',
          input: stepInput,
          onDone: { target: 'worktreeOpen', actions: ['keepWorktree', 'persistTask'] },
          onError: { target: 'blocked', actions: blockedOnFailure },
        },
      },
      worktreeOpen: { always: [{ guard: 'hasBase', target: 'resuming' }, { target: 'takingBase' }] },
      /** The diff base is taken once, when the task first starts; every later save keeps it. */
      takingBase: {
        invoke: { src: 'takeDiffBase', input: stepInput, onDone: { target: 'resuming', actions: 'keepBase' } },
      },
      resuming: { always: [...resumeTargets] },
      implementing: {
        entry: [{ type: 'enterStep', params: { step: 'implement' } }, { type: 'setStatus', params: { status: 'executing', blocker: null } }, 'persistTask'],
        exit: 'stepAnswered',
        invoke: { src: 'dispatchImplementer', input: stepInput, onDone: implementerDone(), onError: { actions: ['putBackUntouched', 'rethrow'] } },
      },
      fixing: {
        entry: [{ type: 'enterStep', params: { step: 'implement' } }, { type: 'setStatus', params: { status: 'executing', blocker: null } }, 'persistTask'],
        exit: 'stepAnswered',
        invoke: { src: 'dispatchImplementer', input: stepInput, onDone: implementerDone(), onError: { actions: ['putBackUntouched', 'rethrow'] } },
      },
      inspecting: {
        invoke: {
          src: 'readTaskDiff',
          input: stepInput,
          onDone: [
            {
              guard: 'deletedTests',
              target: 'retrying',
              actions: {
                type: 'recordFailure',
                params: ({ context, event }) => {
                  const files = deletedTestsOf(event);
                  return { items: deletedTestFixItems(files, languageOf(context)), next: 'implement' as const, result: `FAIL: deleted test files ${files.join(', ')}` };
                },
              },
            },
            { target: 'reviewing' },
          ],
        },
      },
      reviewing: {
        exit: 'stepAnswered',
        entry: [{ type: 'enterStep', params: { step: 'review' } }, { type: 'setStatus', params: { status: 'reviewing', blocker: null } }, 'persistTask'],
        invoke: {
          src: 'dispatchReviewer',
          input: stepInput,
          onError: { actions: ['putBackUntouched', 'rethrow'] },
          onDone: [
            { guard: 'judgeTimedOut', target: 'timedOut', actions: { type: 'openBreaker', params: ({ event }) => ({ reason: timeoutReason(event.output, 'reviewer') }) } },
            // Not the implementer's fault: the review is asked for again, and the failed review counts.
            {
              guard: 'judgeMalformed',
              target: 'retrying',
              actions: { type: 'recordFailure', params: ({ context }) => ({ items: context.record.fix_items ?? [], next: 'review' as const, result: 'FAIL: the reviewer gave no verdict' }) },
            },
            {
              guard: 'reviewFailed',
              target: 'retrying',
              actions: {
                type: 'recordFailure',
                params: ({ event }) => {
                  const items = (event.output as Extract<JudgeResult, { kind: 'verdict' }>).fixItems;
                  return { items, next: 'implement' as const, result: `FAIL: ${summarizeFixItems(items).join('; ')}` };
                },
              },
            },
            { target: 'closing', actions: assign(({ context }) => ({ state: { ...context.state, last_reviewer_result: 'PASS' } })) },
          ],
        },
      },
      /** After PASS (a resumed run starts here, without a second review): tests and evidence for every behavior. */
      closing: {
        entry: [{ type: 'enterStep', params: { step: 'close' } }, { type: 'setStatus', params: { status: 'reviewing', blocker: null } }, 'persistTask'],
        invoke: {
          src: 'readTaskDiff',
          input: stepInput,
          onDone: { target: 'checkingClosure', actions: 'checkClosure' },
        },
      },
      checkingClosure: {
        always: [
          {
            guard: 'outsideOwns',
            target: 'breaker',
            actions: { type: 'openBreaker', params: ({ context }) => ({ reason: { kind: 'outside-owns' as const, files: checksOf(context).outside } }) },
          },
          {
            guard: 'testsMissing',
            target: 'retrying',
            actions: [
              { type: 'reportDoneCheck', params: ({ context }) => ({ check: 'tests-missing' as const, detail: checksOf(context).missing.join(', ') }) },
              {
                type: 'recordFailure',
                params: ({ context }) => ({
                  items: missingTestFixItems(checksOf(context).missing, languageOf(context)),
                  next: 'implement' as const,
                  result: `FAIL: no test for ${checksOf(context).missing.join(', ')}`,
                }),
              },
            ],
          },
          {
            guard: 'ownsUnchanged',
            target: 'retrying',
            actions: [
              { type: 'reportDoneCheck', params: ({ context }) => ({ check: 'owns-unchanged' as const, detail: checksOf(context).unchanged.join(', ') }) },
              {
                type: 'recordFailure',
                params: ({ context }) => ({
                  items: unchangedOwnsFixItems(checksOf(context).unchanged, languageOf(context)),
                  next: 'implement' as const,
                  result: `FAIL: not changed: ${checksOf(context).unchanged.join(', ')}`,
                }),
              },
            ],
          },
          { guard: 'noBehaviors', target: 'checkingProblems' },
          {
            guard: 'cannotRecordEvidence',
            target: 'blocked',
            actions: [
              { type: 'setStatus', params: ({ context }) => ({ status: 'blocked' as const, blocker: evidenceBlocker(context)! }) },
              'persistTask',
              { type: 'end', params: ({ context }) => ({ outcome: { kind: 'blocked' as const, reason: evidenceBlocker(context)! } }) },
            ],
          },
          { target: 'testing' },
        ],
      },
      testing: {
        invoke: {
          src: 'runTaskTests',
          input: stepInput,
          onDone: [
            {
              guard: 'testsFailed',
              target: 'retrying',
              actions: [
                { type: 'reportDoneCheck', params: ({ event }) => ({ check: 'tests-failed' as const, detail: `${event.output.run.command}: ${event.output.log.file}` }) },
                {
                  type: 'recordFailure',
                  params: ({ context, event }) => {
                    const { run, log } = event.output;
                    return { items: [failedTestRunFixItem(run, log.file, languageOf(context))], next: 'implement' as const, result: `FAIL: ${run.command} ${testRunStatus(run, languageOf(context))}` };
                  },
                },
              ],
            },
            { target: 'checkingProblems', actions: 'keepEvidence' },
          ],
        },
      },
      /** The files the task changed, in the Problems panel: an error that was not there when it started sends it back. */
      checkingProblems: {
        invoke: {
          src: 'readNewProblems',
          input: (args: { context: TaskContext }) => ({ ...stepInput(args), changed: closureNow(args.context).changed }),
          onDone: [
            {
              guard: 'newProblems',
              target: 'retrying',
              actions: [
                {
                  type: 'reportDoneCheck',
                  params: ({ event }) => ({ check: 'new-problems' as const, detail: (event.output as NewProblems[]).map((f) => `${f.file} (${f.problems.length})`).join(', ') }),
                },
                {
                  type: 'recordFailure',
                  params: ({ context, event }) => ({
                    items: newProblemFixItems(event.output as NewProblems[], languageOf(context)),
                    next: 'implement' as const,
                    result: `FAIL: ${countProblems(event.output as NewProblems[])} new error(s) in the Problems panel`,
                  }),
                },
              ],
            },
            { target: 'closed' },
          ],
        },
      },
      // Persisted with the next write (its own branch's checkpoint, waiting for its merge; or done).
      closed: { entry: 'keepClosure', always: [{ guard: 'checkpointsOn', target: 'committing' }, { target: 'finishing' }] },
      /** The task's checkpoint: one commit on the feature branch, or on its own branch to be merged. */
      committing: {
        invoke: {
          src: 'commitTask',
          input: stepInput,
          onDone: [
            { guard: 'committedOnOwnBranch', target: 'awaitingMerge', actions: ['keepTaskCommit', 'persistTask'] },
            { target: 'answeringThreads', actions: 'keepCheckpoint' },
          ],
          onError: { target: 'blocked', actions: blockedOnFailure },
        },
      },
      /** In a parallel batch the merges go in task order: the task waits for its turn. */
      awaitingMerge: { always: [{ guard: 'holdsBreaker', target: 'mergeHeld' }, { target: 'merging' }] },
      mergeHeld: {
        entry: sendParent(({ context }) => ({ type: 'TASK_HELD', task: context.task.id })),
        on: { BREAKER_TURN: { target: 'merging', actions: ['takeTurn', assign({ holdBreaker: false })] } },
      },
      merging: {
        invoke: {
          src: 'mergeTask',
          input: stepInput,
          onDone: [
            { guard: 'merged', target: 'answeringThreads', actions: 'keepMerged' },
            { target: 'breaker', actions: ['keepConflict', { type: 'openBreaker', params: ({ event }) => ({ reason: conflictReason(event.output as MergeResult) }) }] },
          ],
          onError: { target: 'blocked', actions: blockedOnFailure },
        },
      },
      /** The comment threads a person sent to this round (Send to the Implementer) get Loom's reply and are resolved; a failure there never holds the task back. */
      answeringThreads: {
        invoke: {
          src: 'answerThreads',
          input: stepInput,
          onDone: 'finishing',
          onError: {
            target: 'finishing',
            actions: ({ context, event }) => context.env.logger.warn(`${context.task.id}: its comment threads were not answered: ${String((event as { error?: unknown }).error)}`),
          },
        },
      },
      finishing: {
        entry: ['writeCompletion', { type: 'setStatus', params: { status: 'done', blocker: null, lastResult: 'PASS' } }, 'persistTask'],
        always: 'done',
      },
      /** A failed attempt: fix mode (or the review again), or the breaker past max_retries. */
      retrying: {
        always: [
          {
            guard: 'pastRetryLimit',
            target: 'breaker',
            actions: { type: 'openBreaker', params: ({ context }) => ({ reason: { kind: 'retries' as const, retryCount: context.state.retry_count, maxRetries: context.env.maxRetries } }) },
          },
          { guard: 'stepIsReview', target: 'reviewing', actions: [{ type: 'setStatus', params: { status: 'reviewing' } }, 'persistTask'] },
          { guard: 'fixMode', target: 'fixing', actions: [{ type: 'setStatus', params: { status: 'executing' } }, 'persistTask'] },
          { target: 'implementing', actions: [{ type: 'setStatus', params: { status: 'executing' } }, 'persistTask'] },
        ],
      },
      /** A subagent ran out of time: the breaker opened at once (never retried automatically). */
      timedOut: { always: 'breaker' },
      breaker: {
        initial: 'opened',
        states: {
          opened: {
            always: [{ guard: 'choicePersisted', target: 'deciding' }, { guard: 'holdsBreaker', target: 'held' }, { target: 'choosing' }],
          },
          held: {
            entry: sendParent(({ context }) => ({ type: 'TASK_HELD', task: context.task.id })),
            on: { BREAKER_TURN: { target: 'opened', actions: ['takeTurn', assign({ holdBreaker: false })] } },
          },
          choosing: {
            entry: 'askBreakerChoice',
            on: { BREAKER_CHOICE: [{ guard: 'offeredChoice', target: 'deciding', actions: 'persistChoice' }, { actions: 'ignoreChoice' }] },
          },
          deciding: {
            always: [{ guard: 'choseA', target: '#task.settingAside' }, { guard: 'choseB', target: 'preparingFix' }, { target: '#task.skipping' }],
          },
          /** B after a conflict: the merge result goes into the task's worktree first, for the person to fix there. */
          preparingFix: {
            invoke: {
              src: 'prepareManualFix',
              input: stepInput,
              onDone: { target: 'manualFix', actions: ['keepManualFix', 'persistTask', 'holdForManualFix'] },
              onError: { target: '#task.blocked', actions: blockedOnFailure },
            },
          },
          manualFix: {
            entry: 'askManualFix',
            on: { MANUAL_FIX_DONE: { guard: 'forThisTask', target: '#task.restoring', actions: 'reopenForReview' } },
          },
        },
      },
      /** Choice A: in a worktree of its own, the task's work is kept on its branch and the worktree goes; the task waits to be re-planned. */
      settingAside: {
        invoke: {
          src: 'setAside',
          input: stepInput,
          onDone: {
            target: 'replan',
            actions: ['keepSetAside', 'persistTask', 'holdForReplan', { type: 'end', params: ({ context }) => ({ outcome: { kind: 'replan' as const, report: context.report! } }) }],
          },
          onError: { target: 'blocked', actions: blockedOnFailure },
        },
      },
      /** Choice C: what the task did is kept (a partial checkpoint, or its own branch), then it and its dependents are skipped. */
      skipping: {
        invoke: {
          src: 'keepPartial',
          input: stepInput,
          onDone: { target: 'skipped', actions: ['keepSetAside', 'persistTask', 'skipWithDependents'] },
          onError: { target: 'blocked', actions: blockedOnFailure },
        },
      },
      needsContext: {
        entry: [{ type: 'setStatus', params: ({ context }) => ({ status: 'blocked' as const, blocker: `waiting for context: ${context.record.awaiting_context}` }) }, 'persistTask', 'askUser'],
        on: {
          CONTEXT_PROVIDED: [
            { guard: 'answered', target: 'answered', actions: ['keepAnswer', { type: 'setStatus', params: { status: 'executing', blocker: null } }, 'persistTask'] },
            { guard: 'forThisTask', target: 'contextDeclined' },
          ],
          CONTEXT_DECLINED: { guard: 'forThisTask', target: 'contextDeclined' },
        },
      },
      answered: { always: [{ guard: 'started', target: 'resuming' }, { target: 'starting' }] },
      contextDeclined: {
        entry: { type: 'end', params: ({ context }) => ({ outcome: { kind: 'needs-context' as const, question: context.record.awaiting_context ?? '' } }) },
        type: 'final',
      },
      blocked: { type: 'final' },
      replan: { type: 'final' },
      skipped: { type: 'final', entry: { type: 'end', params: { outcome: { kind: 'skipped' } } } },
      done: { type: 'final', entry: { type: 'end', params: { outcome: { kind: 'done' } } } },
    },
  }),
);

/** The implementer's answer: timeout opens the breaker, no status is a counted failure, NEEDS_CONTEXT asks, BLOCKED stops. */
function implementerDone() {
  return [
    {
      guard: 'implementerTimedOut',
      target: 'timedOut',
      actions: { type: 'openBreaker', params: ({ event }: { event: { output: ImplementerResult } }) => ({ reason: timeoutReason(event.output, 'implementer') }) },
    },
    {
      guard: 'implementerMalformed',
      target: 'retrying',
      actions: [
        'rememberImplementer',
        {
          type: 'recordFailure',
          params: ({ context }: { context: TaskContext }) => ({
            items: [...(context.record.mode === 'fix' ? (context.record.fix_items ?? []) : []), noStatusFixItem(languageOf(context))],
            next: 'implement' as const,
            result: 'FAIL: the implementer gave no status',
          }),
        },
      ],
    },
    { guard: 'needsContext', target: 'needsContext', actions: ['rememberImplementer', 'askForContext'] },
    {
      guard: 'reportedBlocked',
      target: 'blocked',
      actions: [
        'rememberImplementer',
        { type: 'setStatus', params: ({ event }: { event: { output: ImplementerResult } }) => ({ status: 'blocked' as const, blocker: blockedReason(event) }) },
        'persistTask',
        { type: 'end', params: ({ event }: { event: { output: ImplementerResult } }) => ({ outcome: { kind: 'blocked' as const, reason: blockedReason(event) } }) },
      ],
    },
    { target: 'inspecting', actions: 'rememberImplementer' },
  ] as const;
}

function statusOf(event: unknown): string | undefined {
  const result = (event as { output?: ImplementerResult }).output;
  return result?.kind === 'status' ? result.status : undefined;
}

function detailOf(event: unknown): string {
  const result = (event as { output?: ImplementerResult }).output;
  return result?.kind === 'status' ? result.detail : '';
}

const blockedReason = (event: unknown) => detailOf(event) || 'the implementer reported BLOCKED';

function verdictOf(event: unknown): string | undefined {
  const result = (event as { output?: JudgeResult }).output;
  return result?.kind === 'verdict' ? result.verdict : undefined;
}

/** Test files present when the task started and gone now: the model may not delete tests. */
function deletedTestsOf(event: unknown): string[] {
  const diff = (event as { output?: WorktreeDiff }).output;
  return (diff?.files ?? []).filter((f) => f.change === 'deleted' && isTestPath(f.path)).map((f) => f.path);
}

function timeoutReason(result: ImplementerResult | JudgeResult, role: string): BreakerReason {
  return { kind: 'timeout', role, minutes: result.kind === 'timeout' ? result.minutes : 0 };
}

function conflictReason(out: MergeResult): BreakerReason {
  return out.kind === 'blocked' ? { kind: 'conflict', files: out.files, uncommitted: true } : { kind: 'conflict', files: out.kind === 'conflict' ? out.files : [] };
}

function evidenceBlocker(c: TaskContext): string | undefined {
  if (!c.env.trusted) return new UntrustedWorkspaceError().message;
  if (!c.env.testCommand) return 'no test command is configured, so no evidence can be recorded for its behaviors (set the test command)';
  return undefined;
}
