import * as vscode from 'vscode';
import { NearLimitNotice } from '../credits/nearLimitNotice';
import { type Draft, commandForStage } from '../../core/port/authoring';
import type { ExecutingOutcome } from '../../core/port/executing';
import { LoomError, SpecLockedError } from '../../core/port/errors';
import {
  acquirePipelineLease,
  pipelineHeldElsewhere,
  runPipeline,
  type ReviewOutcome,
  type RunMode,
  type RunPorts,
  type RunStop,
  type StopReason,
  type TasksOutcome,
  currentStop,
  stateFacts,
  waitsForPerson,
  type RunStopRecord,
  type RunStopsFile,
} from '../../core/port/pipelineRun';
import { request } from '../../core/port/request';
import { askPerson, confirmQuestion, type Action } from '../commands/answers';
import { notify, openSpecFile, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import { clockTime, md, splitSpecName } from '../format';
import { VsCodeModelSelector } from '../lm/modelSelector';
import type { SpecEntry } from '../specs/specRegistry';
import type { DashboardRun } from '../../shared/dashboardModel';
import type { ActiveRunsFile } from './activeRuns';
import { dashboardRuns } from './dashboardRuns';
import { syncAnswered } from './syncCommand';
import { runVerification } from './verifyCommand';
import { t } from '../../core/port/messages';

/** The context key the tree's and the palette's Stop Pipeline read. */
const RUNNING_CONTEXT = 'loom.pipelineRunning';

/** The one action that continues a run stopped for this reason (none for a finished one); running it again is the same command again (`by`). */
function continueAction(runs: PipelineRuns, e: SpecEntry, stop: RunStop, mode: RunMode, by?: RunStopRecord['by']): Action | undefined {
  const command =
    (id: string, args: Record<string, unknown> = {}) =>
    () =>
      void vscode.commands.executeCommand(id, { specDir: e.dir, ...args });
  const again = by === 'run-tasks' ? { title: t('ask.runTasks.ok'), run: command('loom.runTasks') } : { title: t('host.pipelineRun.runAgain'), run: () => void runs.start(e, mode) };
  const reasons: Record<StopReason, Action | undefined> = {
    'approval-gate': {
      title: t('host.pipelineRun.approveContinue'),
      run: () =>
        void (vscode.commands.executeCommand('loom.approve', { specDir: e.dir }) as Thenable<CommandOutcome | undefined>).then((o) => {
          if (o?.status === 'done') void runs.start(e, mode);
        }),
    },
    'stale-approval': {
      title: t('host.pipelineRun.approveAgainContinue'),
      run: () =>
        void (vscode.commands.executeCommand('loom.reapprove', { specDir: e.dir }) as Thenable<CommandOutcome | undefined>).then((o) => {
          if (o?.status === 'done') void runs.start(e, mode);
        }),
    },
    'review-gate': { title: t('host.commands.open', { file: 'review-feedback.md' }), run: () => openSpecFile(e, 'review-feedback.md') },
    'review-response': { title: t('view.next.answerReview'), run: command('loom.answerReview') },
    breaker: { title: t('host.chat.openDashboard'), run: command('loom.openDashboard') },
    'needs-context': { title: t('host.chat.openDashboard'), run: command('loom.openDashboard') },
    budget: {
      title: t('host.pipelineRun.openSettings'),
      // The credits budget's stop opens its own setting; the token budget's, the token budget.
      run: () => void vscode.commands.executeCommand('workbench.action.openSettings', stop.message.includes(t('credits.budgetStopStart')) ? 'loom.budget.credits' : 'loom.executing.tokenBudget'),
    },
    'check-failed': { title: t('host.chat.openDashboard'), run: command('loom.openDashboard') },
    'verification-failed': { title: t('host.commands.open', { file: 'verify-report.md' }), run: () => openSpecFile(e, 'verify-report.md') },
    'model-unavailable': { title: t('host.pipelineRun.openSettings'), run: () => void vscode.commands.executeCommand('workbench.action.openSettings', 'loom.models') },
    'model-error': again,
    'missing-input': stop.file
      ? { title: t('host.commands.open', { file: stop.file }), run: () => openSpecFile(e, stop.file!) }
      : { title: t('host.chat.openDashboard'), run: command('loom.openDashboard') },
    'model-refused': {
      title: t('host.pipelineRun.answerLoom'),
      run: () => void vscode.commands.executeCommand('workbench.action.chat.open', { query: `@loom /${commandForStage(stop.stage)?.name ?? ''} `, isPartialQuery: true }),
    },
    'drafts-declined': again,
    declined: again,
    refused: { title: t('host.chat.openDashboard'), run: command('loom.openDashboard') },
    'tasks-stopped': again,
    stopped: again,
    'failed-stage': { title: t('host.commands.recover'), run: command('loom.recover') },
    'unreadable-state': { title: t('host.commands.open', { file: 'pipeline.state.json' }), run: command('loom.openStateFile') },
    error: { title: t('host.executing.openLog'), run: () => runs.showLog() },
    done: undefined,
  };
  return reasons[stop.reason];
}

/** What Run Tasks tells the stop records when it runs on its own (PipelineRuns keeps them). */
export interface TasksRunStops {
  tasksStarted(dir: string): void;
  tasksEnded(e: SpecEntry, stop: RunStop | undefined): void;
}

/** A spec whose run stopped and waits for the person: since when, where, why. */
export interface WaitingRun {
  dir: string;
  at: string;
  stage: string;
  reason: StopReason;
  message: string;
}

/**
 * Loom: Run Pipeline's runs, one per spec at most: each drives its spec through the core's run
 * (src/core/pipelineRun) with this window's ports (the model of vscode.lm, the person's
 * answers, the executing command's subagents), shows where it is in the status bar, and says
 * why it stopped with the one action that continues it. Where a run stopped is kept (its stop
 * record), and every view reads it only while the spec's files still say what they said then.
 */
export class PipelineRuns implements vscode.Disposable, TasksRunStops {
  private readonly running = new Map<string, { controller: AbortController; mode: RunMode; stage: string; lines: { stage: string; line: string }[] }>();
  /** Specs whose Run Tasks, started on its own, is under way: their earlier stop is not shown meanwhile. */
  private readonly tasksRunning = new Set<string>();
  /** The status bar item: the run under way, else the newest stop that waits for the person. */
  readonly status = vscode.window.createStatusBarItem('loom.pipelineRun', vscode.StatusBarAlignment.Left, 99);
  private readonly changed = new vscode.EventEmitter<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private disposed = false;
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly ctx: CommandContext,
    /** The runs under way: a window reload resumes them from loom's files. */
    private readonly active: ActiveRunsFile,
    /** Where each spec's last run stopped: survives a reload. */
    private readonly stops: RunStopsFile,
  ) {
    this.status.name = t('host.pipelineRun.loomPipelineRun');
    dashboardRuns.provider = { of: (dir) => this.dashboard(dir), onDidChange: this.changed.event };
    // A stop holds while the spec's files say the same: any change (git, loom's CLI, an approval) may end it.
    this.subscriptions.push(ctx.registry.onDidChange(() => this.show()));
    void ctx.registry.ready.then(() => !this.disposed && this.show());
  }

  /** The spec's last stop, if its files still say what they said when it stopped. */
  private currentStop(dir: string): RunStopRecord | undefined {
    const record = this.stops.get(dir);
    if (!record) return undefined;
    const e = this.ctx.registry.peek(dir);
    return e ? currentStop(record, stateFacts(e.spec.stage, e.spec.snapshot)) : undefined;
  }

  /** The spec's run waits for the person: stopped (not finished, not stopped by them) and still where it stopped. */
  waiting(dir: string): WaitingRun | undefined {
    if (this.running.has(dir) || this.tasksRunning.has(dir)) return undefined;
    const r = this.currentStop(dir);
    if (!r || !waitsForPerson(r.stop.reason)) return undefined;
    return { dir, at: r.at, stage: r.stop.stage, reason: r.stop.reason, message: r.stop.message };
  }

  /** Every spec whose run waits for the person, the newest stop first. */
  allWaiting(): WaitingRun[] {
    return this.stops.list().flatMap((r) => this.waiting(r.dir) ?? []);
  }

  /** The dashboard's view of the spec's run: live while it runs, else where it stopped. */
  private dashboard(dir: string): DashboardRun | undefined {
    const live = this.running.get(dir);
    if (live) {
      const stages = [...new Set(live.lines.map((l) => l.stage))].map((stage) => ({
        stage,
        work: '',
        ms: 0,
        rounds: 0,
        tokens: 0,
        wrote: [],
        transcript: live.lines.filter((l) => l.stage === stage).map((l) => l.line),
      }));
      return { running: true, mode: live.mode, stage: live.stage, stages };
    }
    if (this.tasksRunning.has(dir)) return undefined;
    // Derived from the spec's files as they are now: a stop they no longer say is not shown.
    const record = this.currentStop(dir);
    const e = this.ctx.registry.entry(dir);
    if (!record || !e) return undefined;
    const { stop } = record;
    const action = continueAction(this, e, stop, record.mode, record.by);
    return {
      running: false,
      mode: record.mode,
      stage: stop.stage,
      reason: stop.reason,
      message: stop.message,
      since: record.at,
      ...(action ? { action: action.title } : {}),
      stages: stop.stages.map((s) => ({
        stage: s.stage,
        work: s.work,
        ms: s.ms,
        rounds: s.rounds,
        tokens: s.tokens,
        wrote: s.wrote,
        transcript: s.transcript,
        ...(s.file ? { file: `${this.ctx.registry.entry(dir)?.spec.snapshot.specDir ?? ''}/${s.file}` } : {}),
      })),
    };
  }

  /** Loom: Continue Pipeline: the one action that continues the spec's stopped run (the dashboard's "Needs you"). */
  continue(dir: string): CommandOutcome {
    const record = this.currentStop(dir);
    const e = this.ctx.registry.entry(dir);
    const action = record && e ? continueAction(this, e, record.stop, record.mode, record.by) : undefined;
    if (!action) return { status: 'refused', message: t('host.pipelineRun.noPipelineRunSpecWaits'), reasons: [] };
    action.run();
    return { status: 'done', specDir: dir };
  }

  dispose(): void {
    // A window closing or reloading ends its runs here; they stay remembered, so the next window resumes them.
    this.disposed = true;
    dashboardRuns.provider = undefined;
    for (const r of this.running.values()) r.controller.abort();
    for (const s of this.subscriptions) s.dispose();
    this.status.dispose();
    this.changed.dispose();
  }

  showLog(): void {
    this.ctx.log.show();
  }

  isRunning(dir: string): boolean {
    return this.running.has(dir);
  }

  /** The runs a reload interrupted, started again where loom's files say they are. */
  async resume(): Promise<void> {
    const saved = this.active.read().filter((r) => vscode.workspace.getWorkspaceFolder(vscode.Uri.file(r.dir)));
    if (!saved.length) return;
    await this.ctx.registry.start();
    for (const r of saved) {
      const e = this.ctx.registry.entry(r.dir);
      if (e) void this.start(e, r.mode);
      else this.active.forget(r.dir);
    }
  }

  private show(): void {
    void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT, this.running.size > 0);
    if (this.disposed) return;
    const [first] = [...this.running.entries()];
    if (!first) {
      this.showWaiting();
      return;
    }
    const [dir, r] = first;
    const feature = splitSpecName(this.ctx.registry.entry(dir)?.spec.snapshot.name ?? dir).feature;
    this.status.text = `$(sync~spin) ${t('host.pipelineRun.loom', { feature, stage: r.stage })}`;
    this.status.accessibilityInformation = undefined;
    this.status.tooltip = t('host.pipelineRun.loomRunningPipelineClickStop', { feature, t: r.mode === 'autopilot' ? t('host.pipelineRun.autopilot') : t('host.pipelineRun.supervised') });
    this.status.command = { title: t('host.pipelineRun.stopPipeline'), command: 'loom.stopPipeline', arguments: [{ specDir: dir }] };
    this.status.show();
  }

  /** No run under way: the newest stop that waits for the person, with its one action a click away. */
  private showWaiting(): void {
    const waiting = this.allWaiting();
    const [w] = waiting;
    if (!w) {
      this.status.hide();
      return;
    }
    const feature = splitSpecName(this.ctx.registry.peek(w.dir)?.spec.snapshot.name ?? w.dir).feature;
    const since = clockTime(w.at);
    this.status.text = `$(bell) ${t('host.pipelineRun.loomNeedsYou', { feature, stage: w.stage })}`;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${md(t('host.pipelineRun.waitsYouAtSince', { feature, stage: w.stage, since }))}**\n\n${md(w.message)}\n\n`);
    if (waiting.length > 1) tooltip.appendMarkdown(`${md(t('host.pipelineRun.moreSpecSWaitYou', { count: waiting.length - 1 }))}\n\n`);
    tooltip.appendMarkdown(md(t('host.pipelineRun.clickContinue')));
    this.status.tooltip = tooltip;
    this.status.accessibilityInformation = { label: t('host.pipelineRun.loomWaitsYouAtSince', { feature, stage: w.stage, since, message: w.message }), role: 'button' };
    this.status.command = { title: t('host.pipelineRun.continuePipeline'), command: 'loom.continuePipeline', arguments: [{ specDir: w.dir }] };
    this.status.show();
  }

  /** Starts a run on the spec, unless one runs there already (never twice on one spec). */
  async start(e: SpecEntry, mode: RunMode): Promise<CommandOutcome> {
    const feature = splitSpecName(e.spec.snapshot.name).feature;
    if (this.running.has(e.dir)) {
      const message = t('host.pipelineRun.pipelineAlreadyRunning', { feature });
      notify('info', message);
      return { status: 'refused', message, reasons: [] };
    }
    // Never twice on one spec across windows either: the run holds the spec's lock, as Run Tasks does.
    let release: () => void;
    try {
      release = acquirePipelineLease(e.spec.snapshot, new Date().toISOString());
    } catch (err) {
      if (!(err instanceof SpecLockedError)) throw err;
      const message = pipelineHeldElsewhere(e.spec.snapshot, err);
      notify('warning', message);
      return { status: 'refused', message, reasons: [] };
    }
    const controller = new AbortController();
    const run = { controller, mode, stage: e.spec.stage ?? '-', lines: [] as { stage: string; line: string }[] };
    this.running.set(e.dir, run);
    this.show();
    this.changed.fire(e.dir);
    const log = this.ctx.log.component('pipelineRun');
    log.info(`${e.spec.snapshot.specDir}: run started (${mode}) at ${run.stage}`);
    let stop: RunStop;
    try {
      this.active.remember({ dir: e.dir, mode });
      stop = await runPipeline(
        e.spec,
        this.ports(e, mode, controller.signal, (stage, line) => {
          run.stage = stage;
          run.lines.push({ stage, line });
          log.info(`${e.spec.snapshot.specDir} [${stage}] ${line}`);
          this.show();
        }),
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // A typed error of the core names its cause (a dirty repository, a lock): a refusal. Anything else is a fault of the run, with its log.
      stop =
        err instanceof LoomError
          ? { reason: 'refused', stage: e.spec.stage ?? '-', message, stages: [] }
          : { reason: 'error', stage: e.spec.stage ?? '-', message: t('host.pipelineRun.runStoppedError', { message }), stages: [] };
      log.error(`${e.spec.snapshot.specDir}: run failed: ${message}`);
    } finally {
      release();
      this.running.delete(e.dir);
      if (!this.disposed) {
        this.active.forget(e.dir);
        this.show();
      }
    }
    if (this.disposed) return { status: 'cancelled' };
    this.keepStop(e, stop, mode);
    const action = continueAction(this, e, stop, mode);
    // The views read the kept stop from here: the tree's row and the dashboard redraw on this event.
    this.show();
    this.changed.fire(e.dir);
    log.info(`${e.spec.snapshot.specDir}: run stopped (${stop.reason}) at ${stop.stage}: ${stop.message}`);
    const text =
      stop.reason === 'done'
        ? t('host.pipelineRun.text', { feature, message: stop.message })
        : e.spec.stage === null
          ? t('host.pipelineRun.needsYou', { feature, message: stop.message })
          : t('host.pipelineRun.needsYouAt', { feature, stage: stop.stage, message: stop.message });
    notify(stop.reason === 'done' || stop.reason === 'stopped' ? 'info' : 'warning', text, action ? [action] : []);
    return { status: 'done', specDir: e.dir, outcome: stop.reason, to: stop.stage, message: stop.message };
  }

  /** Run Tasks started on its own is under way on the spec (not Run Pipeline's, which keeps its own stop). */
  tasksStarted(dir: string): void {
    if (this.running.has(dir) || this.disposed) return;
    this.tasksRunning.add(dir);
    this.show();
    this.changed.fire(dir);
  }

  /**
   * Run Tasks started on its own ended: its stop is kept as Run Pipeline's is (the same record,
   * the same views, the same "since"), and its one action runs the tasks again. `stop` undefined:
   * it ended before it ran (refused, not confirmed) and the earlier stop stays as it was.
   */
  tasksEnded(e: SpecEntry, stop: RunStop | undefined): void {
    const ours = this.tasksRunning.delete(e.dir);
    if (this.running.has(e.dir) || this.disposed) return;
    if (stop) this.keepStop(e, stop, 'supervised', 'run-tasks');
    if (!stop && !ours) return;
    this.show();
    this.changed.fire(e.dir);
  }

  /** The stop recorded with the state it is about, so a reload still shows it and a change of the state ends it. */
  private keepStop(e: SpecEntry, stop: RunStop, mode: RunMode, by?: RunStopRecord['by']): void {
    // The spec's facts are current: every write of the run was a request or a change of the spec, which read what it wrote.
    const facts = stateFacts(e.spec.stage, e.spec.snapshot);
    try {
      if (facts) this.stops.put({ dir: e.dir, mode, ...(by ? { by } : {}), at: new Date().toISOString(), state: facts, stop });
      else this.stops.forget(e.dir);
    } catch (err) {
      // The notification still says it; only a later window will not.
      this.ctx.log.component('pipelineRun').warn(`the stop of ${e.spec.snapshot.specDir} was not kept: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Stop Pipeline: the run ends at once; a running Run Tasks is stopped through the actor. */
  async stop(dir: string): Promise<CommandOutcome> {
    const r = this.running.get(dir);
    if (!r) return { status: 'refused', message: t('host.pipelineRun.noPipelineRunUnderWay'), reasons: [] };
    r.controller.abort();
    // Run Tasks under way stops through the actor too; where none runs, the actor says so and nothing changes.
    const e = this.ctx.registry.entry(dir);
    if (e) await request(e.spec, { type: 'stopTasks' });
    return { status: 'done', specDir: dir };
  }

  private ports(e: SpecEntry, mode: RunMode, signal: AbortSignal, onEvent: (stage: string, line: string) => void): RunPorts {
    const ctx = this.ctx;
    const selector = new VsCodeModelSelector(
      () => ({ vendor: ctx.config.modelVendor, families: ctx.config.modelFamilies }),
      ctx.log.component('pipelineRun'),
      t('host.pipelineRun.loomDraftsFilesEachStage'),
    );
    return {
      mode,
      signal,
      onEvent,
      ...(ctx.config.tokenBudget > 0 ? { budget: ctx.config.tokenBudget } : {}),
      // Reconciling after the sync is asked for per folder (it sends the spec and the code's diff to a model).
      ...(vscode.workspace.getConfiguration('loom', e.folder.uri).get<boolean>('drift.reconcileInRun') === true ? { reconcile: true } : {}),
      credits: { budget: ctx.config.creditBudget || undefined, prices: ctx.config.creditPrices },
      onNearLimit: (used, budget) => void new NearLimitNotice(vscode.window, vscode.commands.executeCommand, e.dir, splitSpecName(e.spec.snapshot.name).feature).show(used, budget),
      model: () => selector.select('implementer', 'standard', signal),
      reviewDrafts: (stage, drafts, problems) => reviewDrafts(ctx, e, stage, drafts, problems),
      confirm: (q) => askPerson(ctx, e, q),
      runTasks: async (): Promise<TasksOutcome> => {
        const o = (await vscode.commands.executeCommand('loom.runTasks', { specDir: e.dir, ...(mode === 'autopilot' ? { confirm: true } : {}) })) as CommandOutcome | undefined;
        if (!o || o.status === 'cancelled') return { kind: 'declined', message: t('host.pipelineRun.runTasksWasNotConfirmed') };
        if (o.status === 'refused') return { kind: 'refused', message: o.message, ...(o.code ? { code: o.code } : {}) };
        if (o.status === 'failed') return { kind: 'refused', message: o.message };
        return {
          kind: 'ran',
          outcome: (o.outcome ?? 'completed') as ExecutingOutcome,
          message: o.message ?? '',
          finished: o.finished ?? [],
          ...(o.resumeWith ? { resumeWith: o.resumeWith } : {}),
        };
      },
      createWorktree: () => request(e.spec, { type: 'createWorktree', location: ctx.config.worktreeLocation, signal }),
      verify: () => runVerification(ctx, e, signal),
      answerReview: async (): Promise<ReviewOutcome> => {
        const o = (await vscode.commands.executeCommand('loom.answerReview', { specDir: e.dir })) as CommandOutcome | undefined;
        if (!o || o.status === 'cancelled') return { kind: 'refused', message: t('host.pipelineRun.reviewWasNotAnswered') };
        if (o.status === 'refused' || o.status === 'failed') return { kind: 'refused', message: o.message };
        if (o.outcome === 'answered' || o.outcome === 'answer-failed') return { kind: 'answered', passed: o.outcome === 'answered', message: o.message ?? '', wrote: o.finished ?? [] };
        return { kind: 'stopped', outcome: (o.outcome ?? 'cancelled') as ExecutingOutcome, message: o.message ?? '' };
      },
      sync: async () => {
        const answer = await request(e.spec, { type: 'sync' });
        await syncAnswered(ctx, e, answer);
        return answer;
      },
    };
  }
}

/** Supervised: the stage's drafts shown in one editor, then Write or not, asked the way the person chose (`loom.confirmation`). */
async function reviewDrafts(ctx: CommandContext, e: SpecEntry, stage: string, drafts: readonly Draft[], problems: readonly string[]): Promise<boolean> {
  const text = drafts.map((d) => `<!-- ${d.path} -->\n${d.content}`).join('\n\n');
  const doc = await vscode.workspace.openTextDocument({ content: text, language: 'markdown' });
  await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  const feature = splitSpecName(e.spec.snapshot.name).feature;
  const lines = [drafts.map((d) => d.path).join(', '), ...problems.map((p) => `- ${p}`)];
  return confirmQuestion(ctx, { title: t('host.pipelineRun.writeDrafts', { feature, stage }), lines, ok: t('host.pipelineRun.write') });
}
