import { join } from 'node:path';
import type { TaskFile } from '../files/taskFile';
import type { TaskState } from '../files/taskState';
import type { TaskStatus } from '../files/vocabulary';
import { sha256OfFile } from '../fs/sha256';
import { behaviorTests, missingTestFixItems } from './behaviorClosure';
import { dependentsOf, describeBreakerReason, CIRCUIT_BREAKER_KEY, type BreakerReason, type BreakerRecord, type CircuitBreakerReport } from './circuitBreaker';
import { promptContextOf, promptTaskOf } from './executingInputs';
import { summarizeFixItems, type FixItem } from './fixInstructions';
import type { ImplementerReport } from './implementerReport';
import { changedFiles, diffOf, type LoopEnvironment } from './loopEnvironment';
import { chooseModelTier, mentionsUnknown } from './modelTier';
import { buildFixPrompt, buildImplementerPrompt, buildReviewerPrompt } from './promptBuilder';
import { claimTask } from './runLease';
import { callImplementer, callJudge, type ImplementerResult } from './subagentCalls';
import { buildTaskHandoff, compactHandoffIndex, refreshHandoff, staleArtifacts, upstreamTasks, writeHandoff, type UpstreamEntry } from './taskHandoff';
import { mergeDeclaredTests, readTaskRunRecord, type TaskRunRecord } from './taskRunRecord';
import { failureExcerpt, writeTestLog } from './testEvidence';
import { isTestPath } from './testFiles';
import { UntrustedWorkspaceError } from './testRunner';
import { updateTraceability } from './traceabilityUpdate';

/**
 * One task through loom's loop: implementer (first-implementation, then fix mode) → combined
 * reviewer → PASS, or FAIL with fix items and `retry_count += 1`, until PASS or
 * `retry_count > max_retries`. NEEDS_CONTEXT asks the user and re-dispatches; BLOCKED stops.
 * A timeout opens the breaker at once. After PASS the task's behaviors must have tests and
 * evidence before the core writes its handoff, traceability and `done`.
 *
 * Every step is written to the task state before it starts, so a resumed run starts that step
 * again (never a finished task, never from scratch).
 */
export type TaskOutcome =
  | { kind: 'done' }
  | { kind: 'skipped' }
  | { kind: 'breaker'; report: CircuitBreakerReport }
  | { kind: 'blocked'; reason: string }
  | { kind: 'needs-context'; question: string };

type Step = 'implement' | 'review' | 'close';

export class TaskRun {
  private state!: TaskState;
  private record!: TaskRunRecord;

  constructor(private readonly env: LoopEnvironment, private readonly task: TaskFile, private readonly inParallelBatch: boolean) {}

  async run(): Promise<TaskOutcome> {
    const release = claimTask(this.env.store.dir, this.task.id);
    try {
      return await this.drive();
    } finally {
      release();
    }
  }

  private get owns(): readonly string[] | undefined {
    return this.inParallelBatch ? this.task.owns : undefined;
  }

  private load(): void {
    const onDisk = this.env.store.taskState(this.task.id);
    this.state = onDisk ?? { task_id: this.task.id, status: 'pending', retry_count: 0, agent_session_id: null, last_reviewer_result: null, blocker: null };
    this.record = readTaskRunRecord(onDisk);
  }

  private save(status: TaskStatus, changes: Partial<TaskState> = {}): void {
    const metadata = { ...this.record };
    this.state = this.env.store.writeTask({ ...this.state, ...changes, status, metadata });
    this.env.emit({ type: 'task-status', task: this.task.id, status, retryCount: this.state.retry_count });
  }

  private taskSha(): string | undefined {
    return sha256OfFile(join(this.env.store.repoRoot, this.task.file));
  }

  private async drive(): Promise<TaskOutcome> {
    this.load();
    if (this.state.status === 'done') return { kind: 'done' };
    if (this.record.skipped) return { kind: 'skipped' };
    if (this.state.status === 'failed') {
      // The breaker is open. A task file edited since (re-planned, choice A) starts afresh;
      // otherwise nothing is dispatched until the user has chosen.
      const sha = this.record.breaker?.task_sha256;
      if (!sha || sha === this.taskSha()) return { kind: 'breaker', report: this.report(this.record.breaker) };
      this.record = { base: this.record.base };
      this.state = { ...this.state, retry_count: 0, last_reviewer_result: null, blocker: null };
    }
    if (this.record.awaiting_context) {
      const asked = await this.ask(this.record.awaiting_context);
      if (asked) return asked;
    }

    let step: Step = this.record.step ?? (this.state.status === 'reviewing' ? 'review' : 'implement');
    this.env.emit({ type: 'task-started', task: this.task.id, ...(this.state.status !== 'pending' ? { resumedAt: step } : {}) });
    // The diff base is taken once, when the task first starts; the first save below keeps it.
    this.record.base ??= await this.env.diff.snapshot(this.env.signal);

    for (;;) {
      let next: Step | TaskOutcome;
      this.record.step = step;
      if (step === 'implement') {
        this.save('executing', { blocker: null });
        next = await this.afterImplementer(await this.implement());
      } else if (step === 'review') {
        this.save('reviewing', { blocker: null });
        next = await this.review();
      } else {
        this.save('reviewing', { blocker: null });
        next = await this.close(changedFiles(await diffOf(this.env, this.record.base!, this.owns)));
      }
      if (typeof next !== 'string') return next;
      step = next;
    }
  }

  private async implement(): Promise<ImplementerResult> {
    const env = this.env;
    const ctx = promptContextOf(env.inputs, env.store.snapshot(), env.testCommand);
    const ptask = promptTaskOf(env.inputs, this.task);
    const mode = this.record.mode ?? 'first';
    let prompt: string;
    let staleHandoff = false;
    if (mode === 'first') {
      const upstream = this.upstream();
      staleHandoff = upstream.some((u) => u.changed.length > 0);
      prompt = buildImplementerPrompt(ctx, ptask, { upstreamHandoffs: compactHandoffIndex(upstream, env.inputs.language), answers: this.record.answers });
    } else {
      prompt = buildFixPrompt(ctx, ptask, this.record.fix_items ?? [], { answers: this.record.answers });
    }
    const unknownFacts = mentionsUnknown(`${ptask.text}\n${env.inputs.subagentContext}`);
    const tier = chooseModelTier('implementer', this.task, { staleHandoff, unknownFacts });
    return callImplementer(env, { task: this.task.id, mode, prompt, tier, scope: { kind: 'owns', owns: this.task.owns } });
  }

  /** Upstream handoffs for the compact index, each refreshed first when its fingerprints are stale. */
  private upstream(): UpstreamEntry[] {
    const snapshot = this.env.store.snapshot();
    return upstreamTasks(this.task.id, this.env.tasks).map((id) => {
      const handoff = snapshot.handoffs.get(id);
      if (!handoff) return { task: id, changed: [] };
      const changed = staleArtifacts(handoff, this.env.worktree);
      if (changed.length === 0) return { task: id, handoff, changed };
      const refreshed = refreshHandoff(handoff, this.env.worktree, changed, this.env.now());
      writeHandoff(snapshot, id, refreshed);
      this.env.logger.info(`handoffs/${id}.json was stale (${changed.join(', ')}); refreshed before ${this.task.id}`);
      return { task: id, handoff: refreshed, changed };
    });
  }

  private async afterImplementer(result: ImplementerResult): Promise<Step | TaskOutcome> {
    if (result.kind === 'timeout') return this.openBreaker({ kind: 'timeout', role: 'implementer', minutes: result.minutes });
    this.state.agent_session_id = result.dispatchId;
    this.remember(result.report);
    if (result.kind === 'malformed') {
      const zh = this.env.inputs.language === 'zh';
      const pending = this.record.mode === 'fix' ? this.record.fix_items ?? [] : [];
      return this.fail([...pending, { problem: zh ? '上一次回答没有状态行' : 'the last answer had no status line', direction: zh ? '以一行状态结束：状态：DONE | DONE_WITH_CONCERNS | NEEDS_CONTEXT | BLOCKED' : 'end with one status line: STATUS: DONE | DONE_WITH_CONCERNS | NEEDS_CONTEXT | BLOCKED' }], 'implement', 'FAIL: the implementer gave no status');
    }
    this.record.implementer_status = result.status;
    switch (result.status) {
      case 'NEEDS_CONTEXT': {
        const question = result.detail || 'the implementer needs more context';
        this.record.awaiting_context = question;
        const asked = await this.ask(question);
        return asked ?? (this.record.step ?? 'implement');
      }
      case 'BLOCKED': {
        const reason = result.detail || 'the implementer reported BLOCKED';
        this.save('blocked', { blocker: reason });
        return { kind: 'blocked', reason };
      }
      default: {
        if (result.status === 'DONE_WITH_CONCERNS' && !this.record.concerns && result.detail) this.record.concerns = result.detail;
        const deleted = await this.deletedTests();
        if (deleted.length) {
          const zh = this.env.inputs.language === 'zh';
          return this.fail(deleted.map((f) => ({ problem: zh ? `测试文件 ${f} 被删除` : `the test file ${f} was deleted`, file: f, severity: 'blocker', direction: zh ? '恢复该测试文件；禁止删除测试' : 'restore it; tests may not be deleted' })), 'implement', `FAIL: deleted test files ${deleted.join(', ')}`);
        }
        return 'review';
      }
    }
  }

  private remember(report: ImplementerReport): void {
    if (report.summary) this.record.summary = report.summary;
    if (report.concerns) this.record.concerns = report.concerns;
    if (report.tests.size) this.record.declared_tests = mergeDeclaredTests(this.record.declared_tests, report.tests);
    if (report.exportedInterfaces.length) {
      const byName = new Map((this.record.exported_interfaces ?? []).map((i) => [i.name, i]));
      for (const i of report.exportedInterfaces) byName.set(i.name, i);
      this.record.exported_interfaces = [...byName.values()];
    }
  }

  /** NEEDS_CONTEXT: asks the user. Returns an outcome only when the user gave no answer. */
  private async ask(question: string): Promise<TaskOutcome | undefined> {
    this.save('blocked', { blocker: `waiting for context: ${question}` });
    const answer = await this.env.prompts.askForContext(this.task.id, question, this.env.signal);
    if (answer === undefined || !answer.trim()) return { kind: 'needs-context', question };
    this.record.answers = [...(this.record.answers ?? []), { question, answer: answer.trim() }];
    delete this.record.awaiting_context;
    this.save('executing', { blocker: null });
    return undefined;
  }

  /** Test files present when the task started and gone now: the model may not delete tests. */
  private async deletedTests(): Promise<string[]> {
    const diff = await diffOf(this.env, this.record.base!, this.owns);
    return diff.files.filter((f) => f.change === 'deleted' && isTestPath(f.path)).map((f) => f.path);
  }

  private async review(): Promise<Step | TaskOutcome> {
    const env = this.env;
    const diff = await diffOf(env, this.record.base!, this.owns);
    const ctx = promptContextOf(env.inputs, env.store.snapshot(), env.testCommand);
    const prompt = buildReviewerPrompt(ctx, promptTaskOf(env.inputs, this.task), { diff: diff.text, implementerReport: this.implementerReportText() });
    const judged = await callJudge(env, { task: this.task.id, role: 'reviewer', prompt, tier: chooseModelTier('reviewer', this.task), scope: { kind: 'none' } });
    if (judged.kind === 'timeout') return this.openBreaker({ kind: 'timeout', role: 'reviewer', minutes: judged.minutes });
    if (judged.kind === 'malformed') {
      // Not the implementer's fault: the review is asked for again, and the failed review counts.
      return this.fail(this.record.fix_items ?? [], 'review', 'FAIL: the reviewer gave no verdict');
    }
    if (judged.verdict === 'FAIL') return this.fail(judged.fixItems, 'implement', `FAIL: ${summarizeFixItems(judged.fixItems).join('; ')}`);
    this.state.last_reviewer_result = 'PASS';
    return 'close';
  }

  private implementerReportText(): string {
    const r = this.record;
    const lines = [`STATUS: ${r.implementer_status ?? 'DONE'}`];
    if (r.summary) lines.push('', r.summary);
    const tests = Object.entries(r.declared_tests ?? {});
    if (tests.length) lines.push('', 'Tests:', ...tests.map(([b, refs]) => `- ${b}: ${refs.join(', ')}`));
    if (r.concerns) lines.push('', `Concerns: ${r.concerns}`);
    return lines.join('\n');
  }

  /** After PASS (a resumed run starts here, without a second review): tests and evidence for every behavior, then handoff, traceability, done. */
  private async close(changed: string[]): Promise<Step | TaskOutcome> {
    const env = this.env;
    const zh = env.inputs.language === 'zh';
    const found = behaviorTests({ behaviors: this.task.behavior_ids, declared: new Map(Object.entries(this.record.declared_tests ?? {})), changedFiles: changed, worktree: env.worktree });
    if (found.missing.length) return this.fail(missingTestFixItems(found.missing, env.inputs.language), 'implement', `FAIL: no test for ${found.missing.join(', ')}`);

    let evidence: string | undefined;
    if (this.task.behavior_ids.length > 0) {
      const blocked = !env.trusted ? new UntrustedWorkspaceError().message : !env.testCommand ? 'no test command is configured, so no evidence can be recorded for its behaviors (set the test command)' : undefined;
      if (blocked) {
        this.save('blocked', { blocker: blocked });
        return { kind: 'blocked', reason: blocked };
      }
      const run = await env.testRunner.run(env.testCommand!, env.worktree, { signal: env.signal, timeoutMs: env.testTimeoutMs });
      const log = writeTestLog(env.store.dir, `${this.task.id}-tests`, run, env.now());
      if (run.exitCode !== 0) {
        const status = run.timedOut ? (zh ? '超时' : 'timed out') : `exit code ${run.exitCode}`;
        const item: FixItem = { problem: zh ? `测试命令 ${run.command} 失败（${status}，日志 ${log.file}）` : `the test command ${run.command} failed (${status}; log ${log.file})`, severity: 'blocker', direction: failureExcerpt(run) };
        return this.fail([item], 'implement', `FAIL: ${run.command} ${status}`);
      }
      evidence = log.file;
    }

    writeHandoff(env.store.snapshot(), this.task.id, buildTaskHandoff({
      task: this.task.id,
      summary: this.record.summary ?? '',
      artifacts: changed,
      exportedInterfaces: this.record.exported_interfaces ?? [],
      requirements: this.task.requirements,
      concerns: this.record.concerns ?? '',
      worktree: env.worktree,
      now: env.now(),
    }));
    const requirementOf = new Map<string, string>();
    for (const r of env.inputs.requirements) for (const b of r.behaviors) requirementOf.set(b.id, r.id);
    updateTraceability(env.store.snapshot(), this.task.behavior_ids.map((b) => ({
      requirement: requirementOf.get(b) ?? b.replace(/-B\d+$/, ''),
      behavior: b,
      tasks: [this.task.id],
      tests: found.tests.get(b) ?? [],
      evidence: evidence ? [evidence] : [],
    })));
    this.record = { base: this.record.base, completed_at: env.now(), ...(this.record.concerns ? { concerns: this.record.concerns } : {}) };
    this.save('done', { last_reviewer_result: 'PASS', blocker: null });
    return { kind: 'done' };
  }

  /** A failed attempt: `retry_count += 1`, then fix mode, or the breaker past max_retries. */
  private fail(items: FixItem[], next: Step, result: string): Step | TaskOutcome {
    const retry = this.state.retry_count + 1;
    this.record.fix_items = items;
    this.record.mode = items.length ? 'fix' : this.record.mode;
    this.record.step = next;
    this.state.retry_count = retry;
    this.state.last_reviewer_result = result.slice(0, 1000);
    if (retry > this.env.maxRetries) return this.openBreaker({ kind: 'retries', retryCount: retry, maxRetries: this.env.maxRetries });
    this.save(next === 'review' ? 'reviewing' : 'executing');
    return next;
  }

  private openBreaker(reason: BreakerReason): TaskOutcome {
    const now = this.env.now();
    const issues = reason.kind === 'timeout' ? [describeBreakerReason(reason)] : summarizeFixItems(this.record.fix_items ?? []);
    const breaker: BreakerRecord = { reason, opened_at: now, last_issues: issues, task_sha256: this.taskSha() };
    this.record.breaker = breaker;
    this.save('failed', { blocker: `circuit breaker: ${describeBreakerReason(reason)}` });
    this.env.store.updateMetadata({ [CIRCUIT_BREAKER_KEY]: { task: this.task.id, reason, opened_at: now } });
    const report = this.report(breaker);
    this.env.emit({ type: 'breaker', report });
    return { kind: 'breaker', report };
  }

  private report(breaker: BreakerRecord | undefined): CircuitBreakerReport {
    const snapshot = this.env.store.snapshot();
    const finished = [...this.env.tasks.keys()].filter((id) => snapshot.taskStates.get(id)?.status === 'done');
    return {
      task: this.task.id,
      title: this.task.title,
      reason: breaker?.reason ?? { kind: 'retries', retryCount: this.state.retry_count, maxRetries: this.env.maxRetries },
      lastIssues: breaker?.last_issues ?? (this.state.last_reviewer_result ? [this.state.last_reviewer_result] : []),
      finishedTasks: finished,
      dependents: dependentsOf(this.task.id, this.env.tasks.values()),
      choices: ['A', 'B', 'C'],
    };
  }
}
