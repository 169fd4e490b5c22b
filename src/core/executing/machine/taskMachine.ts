import { join } from 'node:path';
import { assign, fromCallback, sendParent, setup, type EventObject } from 'xstate';
import type { TaskFile } from '../../files/taskFile';
import type { TaskState } from '../../files/taskState';
import type { TaskStatus } from '../../files/vocabulary';
import { sha256OfFile } from '../../fs/sha256';
import { behaviorTests, missingTestFixItems, testsAsRecorded } from '../evidence/behaviorClosure';
import { holdForManualFix, holdForReplan, persistBreakerChoice, reopenForReview, skipWithDependents } from './breakerChoice';
import { CIRCUIT_BREAKER_KEY, describeBreakerReason, type BreakerReason, type CircuitBreakerReport } from './circuitBreaker';
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
import { dispatchImplementer, dispatchReviewer, readTaskDiff, runTaskTests, takeDiffBase, taskStep, type TaskStepInput } from './taskSteps';
import { t } from '../../messages';
import { lazily } from '../../../shared/lazily';

/**
 * One task as a statechart, after loom's loop: pending → implementing (first-implementation) →
 * reviewing → fixing ⟲ (fix mode, `retry_count += 1` per failure) → closing (tests and evidence
 * for every behavior) → done; or breaker (past max_retries, or timed-out at once), waiting for
 * the A/B/C choice; blocked; needs-context, waiting for the user's answer.
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

export type TaskOutcome = { kind: 'done' } | { kind: 'skipped' } | { kind: 'blocked'; reason: string } | { kind: 'needs-context'; question: string } | { kind: 'replan'; report: CircuitBreakerReport };

export interface TaskMachineOutput {
  task: string;
  outcome: TaskOutcome;
}

interface TaskContext extends TaskMachineInput {
  state: TaskState;
  record: TaskRunRecord;
  /** task-started has been reported: a later answer resumes the step rather than the start. */
  started: boolean;
  /** What the task's tests and evidence are checked against once the review passed. */
  closure?: { changed: string[]; tests: Map<string, string[]>; missing: string[] };
  evidence?: string;
  report?: CircuitBreakerReport;
  outcome?: TaskOutcome;
}

type TaskEvent = UserAnswerEvent | BreakerTurnEvent;

const taskSha = (c: TaskContext) => sha256OfFile(join(c.env.store.repoRoot, c.task.file));
const ownsOf = (c: TaskContext) => (c.inParallelBatch ? c.task.owns : undefined);
const stepInput = ({ context: c }: { context: TaskContext }): TaskStepInput => ({ env: c.env, task: c.task, record: c.record, owns: ownsOf(c) });
const forThisTask = (c: TaskContext, e: TaskEvent) => 'task' in e && e.task === c.task.id;
const languageOf = (c: TaskContext) => c.env.inputs.language;

/** The next step as the record says, with the retry budget already checked. */
const resumeTargets = [{ guard: 'stepIsReview', target: 'reviewing' }, { guard: 'stepIsClose', target: 'closing' }, { guard: 'fixMode', target: 'fixing' }, { target: 'implementing' }] as const;

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
      testsMissing: ({ context }) => (context.closure?.missing.length ?? 0) > 0,
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
        const onDisk = context.env.store.taskState(context.task.id);
        const state = onDisk ?? freshTaskState(context.task.id);
        const record = readTaskRunRecord(onDisk);
        // Caught mid-implementation: the worktree may hold half of a fix, so the task is
        // dispatched again with the whole task (first-time mode), its retry count kept.
        if (onDisk?.status === 'executing' && (record.step ?? 'implement') === 'implement' && record.mode === 'fix') record.mode = 'first';
        return { state, record };
      }),
      resetReplanned: assign(({ context }) => ({
        record: { base: context.record.base },
        state: { ...context.state, retry_count: 0, last_reviewer_result: null, blocker: null },
      })),
      announceStart: assign(({ context }) => {
        const step = context.record.step ?? (context.state.status === 'reviewing' ? 'review' : 'implement');
        context.env.emit({ type: 'task-started', task: context.task.id, ...(context.state.status !== 'pending' ? { resumedAt: step } : {}) });
        return { started: true, record: { ...context.record, step } };
      }),
      keepBase: assign(({ context, event }) => ({ record: { ...context.record, base: (event as unknown as { output: string }).output } })),
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
        env.store.updateMetadata({ [CIRCUIT_BREAKER_KEY]: { task: task.id, reason: params.reason, opened_at: breaker.opened_at } });
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
          worktree: context.env.worktree,
        });
        return { closure: { changed, tests: found.tests, missing: found.missing } };
      }),
      keepEvidence: assign(({ event }) => ({ evidence: (event as unknown as { output: { log: EvidenceLog } }).output.log.file })),
      writeCompletion: assign(({ context }) => {
        const { env, task, record, closure } = context;
        writeHandoff(
          env.store.snapshot(),
          task.id,
          buildTaskHandoff({
            task: task.id,
            summary: record.summary ?? '',
            artifacts: closure!.changed,
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
            tests: testsAsRecorded(snapshot.dir, env.worktree, closure!.tests.get(b) ?? []),
            evidence: context.evidence ? [context.evidence] : [],
          })),
        );
        return { record: { base: record.base, completed_at: env.now(), ...(record.concerns ? { concerns: record.concerns } : {}) } };
      }),
      end: assign((_, params: { outcome: TaskOutcome }) => ({ outcome: params.outcome })),
    },
  }).createMachine({
    id: 'task',
    context: ({ input }) => ({ ...input, state: freshTaskState(input.task.id), record: {}, started: false }),
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
        always: [{ guard: 'hasBase', target: 'resuming' }, { target: 'takingBase' }],
      },
      /** The diff base is taken once, when the task first starts; every later save keeps it. */
      takingBase: {
        invoke: { src: 'takeDiffBase', input: stepInput, onDone: { target: 'resuming', actions: 'keepBase' } },
      },
      resuming: { always: [...resumeTargets] },
      implementing: {
        entry: [{ type: 'enterStep', params: { step: 'implement' } }, { type: 'setStatus', params: { status: 'executing', blocker: null } }, 'persistTask'],
        invoke: { src: 'dispatchImplementer', input: stepInput, onDone: implementerDone() },
      },
      fixing: {
        entry: [{ type: 'enterStep', params: { step: 'implement' } }, { type: 'setStatus', params: { status: 'executing', blocker: null } }, 'persistTask'],
        invoke: { src: 'dispatchImplementer', input: stepInput, onDone: implementerDone() },
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
        entry: [{ type: 'enterStep', params: { step: 'review' } }, { type: 'setStatus', params: { status: 'reviewing', blocker: null } }, 'persistTask'],
        invoke: {
          src: 'dispatchReviewer',
          input: stepInput,
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
            guard: 'testsMissing',
            target: 'retrying',
            actions: {
              type: 'recordFailure',
              params: ({ context }) => ({
                items: missingTestFixItems(context.closure!.missing, languageOf(context)),
                next: 'implement' as const,
                result: `FAIL: no test for ${context.closure!.missing.join(', ')}`,
              }),
            },
          },
          { guard: 'noBehaviors', target: 'finishing' },
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
              actions: {
                type: 'recordFailure',
                params: ({ context, event }) => {
                  const { run, log } = event.output;
                  return { items: [failedTestRunFixItem(run, log.file, languageOf(context))], next: 'implement' as const, result: `FAIL: ${run.command} ${testRunStatus(run, languageOf(context))}` };
                },
              },
            },
            { target: 'finishing', actions: 'keepEvidence' },
          ],
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
            always: [
              { guard: 'choseA', target: '#task.replan', actions: ['holdForReplan', { type: 'end', params: ({ context }) => ({ outcome: { kind: 'replan' as const, report: context.report! } }) }] },
              { guard: 'choseB', target: 'manualFix', actions: 'holdForManualFix' },
              { target: '#task.skipped', actions: 'skipWithDependents' },
            ],
          },
          manualFix: {
            entry: 'askManualFix',
            on: { MANUAL_FIX_DONE: { guard: 'forThisTask', target: '#task.restoring', actions: 'reopenForReview' } },
          },
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

function evidenceBlocker(c: TaskContext): string | undefined {
  if (!c.env.trusted) return new UntrustedWorkspaceError().message;
  if (!c.env.testCommand) return 'no test command is configured, so no evidence can be recorded for its behaviors (set the test command)';
  return undefined;
}
