import { join } from 'node:path';
import { z } from 'zod';
import { sha256OfFile } from '../fs/sha256';
import type { TaskFile } from '../files/taskFile';
import { normalizeOwnedPath } from '../fs/paths';
import { buildTraceabilityMatrix } from '../trace/traceabilityMatrix';
import { behaviorTests } from './behaviorClosure';
import { CIRCUIT_BREAKER_KEY, describeBreakerReason, type BreakerReason, type BreakerRecord, type CircuitBreakerReport } from './circuitBreaker';
import { promptContextOf } from './executingInputs';
import { summarizeFixItems, type FixItem } from './fixInstructions';
import { parseImplementerReport } from './implementerReport';
import { changedFiles, diffOf, type LoopEnvironment } from './loopEnvironment';
import { chooseModelTier } from './modelTier';
import { buildFixPrompt, buildTestReporterPrompt, type ContextAnswer } from './promptBuilder';
import { callImplementer, callJudge } from './subagentCalls';
import { failureExcerpt, writeTestLog, type EvidenceLog } from './testEvidence';
import { isTestPath } from './testFiles';
import { renderTestReport, TEST_REPORT_FILE, writeTestReport } from './testReport';
import { UntrustedWorkspaceError } from './testRunner';
import { updateTraceability } from './traceabilityUpdate';

/**
 * After every task has passed: the test reporter writes integration tests and judges the whole
 * spec; the core runs the test command, keeps the log in `evidence/`, records it for every
 * finished behavior and writes `test-report.md`. The report passes only when the reporter says
 * PASS, the command exits 0 and every finished behavior is closed. A FAIL goes to the
 * implementer in fix mode (owning what the finished tasks own) under the same retry limit and
 * breaker as a task. Its progress lives in pipeline.state.json `metadata.test_reporter`.
 */
export const TEST_REPORTER = 'test-reporter';
export const TEST_REPORTER_KEY = 'test_reporter';

export type TestReporterOutcome =
  | { kind: 'report'; verdict: 'PASS'; file: string; evidence: EvidenceLog }
  | { kind: 'breaker'; report: CircuitBreakerReport }
  | { kind: 'blocked'; reason: string }
  | { kind: 'needs-context'; question: string };

const RecordSchema = z.looseObject({
  retry_count: z.number().int().min(0).catch(0).default(0),
  step: z.enum(['report', 'fix']).optional().catch(undefined),
  fix_items: z.array(z.object({ problem: z.string(), file: z.string().optional(), location: z.string().optional(), severity: z.string().optional(), direction: z.string().optional() })).optional().catch(undefined),
  answers: z.array(z.object({ question: z.string(), answer: z.string() })).optional().catch(undefined),
  awaiting_context: z.string().optional().catch(undefined),
  base: z.string().optional().catch(undefined),
  breaker: z.looseObject({ reason: z.any(), opened_at: z.string(), last_issues: z.array(z.string()).default([]), choice: z.enum(['A', 'B', 'C']).optional(), chosen_at: z.string().optional() }).optional().catch(undefined),
  last_verdict: z.enum(['PASS', 'FAIL']).optional().catch(undefined),
  passed: z.object({ finished_tasks: z.array(z.string()), evidence_file: z.string(), evidence_sha256: z.string() }).optional().catch(undefined),
  blocker: z.string().optional().catch(undefined),
});

export interface TestReporterRecord {
  retry_count: number;
  step?: 'report' | 'fix';
  fix_items?: FixItem[];
  answers?: ContextAnswer[];
  awaiting_context?: string;
  base?: string;
  breaker?: BreakerRecord;
  last_verdict?: 'PASS' | 'FAIL';
  /** A passing report, reused when a resumed run has nothing new to report on. */
  passed?: { finished_tasks: string[]; evidence_file: string; evidence_sha256: string };
  blocker?: string;
}

export function readTestReporterRecord(env: LoopEnvironment): TestReporterRecord {
  const parsed = RecordSchema.safeParse(env.store.metadata(TEST_REPORTER_KEY) ?? {});
  return (parsed.success ? parsed.data : { retry_count: 0 }) as TestReporterRecord;
}

export function writeTestReporterRecord(env: LoopEnvironment, record: TestReporterRecord): void {
  env.store.updateMetadata({ [TEST_REPORTER_KEY]: record });
}

export class TestReporterRun {
  private record!: TestReporterRecord;

  constructor(private readonly env: LoopEnvironment, private readonly finished: readonly TaskFile[], private readonly skipped: readonly string[]) {}

  private save(): void {
    writeTestReporterRecord(this.env, this.record);
  }

  private get behaviors(): string[] {
    return [...new Set(this.finished.flatMap((t) => t.behavior_ids))];
  }

  /** The test reporter's findings are fixed by an implementer that owns what the finished tasks own. */
  private get fixTask() {
    return {
      id: TEST_REPORTER,
      owns: [...new Set(this.finished.flatMap((t) => t.owns.map(normalizeOwnedPath)))],
      requirements: [...new Set(this.finished.flatMap((t) => t.requirements))],
      behavior_ids: this.behaviors,
    };
  }

  async run(): Promise<TestReporterOutcome> {
    this.record = readTestReporterRecord(this.env);
    const reused = this.reusablePass();
    if (reused) return reused;
    if (this.record.breaker && !this.record.breaker.choice) return { kind: 'breaker', report: this.report(this.record.breaker) };
    if (this.record.awaiting_context) {
      const asked = await this.ask(this.record.awaiting_context);
      if (asked) return asked;
    }
    if (!this.record.base) this.record.base = await this.env.diff.snapshot(this.env.signal);
    delete this.record.blocker;
    let step = this.record.step ?? 'report';
    for (;;) {
      this.record.step = step;
      this.save();
      const next = step === 'fix' ? await this.fix() : await this.reportOnce();
      if (next === 'fix' || next === 'report') step = next;
      else return next;
    }
  }

  /**
   * A crash between a passing report and `handoffs/executing.json` must not dispatch the
   * reporter again: the report is reused while it still passes, its log is unchanged and the
   * same tasks are finished.
   */
  private reusablePass(): TestReporterOutcome | undefined {
    const passed = this.record.passed;
    if (!passed || this.record.step || passed.finished_tasks.join() !== this.finished.map((t) => t.id).join()) return undefined;
    const snapshot = this.env.store.snapshot();
    const report = snapshot.reports.get(TEST_REPORT_FILE);
    const sha = sha256OfFile(join(snapshot.dir, passed.evidence_file));
    if (report?.verdict !== 'PASS' || report.evidence.sha256 !== passed.evidence_sha256 || sha !== passed.evidence_sha256) return undefined;
    return { kind: 'report', verdict: 'PASS', file: TEST_REPORT_FILE, evidence: { file: passed.evidence_file, sha256: sha, command: report.evidence.command ?? '', exitCode: 0 } };
  }

  private async ask(question: string): Promise<TestReporterOutcome | undefined> {
    this.record.awaiting_context = question;
    this.save();
    const answer = await this.env.prompts.askForContext(TEST_REPORTER, question, this.env.signal);
    if (answer === undefined || !answer.trim()) return { kind: 'needs-context', question };
    this.record.answers = [...(this.record.answers ?? []), { question, answer: answer.trim() }];
    delete this.record.awaiting_context;
    this.save();
    return undefined;
  }

  private async fix(): Promise<'fix' | 'report' | TestReporterOutcome> {
    const env = this.env;
    const ctx = promptContextOf(env.inputs, env.store.snapshot(), env.testCommand);
    const task = this.fixTask;
    const prompt = buildFixPrompt(ctx, task, this.record.fix_items ?? [], { answers: this.record.answers });
    const result = await callImplementer(env, { task: TEST_REPORTER, mode: 'fix', prompt, tier: 'standard', scope: { kind: 'owns', owns: task.owns } });
    if (result.kind === 'timeout') return this.openBreaker({ kind: 'timeout', role: 'implementer', minutes: result.minutes });
    if (result.kind === 'malformed') return this.fail([{ problem: 'the last answer had no status line', direction: 'end with one status line: STATUS: DONE | DONE_WITH_CONCERNS | NEEDS_CONTEXT | BLOCKED' }], 'fix');
    if (result.status === 'NEEDS_CONTEXT') return (await this.ask(result.detail || 'the implementer needs more context')) ?? 'fix';
    if (result.status === 'BLOCKED') {
      this.record.blocker = result.detail || 'the implementer reported BLOCKED';
      this.save();
      return { kind: 'blocked', reason: this.record.blocker };
    }
    const diff = await diffOf(env, this.record.base!);
    const deleted = diff.files.filter((f) => f.change === 'deleted' && isTestPath(f.path)).map((f) => f.path);
    if (deleted.length) return this.fail(deleted.map((f) => ({ problem: `the test file ${f} was deleted`, file: f, severity: 'blocker', direction: 'restore it; tests may not be deleted' })), 'fix');
    return 'report';
  }

  private async reportOnce(): Promise<'fix' | 'report' | TestReporterOutcome> {
    const env = this.env;
    const ctx = promptContextOf(env.inputs, env.store.snapshot(), env.testCommand);
    const prompt = buildTestReporterPrompt(ctx, { finishedTasks: this.finished.map((t) => `${t.id} ${t.title}`), answers: this.record.answers });
    const judged = await callJudge(env, { task: TEST_REPORTER, role: 'test-reporter', prompt, tier: chooseModelTier('test-reporter', undefined), scope: { kind: 'tests-only' } });
    if (judged.kind === 'timeout') return this.openBreaker({ kind: 'timeout', role: 'test-reporter', minutes: judged.minutes });
    if (judged.kind === 'malformed') return this.fail(this.record.fix_items ?? [], 'report');

    const blocked = !env.trusted ? new UntrustedWorkspaceError().message : !env.testCommand ? 'no test command is configured, so the test report has no evidence (set the test command)' : undefined;
    if (blocked) {
      this.record.blocker = blocked;
      this.save();
      return { kind: 'blocked', reason: blocked };
    }
    const run = await env.testRunner.run(env.testCommand!, env.worktree, { signal: env.signal, timeoutMs: env.testTimeoutMs });
    const log = writeTestLog(env.store.dir, 'test', run, env.now());
    const reasons: string[] = [];
    const items: FixItem[] = judged.verdict === 'FAIL' ? [...judged.fixItems] : [];
    if (judged.verdict === 'FAIL') reasons.push(`the test reporter says FAIL: ${summarizeFixItems(judged.fixItems).join('; ')}`);
    if (run.exitCode !== 0) {
      const status = run.timedOut ? 'timed out' : `exited with ${run.exitCode}`;
      reasons.push(`${run.command} ${status} (${log.file})`);
      items.push({ problem: `the test command ${run.command} ${status} (log ${log.file})`, severity: 'blocker', direction: failureExcerpt(run) });
    } else {
      await this.recordEvidence(judged.text, log.file);
      const open = buildTraceabilityMatrix(env.store.snapshot()).rows.filter((r) => this.behaviors.includes(r.behavior) && !r.closed);
      for (const r of open) {
        const why = r.tests.some((t) => t.exists) ? 'no evidence file' : 'no existing test file';
        reasons.push(`${r.behavior} is not closed in traceability.json (${why})`);
        items.push({ problem: `${r.behavior} has ${why} in traceability.json`, severity: 'blocker', direction: `write or name a persistent test for ${r.behavior}` });
      }
    }
    const verdict = reasons.length ? 'FAIL' : 'PASS';
    writeTestReport(env.store.snapshot(), renderTestReport({
      specName: env.inputs.specName,
      verdict,
      reporterText: judged.text,
      reasons,
      finishedTasks: this.finished.map((t) => t.id),
      skippedTasks: this.skipped,
      evidence: log,
      now: env.now(),
      language: env.inputs.language,
    }));
    env.emit({ type: 'test-report', verdict, file: TEST_REPORT_FILE, evidenceFile: log.file });
    this.record.last_verdict = verdict;
    if (verdict === 'PASS') {
      this.record = { retry_count: this.record.retry_count, last_verdict: 'PASS', passed: { finished_tasks: this.finished.map((t) => t.id), evidence_file: log.file, evidence_sha256: log.sha256 } };
      this.save();
      return { kind: 'report', verdict: 'PASS', file: TEST_REPORT_FILE, evidence: log };
    }
    return this.fail(items.length ? items : [{ problem: reasons.join('; ') }], 'fix');
  }

  /** The passing log is evidence for every finished behavior; integration tests the reporter named join their behaviors. */
  private async recordEvidence(reporterText: string, logFile: string): Promise<void> {
    const env = this.env;
    const declared = parseImplementerReport(reporterText).tests;
    const changed = changedFiles(await diffOf(env, this.record.base!));
    const found = behaviorTests({ behaviors: this.behaviors, declared, changedFiles: changed, worktree: env.worktree });
    const requirementOf = new Map<string, string>();
    for (const r of env.inputs.requirements) for (const b of r.behaviors) requirementOf.set(b.id, r.id);
    updateTraceability(env.store.snapshot(), this.behaviors.map((b) => ({
      requirement: requirementOf.get(b) ?? b.replace(/-B\d+$/, ''),
      behavior: b,
      tasks: [],
      tests: found.tests.get(b) ?? [],
      evidence: [logFile],
    })));
  }

  private fail(items: FixItem[], next: 'fix' | 'report'): 'fix' | 'report' | TestReporterOutcome {
    this.record.retry_count += 1;
    this.record.fix_items = items;
    this.record.step = next;
    if (this.record.retry_count > this.env.maxRetries) return this.openBreaker({ kind: 'retries', retryCount: this.record.retry_count, maxRetries: this.env.maxRetries });
    this.save();
    return next;
  }

  private openBreaker(reason: BreakerReason): TestReporterOutcome {
    const now = this.env.now();
    const issues = reason.kind === 'timeout' ? [describeBreakerReason(reason)] : summarizeFixItems(this.record.fix_items ?? []);
    this.record.breaker = { reason, opened_at: now, last_issues: issues };
    this.save();
    this.env.store.updateMetadata({ [CIRCUIT_BREAKER_KEY]: { task: TEST_REPORTER, reason, opened_at: now } });
    const report = this.report(this.record.breaker);
    this.env.emit({ type: 'breaker', report });
    return { kind: 'breaker', report };
  }

  private report(breaker: BreakerRecord): CircuitBreakerReport {
    return {
      task: TEST_REPORTER,
      title: 'test report',
      reason: breaker.reason,
      lastIssues: breaker.last_issues,
      finishedTasks: this.finished.map((t) => t.id),
      dependents: [],
      choices: ['A', 'B'],
    };
  }
}
