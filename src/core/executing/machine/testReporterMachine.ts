import { join } from 'node:path';
import { assign, setup } from 'xstate';
import type { TaskFile } from '../../files/taskFile';
import { sha256OfFile } from '../../fs/sha256';
import { buildTraceabilityMatrix } from '../../trace/traceabilityMatrix';
import { behaviorTests, testsAsRecorded } from '../evidence/behaviorClosure';
import { type BreakerReason, type BreakerRecord, type CircuitBreakerReport } from './circuitBreaker';
import type { WorktreeDiff } from '../evidence/diffProvider';
import { summarizeFixItems, type FixItem } from '../dispatch/fixInstructions';
import { parseImplementerReport } from '../dispatch/implementerReport';
import type { LoopEnvironment } from './loopEnvironment';
import type { ImplementerResult, JudgeResult } from '../dispatch/subagentCalls';
import { failureExcerpt, type EvidenceLog } from '../evidence/testEvidence';
import { isTestPath } from '../tools/testFiles';
import { failureWordIn, renderTestReport, TEST_REPORT_FILE, writeTestReport } from '../evidence/testReport';
import { t } from '../../messages';
import { readOptionalText } from '../../fs/readOptional';
import { requirementIdsInSpec } from '../../validators/requirementTaskClosure';
import { UntrustedWorkspaceError, type TestRun } from '../evidence/testRunner';
import { updateTraceability } from '../evidence/traceabilityUpdate';
import type { UserAnswerEvent } from './runEvents';
import type { RunStop } from './runTypes';
import { breakerRecordOf, noStatusFixItem } from './taskAttempt';
import { readTestReporterRecord, TEST_REPORTER_KEY, type TestReporterRecord } from './testReporterRecord';
import { dispatchReporterFix, dispatchTestReporter, readReporterDiff, reportedBehaviors, runReporterTests, takeReporterBase, TEST_REPORTER, type ReporterStepInput } from './testReporterSteps';
import { taskStep } from './taskSteps';
import { lazily } from '../../../shared/lazily';

/**
 * After every task has passed, the test reporter as a statechart: reporting (the reporter writes
 * integration tests and judges the whole spec) → testing (the core runs the test command, keeps
 * the log in `evidence/`, records it for every finished behavior and writes `test-report.md`) →
 * reported; a FAIL goes to fixing (the implementer in fix mode, owning what the finished tasks
 * own) under the same retry limit and breaker as a task, with choices A and B. The report passes
 * only when the reporter says PASS, the command exits 0 and every finished behavior is closed.
 */
export interface TestReporterInput {
  env: LoopEnvironment;
  finished: readonly TaskFile[];
  skipped: readonly string[];
}

export interface TestReporterOutput {
  stop?: RunStop;
  report?: { file: string; evidence: EvidenceLog };
}

interface ReporterContext extends TestReporterInput {
  record: TestReporterRecord;
  started: boolean;
  judged?: Extract<JudgeResult, { kind: 'verdict' }>;
  /** The failure the last check found, for recordFailure. */
  failure?: { items: FixItem[]; next: 'fix' | 'report' };
  report?: CircuitBreakerReport;
  output?: TestReporterOutput;
}

const stepInput = ({ context: c }: { context: ReporterContext }): ReporterStepInput => ({ env: c.env, finished: c.finished, record: c.record });
const forReporter = (e: UserAnswerEvent) => e.task === TEST_REPORTER;
const out = <T>(event: unknown) => (event as { output: T }).output;

function reportOf(c: ReporterContext, breaker: BreakerRecord): CircuitBreakerReport {
  return { task: TEST_REPORTER, title: 'test report', reason: breaker.reason, lastIssues: breaker.last_issues, finishedTasks: c.finished.map((t) => t.id), dependents: [], choices: ['A', 'B'] };
}

function testsBlocker(c: ReporterContext): string | undefined {
  if (!c.env.trusted) return new UntrustedWorkspaceError().message;
  if (!c.env.testCommand) return 'no test command is configured, so the test report has no evidence (set the test command)';
  return undefined;
}

/**
 * A crash between a passing report and `handoffs/executing.json` must not dispatch the
 * reporter again: the report is reused while it still passes, its log is unchanged and the
 * same tasks are finished.
 */
function reusablePass(c: ReporterContext): TestReporterOutput['report'] {
  const passed = c.record.passed;
  if (!passed || c.record.step || passed.finished_tasks.join() !== c.finished.map((t) => t.id).join()) return undefined;
  const snapshot = c.env.store.snapshot();
  const report = snapshot.reports.get(TEST_REPORT_FILE);
  const sha = sha256OfFile(join(snapshot.dir, passed.evidence_file));
  if (report?.verdict !== 'PASS' || report.evidence.sha256 !== passed.evidence_sha256 || sha !== passed.evidence_sha256) return undefined;
  return { file: TEST_REPORT_FILE, evidence: { file: passed.evidence_file, sha256: sha, command: report.evidence.command ?? '', exitCode: 0 } };
}

export const testReporterMachine = lazily(() =>
  setup({
    types: {
      input: {} as TestReporterInput,
      context: {} as ReporterContext,
      events: {} as UserAnswerEvent,
      output: {} as TestReporterOutput,
    },
    actors: {
      takeReporterBase: taskStep(takeReporterBase),
      dispatchTestReporter: taskStep(dispatchTestReporter),
      dispatchReporterFix: taskStep(dispatchReporterFix),
      readReporterDiff: taskStep(readReporterDiff),
      runReporterTests: taskStep(runReporterTests),
    },
    guards: {
      passReusable: ({ context }) => reusablePass(context) !== undefined,
      breakerOpen: ({ context }) => context.record.breaker !== undefined && context.record.breaker.choice === undefined,
      awaitsContext: ({ context }) => context.record.awaiting_context !== undefined,
      hasBase: ({ context }) => context.record.base !== undefined,
      started: ({ context }) => context.started,
      stepIsFix: ({ context }) => context.record.step === 'fix',
      pastRetryLimit: ({ context }) => context.record.retry_count > context.env.maxRetries,
      timedOut: ({ event }) => out<ImplementerResult | JudgeResult>(event).kind === 'timeout',
      malformed: ({ event }) => out<ImplementerResult | JudgeResult>(event).kind === 'malformed',
      needsContext: ({ event }) => {
        const r = out<ImplementerResult>(event);
        return r.kind === 'status' && r.status === 'NEEDS_CONTEXT';
      },
      reportedBlocked: ({ event }) => {
        const r = out<ImplementerResult>(event);
        return r.kind === 'status' && r.status === 'BLOCKED';
      },
      deletedTests: ({ event }) => out<WorktreeDiff>(event).files.some((f) => f.change === 'deleted' && isTestPath(f.path)),
      cannotRunTests: ({ context }) => testsBlocker(context) !== undefined,
      reportPassed: ({ context }) => context.failure === undefined,
      offeredChoice: ({ context, event }) => event.type === 'BREAKER_CHOICE' && forReporter(event) && (context.report?.choices.includes(event.choice) ?? false),
      choseA: ({ context }) => context.record.breaker?.choice === 'A',
      forReporter: ({ event }) => forReporter(event),
      answered: ({ event }) => event.type === 'CONTEXT_PROVIDED' && forReporter(event) && event.context.trim() !== '',
    },
    actions: {
      restore: assign(({ context }) => ({ record: readTestReporterRecord(context.env.store.metadata(TEST_REPORTER_KEY)) })),
      save: ({ context }) => context.env.record({ test_reporter: context.record }),
      reuse: assign(({ context }) => ({ output: { report: reusablePass(context) } })),
      reportOpenBreaker: assign(({ context }) => ({ report: reportOf(context, context.record.breaker!) })),
      start: assign(({ context }) => {
        const { blocker: _cleared, ...record } = context.record;
        return { started: true, record };
      }),
      keepBase: assign(({ context, event }) => ({ record: { ...context.record, base: out<string>(event) } })),
      enterStep: assign(({ context }, params: { step: 'fix' | 'report' }) => ({ record: { ...context.record, step: params.step } })),
      askForContext: assign(({ context, event }) => {
        const r = out<ImplementerResult>(event);
        return { record: { ...context.record, awaiting_context: (r.kind === 'status' && r.detail) || 'the implementer needs more context' } };
      }),
      askUser: ({ context }) => context.env.emit({ type: 'needs-context', task: TEST_REPORTER, question: context.record.awaiting_context! }),
      keepAnswer: assign(({ context, event }) => {
        if (event.type !== 'CONTEXT_PROVIDED') return {};
        const { awaiting_context: question, ...rest } = context.record;
        return { record: { ...rest, answers: [...(rest.answers ?? []), { question: question!, answer: event.context.trim() }] } };
      }),
      block: assign(({ context }, params: { reason: string }) => ({
        record: { ...context.record, blocker: params.reason },
        output: { stop: { outcome: 'blocked' as const, message: `the test report is blocked: ${params.reason}`, stoppedAt: TEST_REPORTER } },
      })),
      declineContext: assign(({ context }) => ({
        output: { stop: { outcome: 'needs-context' as const, message: `the test-report fix needs context: ${context.record.awaiting_context ?? ''}`, stoppedAt: TEST_REPORTER } },
      })),
      fail: assign(({ context }, params: { items: FixItem[]; next: 'fix' | 'report' }) => ({
        record: { ...context.record, retry_count: context.record.retry_count + 1, fix_items: params.items, step: params.next },
      })),
      failChecked: assign(({ context }) => ({
        record: { ...context.record, retry_count: context.record.retry_count + 1, fix_items: context.failure!.items, step: context.failure!.next },
      })),
      openBreaker: assign(({ context }, params: { reason: BreakerReason }) => {
        const { env } = context;
        const { task_sha256: _none, ...breaker } = breakerRecordOf(params.reason, { fix_items: context.record.fix_items }, env.now(), undefined);
        const record = { ...context.record, breaker };
        env.record({ test_reporter: record, circuit_breaker: { task: TEST_REPORTER, reason: params.reason, opened_at: breaker.opened_at } });
        const report = reportOf(context, breaker);
        env.emit({ type: 'breaker', report });
        return { record, report };
      }),
      askBreakerChoice: ({ context }) => context.env.emit({ type: 'breaker-choice', task: TEST_REPORTER, report: context.report! }),
      persistChoice: assign(({ context, event }) => {
        if (event.type !== 'BREAKER_CHOICE') return {};
        const now = context.env.now();
        const record = { ...context.record, breaker: { ...context.record.breaker!, choice: event.choice, chosen_at: now } };
        context.env.record({ test_reporter: record });
        return { record };
      }),
      replan: assign(({ context }) => ({
        output: {
          stop: { outcome: 'replan' as const, message: 'the test report failed past max_retries; re-plan (choice A), then run executing again', stoppedAt: TEST_REPORTER, breaker: context.report },
        },
      })),
      askManualFix: ({ context }) => context.env.emit({ type: 'manual-fix', task: TEST_REPORTER }),
      reopen: ({ context }) => context.env.record({ test_reporter: { retry_count: 0, step: 'report', base: context.record.base, answers: context.record.answers } }),
      keepVerdict: assign(({ event }) => ({ judged: out<Extract<JudgeResult, { kind: 'verdict' }>>(event) })),
      /** The report: the reporter's verdict, the command's exit code and every finished behavior closed. */
      judge: assign(({ context, event }) => {
        const { env, finished } = context;
        const judged = context.judged!;
        const { run, log, changed } = out<{ run: TestRun; log: EvidenceLog; changed: string[] }>(event);
        const behaviors = reportedBehaviors(finished);
        const reasons: string[] = [];
        const items: FixItem[] = judged.verdict === 'FAIL' ? [...judged.fixItems] : [];
        if (judged.verdict === 'FAIL') reasons.push(`the test reporter says FAIL: ${summarizeFixItems(judged.fixItems).join('; ')}`);
        if (run.exitCode !== 0) {
          const status = run.timedOut ? 'timed out' : `exited with ${run.exitCode}`;
          reasons.push(`${run.command} ${status} (${log.file})`);
          items.push({ problem: `the test command ${run.command} ${status} (log ${log.file})`, severity: 'blocker', direction: failureExcerpt(run) });
        } else {
          recordEvidence(env, behaviors, judged.text, changed, log.file);
          const open = buildTraceabilityMatrix(env.store.snapshot()).rows.filter((r) => behaviors.includes(r.behavior) && !r.closed);
          for (const r of open) {
            const why = r.tests.some((t) => t.exists) ? 'no evidence file' : 'no existing test file';
            reasons.push(`${r.behavior} is not closed in traceability.json (${why})`);
            items.push({ problem: `${r.behavior} has ${why} in traceability.json`, severity: 'blocker', direction: `write or name a persistent test for ${r.behavior}` });
          }
        }
        const failureWord = reasons.length ? undefined : failureWordIn(judged.text);
        if (failureWord) {
          const problem = t('testReport.failureWord', failureWord, env.inputs.language);
          reasons.push(problem);
          items.push({ problem, severity: 'blocker', direction: problem });
        }
        const verdict = reasons.length ? 'FAIL' : 'PASS';
        writeTestReport(
          env.store.snapshot(),
          renderTestReport({
            specName: env.inputs.specName,
            verdict,
            reporterText: judged.text,
            reasons,
            finishedTasks: finished.map((t) => t.id),
            requirements: requirementRows(env),
            skippedTasks: context.skipped,
            evidence: log,
            now: env.now(),
            language: env.inputs.language,
          }),
        );
        env.emit({ type: 'test-report', verdict, file: TEST_REPORT_FILE, evidenceFile: log.file });
        if (verdict === 'PASS') {
          const record: TestReporterRecord = {
            retry_count: context.record.retry_count,
            last_verdict: 'PASS',
            passed: { finished_tasks: finished.map((t) => t.id), evidence_file: log.file, evidence_sha256: log.sha256 },
          };
          return { record, failure: undefined, output: { report: { file: TEST_REPORT_FILE, evidence: log } } };
        }
        return { record: { ...context.record, last_verdict: 'FAIL' as const }, failure: { items: items.length ? items : [{ problem: reasons.join('; ') }], next: 'fix' as const } };
      }),
    },
  }).createMachine({
    id: 'testReporter',
    context: ({ input }) => ({ ...input, record: { retry_count: 0 }, started: false }),
    output: ({ context }) => context.output ?? {},
    initial: 'restoring',
    states: {
      restoring: {
        entry: 'restore',
        always: [
          { guard: 'passReusable', target: 'reported', actions: 'reuse' },
          { guard: 'breakerOpen', target: 'breaker', actions: 'reportOpenBreaker' },
          { guard: 'awaitsContext', target: 'needsContext' },
          { target: 'starting' },
        ],
      },
      starting: { always: [{ guard: 'hasBase', target: 'resuming', actions: 'start' }, { target: 'takingBase' }] },
      takingBase: { invoke: { src: 'takeReporterBase', input: stepInput, onDone: { target: 'resuming', actions: ['keepBase', 'start'] } } },
      resuming: { always: [{ guard: 'stepIsFix', target: 'fixing' }, { target: 'reporting' }] },
      fixing: {
        entry: [{ type: 'enterStep', params: { step: 'fix' } }, 'save'],
        invoke: {
          src: 'dispatchReporterFix',
          input: stepInput,
          onDone: [
            {
              guard: 'timedOut',
              target: 'breaker',
              actions: {
                type: 'openBreaker',
                params: ({ event }) => ({ reason: { kind: 'timeout' as const, role: 'implementer', minutes: event.output.kind === 'timeout' ? event.output.minutes : 0 } }),
              },
            },
            { guard: 'malformed', target: 'retrying', actions: { type: 'fail', params: { items: [noStatusFixItem('en')], next: 'fix' as const } } },
            { guard: 'needsContext', target: 'needsContext', actions: 'askForContext' },
            {
              guard: 'reportedBlocked',
              target: 'blocked',
              actions: [{ type: 'block', params: ({ event }) => ({ reason: (event.output.kind === 'status' && event.output.detail) || 'the implementer reported BLOCKED' }) }, 'save'],
            },
            { target: 'inspecting' },
          ],
        },
      },
      inspecting: {
        invoke: {
          src: 'readReporterDiff',
          input: stepInput,
          onDone: [
            {
              guard: 'deletedTests',
              target: 'retrying',
              actions: {
                type: 'fail',
                params: ({ event }) => ({
                  items: event.output.files
                    .filter((f) => f.change === 'deleted' && isTestPath(f.path))
                    .map((f) => ({ problem: `the test file ${f.path} was deleted`, file: f.path, severity: 'blocker', direction: 'restore it; tests may not be deleted' })),
                  next: 'fix' as const,
                }),
              },
            },
            { target: 'reporting' },
          ],
        },
      },
      reporting: {
        entry: [{ type: 'enterStep', params: { step: 'report' } }, 'save'],
        invoke: {
          src: 'dispatchTestReporter',
          input: stepInput,
          onDone: [
            {
              guard: 'timedOut',
              target: 'breaker',
              actions: {
                type: 'openBreaker',
                params: ({ event }) => ({ reason: { kind: 'timeout' as const, role: 'test-reporter', minutes: event.output.kind === 'timeout' ? event.output.minutes : 0 } }),
              },
            },
            { guard: 'malformed', target: 'retrying', actions: { type: 'fail', params: ({ context }) => ({ items: context.record.fix_items ?? [], next: 'report' as const }) } },
            { guard: 'cannotRunTests', target: 'blocked', actions: [{ type: 'block', params: ({ context }) => ({ reason: testsBlocker(context)! }) }, 'save'] },
            { target: 'testing', actions: 'keepVerdict' },
          ],
        },
      },
      testing: {
        invoke: {
          src: 'runReporterTests',
          input: stepInput,
          onDone: { target: 'judged', actions: 'judge' },
        },
      },
      judged: {
        always: [
          { guard: 'reportPassed', target: 'reported', actions: 'save' },
          { target: 'retrying', actions: 'failChecked' },
        ],
      },
      retrying: {
        always: [
          {
            guard: 'pastRetryLimit',
            target: 'breaker',
            actions: { type: 'openBreaker', params: ({ context }) => ({ reason: { kind: 'retries' as const, retryCount: context.record.retry_count, maxRetries: context.env.maxRetries } }) },
          },
          { guard: 'stepIsFix', target: 'fixing', actions: 'save' },
          { target: 'reporting', actions: 'save' },
        ],
      },
      breaker: {
        initial: 'choosing',
        states: {
          choosing: {
            entry: 'askBreakerChoice',
            on: {
              BREAKER_CHOICE: [
                { guard: 'offeredChoice', target: 'deciding', actions: 'persistChoice' },
                {
                  actions: ({ context, event }) =>
                    context.env.logger.warn(`${event.type === 'BREAKER_CHOICE' ? event.choice : '?'} is not one of the offered choices for the test report (A, B); still waiting`),
                },
              ],
            },
          },
          deciding: { always: [{ guard: 'choseA', target: '#testReporter.replan', actions: 'replan' }, { target: 'manualFix' }] },
          manualFix: {
            entry: 'askManualFix',
            on: { MANUAL_FIX_DONE: { guard: 'forReporter', target: '#testReporter.restoring', actions: 'reopen' } },
          },
        },
      },
      needsContext: {
        entry: ['save', 'askUser'],
        on: {
          CONTEXT_PROVIDED: [
            { guard: 'answered', target: 'answered', actions: ['keepAnswer', 'save'] },
            { guard: 'forReporter', target: 'contextDeclined', actions: 'declineContext' },
          ],
          CONTEXT_DECLINED: { guard: 'forReporter', target: 'contextDeclined', actions: 'declineContext' },
        },
      },
      answered: { always: [{ guard: 'started', target: 'resuming' }, { target: 'starting' }] },
      contextDeclined: { type: 'final' },
      blocked: { type: 'final' },
      replan: { type: 'final' },
      reported: { type: 'final' },
    },
  }),
);

/** Every requirement spec.md or requirements.json names, with its behaviors and whether traceability closes them all. */
function requirementRows(env: LoopEnvironment): { id: string; behaviors: string[]; closed: boolean }[] {
  const snapshot = env.store.snapshot();
  const rows = buildTraceabilityMatrix(snapshot).rows;
  const named = requirementIdsInSpec(readOptionalText(join(snapshot.dir, 'spec.md')) ?? '');
  const ids = [...new Set([...named, ...(snapshot.requirements?.requirements.map((r) => r.id) ?? [])])];
  return ids.map((id) => {
    const mine = rows.filter((r) => r.requirement === id);
    return { id, behaviors: mine.map((r) => r.behavior), closed: mine.length > 0 && mine.every((r) => r.closed) };
  });
}

/** The passing log is evidence for every finished behavior; integration tests the reporter named join their behaviors. */
function recordEvidence(env: LoopEnvironment, behaviors: string[], reporterText: string, changed: string[], logFile: string): void {
  const declared = parseImplementerReport(reporterText).tests;
  const found = behaviorTests({ behaviors, declared, changedFiles: changed, worktree: env.worktree });
  const requirementOf = new Map<string, string>();
  for (const r of env.inputs.requirements) for (const b of r.behaviors) requirementOf.set(b.id, r.id);
  const snapshot = env.store.snapshot();
  updateTraceability(
    snapshot,
    behaviors.map((b) => ({
      requirement: requirementOf.get(b) ?? b.replace(/-B\d+$/, ''),
      behavior: b,
      tasks: [],
      tests: testsAsRecorded(snapshot.dir, env.worktree, found.tests.get(b) ?? []),
      evidence: [logFile],
    })),
  );
}
