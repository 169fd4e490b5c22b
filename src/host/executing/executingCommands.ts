import * as vscode from 'vscode';
import { FileTranscriptStore, type ExecutingEvent, type Logger, isBreakerChoice } from '../../core/port/executing';
import type { Question } from '../../core/port/question';
import { request, type RequestOptions } from '../../core/port/request';
import { presentRefused } from '../commands/answers';
import { splitSpecName } from '../format';
import { VsCodeModelSelector } from '../lm/modelSelector';
import type { SpecEntry } from '../specs/specRegistry';
import { createCommand, notify, openSpecFile, type CommandArgs, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import type { RunTasksInput } from '../../core/port/intent';
import { HostUserPrompts } from './hostPrompts';
import type { PromptPresets } from './promptPresets';
import { describeOutcome, progressLine } from './outcomeMessages';
import { NearLimitNotice } from '../credits/nearLimitNotice';
import { RunningLoops, type RunningLoop } from './runningLoops';
import { VsCodeProblems } from './problemsPort';
import { tasksRunStop } from '../../core/port/pipelineRun';
import type { TasksRunStops } from '../pipelineRun/pipelineRuns';
import type { Answer, Refused } from '../../core/port/answer';
import { t } from '../../core/port/messages';

export interface ExecutingHost {
  /** Where transcripts go: the extension's workspace storage, else its global storage. Never the spec directory. */
  storageDir: string;
  /** Answers queued by the integration tests; undefined outside ExtensionMode.Test. */
  presets?: PromptPresets;
  /** Where Run Tasks started on its own keeps its stop, as Run Pipeline keeps its own (PipelineRuns). */
  stops?: TasksRunStops;
}

const feature = (e: SpecEntry) => splitSpecName(e.spec.snapshot.name).feature;

/**
 * Asks before the first request of a run: nothing is sent to a model without this explicit
 * action. The question is the actor's: where files are written, down to the test reporter's
 * test locations. Integration tests answer it with a preset.
 */
async function consent(q: Question, presets: PromptPresets | undefined): Promise<boolean> {
  const preset = presets?.take('consent');
  if (presets && preset !== undefined) {
    presets.shown.push({ kind: 'consent', text: `${q.title}\n${q.lines.join('\n\n')}` });
    return preset;
  }
  const choice = await vscode.window.showWarningMessage(q.title, { modal: true, detail: q.lines.join('\n\n') }, q.ok);
  return choice === q.ok;
}

/**
 * Loom: Run Tasks, Loom: Stop Tasks and the breaker choice the dashboard sends. The spec's actor
 * runs the tasks (its executing stage's child statechart); this wires its ports to VS Code (models
 * through vscode.lm, the user's answers through quick picks and input boxes, transcripts in the
 * extension's storage), asks the actor's question, shows the progress and reports the outcome.
 */
export function registerExecutingCommands(ctx: CommandContext, host: ExecutingHost): vscode.Disposable[] {
  const running = new RunningLoops();
  const log = ctx.log.component('executing');
  const logger: Logger = { info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(m) };
  const models = new VsCodeModelSelector(() => ({ vendor: ctx.config.modelVendor, families: ctx.config.modelFamilies }), ctx.log.component('lm'), t('host.executing.loomRunsTasksYourSpec'));
  const transcripts = new FileTranscriptStore(host.storageDir);
  // Done means done: the Problems panel's errors on a task's files, once the language services settled.
  const problems = new VsCodeProblems();

  /** The executing run's ports in this window: models, transcripts, the person's answers, the progress shown. */
  function runInput(e: SpecEntry, prompts: HostUserPrompts, signal: AbortSignal, progress: () => vscode.Progress<{ message?: string }> | undefined): RunTasksInput {
    // One per run: the 80 % warning is said once in it.
    const nearLimit = new NearLimitNotice(vscode.window, vscode.commands.executeCommand, e.dir, feature(e));
    return {
      models,
      transcripts,
      logger,
      prompts,
      problems,
      signal,
      settings: {
        trusted: ctx.trust.writable,
        testCommand: ctx.config.testCommand || undefined,
        parallel: ctx.config.parallelDispatch,
        mode: ctx.config.executionMode,
        tokenBudget: ctx.config.tokenBudget || undefined,
        creditBudget: ctx.config.creditBudget || undefined,
        creditPrices: ctx.config.creditPrices,
      },
      onEvent: (ev: ExecutingEvent) => {
        log.debug(`${e.spec.snapshot.specDir}: ${JSON.stringify(ev)}`);
        const line = progressLine(ev);
        if (line) progress()?.report({ message: line });
        if (ev.type === 'credits-near-limit') void nearLimit.show(ev.used, ev.budget);
      },
    };
  }

  /** A run under way in a cancellable notification (Cancel stops it), known to Stop Tasks and the breaker's choice meanwhile. */
  async function withRunProgress<T>(entry: RunningLoop, title: string, shown: (p: vscode.Progress<{ message?: string }>) => void, work: () => Promise<T>): Promise<T> {
    running.add(entry);
    try {
      return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
        shown(progress);
        const sub = token.onCancellationRequested(() => entry.controller.abort());
        try {
          return await work();
        } finally {
          sub.dispose();
        }
      });
    } finally {
      running.remove(entry);
    }
  }

  async function runTasks(e: SpecEntry, args: CommandArgs): Promise<CommandOutcome> {
    const prompts = new HostUserPrompts(feature(e), host.presets);
    const entry: RunningLoop = { specDir: e.dir, controller: new AbortController(), prompts };
    let current: vscode.Progress<{ message?: string }> | undefined;
    const intent = { type: 'runTasks' as const, run: runInput(e, prompts, entry.controller.signal, () => current) };
    // The actor decides whether the tasks may run (the stage, a run going on, the plan approved,
    // the worktree, the task graph) and asks the person before anything goes to a model.
    let confirm: RequestOptions['confirm'] = args.confirm ? true : undefined;
    /** A refusal said; no model at all is a stop of the run (kept, with Open Settings), anything else only a refusal. */
    const refused = (a: Refused) => {
      if (a.code === 'no-model') host.stops?.tasksEnded(e, tasksRunStop({ kind: 'refused', message: a.message, code: a.code }, e.spec.snapshot, e.spec.stage ?? '-'));
      else host.stops?.tasksEnded(e, undefined);
      return presentRefused(ctx, e, a, 'executing');
    };
    if (!confirm) {
      const asked = await request(e.spec, intent);
      if (asked.kind === 'refused') return refused(asked);
      if (asked.kind !== 'needs-confirmation') return { status: 'failed', message: 'the tasks ran without being asked' };
      if (!(await consent(asked.question, host.presets))) return { status: 'cancelled' };
      confirm = asked.step;
    }
    // The spec's actor runs them: the executing statechart is the child of its executing stage.
    host.stops?.tasksStarted(e.dir);
    let answer: Answer<'runTasks'>;
    try {
      answer = await withRunProgress(
        entry,
        t('host.executing.loomRunningTasks', { feature: feature(e) }),
        (p) => (current = p),
        () => request(e.spec, intent, { confirm }),
      );
    } catch (err) {
      // A run that failed where nothing expected it still says where it stopped, as Run Pipeline's does.
      const message = t('host.pipelineRun.runStoppedError', { message: err instanceof Error ? err.message : String(err) });
      host.stops?.tasksEnded(e, { reason: 'error', stage: e.spec.stage ?? '-', message, stages: [] });
      throw err;
    }
    if (answer.kind === 'refused') return refused(answer);
    if (answer.kind !== 'changed') {
      host.stops?.tasksEnded(e, undefined);
      return { status: 'cancelled' };
    }
    // The request read what the run wrote as it ended: the spec's facts are the run's.
    const result = answer.result;
    host.stops?.tasksEnded(e, tasksRunStop({ kind: 'ran', ...result }, e.spec.snapshot, e.spec.stage ?? '-'));
    log.info(`${e.spec.snapshot.specDir}: ${result.outcome}: ${result.message}`);
    const shown = describeOutcome(feature(e), result);
    // A task that stopped where no rule expected it: running the tasks again is what clears it.
    const resume = result.resumeWith === 'run-tasks' ? [{ title: t('ask.runTasks.ok'), run: () => void vscode.commands.executeCommand('loom.runTasks', { specDir: e.dir }) }] : [];
    notify(shown.kind, shown.text, shown.kind === 'info' ? [] : [...resume, { title: t('host.executing.openLog'), run: () => ctx.log.show() }]);
    return {
      status: 'done',
      specDir: e.dir,
      outcome: result.outcome,
      message: result.message,
      finished: result.finished,
      skipped: result.skipped,
      ...(result.resumeWith ? { resumeWith: result.resumeWith } : {}),
    };
  }

  /**
   * Loom: Answer Review: the spec's actor sends each BLOCKER of review-feedback.md (and each open
   * code thread) back to its task's implementer in fix mode, re-runs the tests and writes
   * review-response.md; this window gives the fix run its ports and shows the progress (Cancel
   * stops it through the actor), then what was answered or where the fix run stopped.
   */
  async function answerReview(e: SpecEntry): Promise<CommandOutcome> {
    const prompts = new HostUserPrompts(feature(e), host.presets);
    const entry: RunningLoop = { specDir: e.dir, controller: new AbortController(), prompts };
    let current: vscode.Progress<{ message?: string }> | undefined;
    const intent = { type: 'answerReview' as const, answer: { writer: 'Loom: Answer Review', run: runInput(e, prompts, entry.controller.signal, () => current) } };
    const answer = await withRunProgress(
      entry,
      t('host.executing.loomAnsweringReview', { feature: feature(e) }),
      (p) => (current = p),
      () => request(e.spec, intent),
    );
    if (answer.kind === 'refused') return presentRefused(ctx, e, answer, 'answerReview');
    if (answer.kind !== 'changed') return { status: 'cancelled' };
    const { response, result } = answer;
    if (!response) {
      // The fix run stopped first (a breaker, the budget, a model that refuses, Stop): said as Run Tasks says it.
      const shown = result ? describeOutcome(feature(e), result) : { kind: 'warning' as const, text: t('host.executing.reviewWasNotAnswered', { feature: feature(e) }) };
      notify(shown.kind === 'info' ? 'warning' : shown.kind, shown.text, [{ title: t('host.executing.openLog'), run: () => ctx.log.show() }]);
      return { status: 'done', specDir: e.dir, outcome: result?.outcome ?? 'cancelled', message: result?.message ?? shown.text, finished: result?.finished ?? [] };
    }
    const fixed = response.points.filter((p) => p.answer === 'fixed').length;
    const text =
      response.verdict !== 'PASS'
        ? t('host.executing.reviewNotAnsweredYetFix', { feature: feature(e), file: response.file })
        : response.handoff
          ? t('host.executing.reviewPointsFixedTestsRe', { feature: feature(e), fixed, pointsCount: response.points.length, file: response.file })
          : // Answered at the review gate: no handoff, because loom passes that gate only on the reviewer's PASS and the person's approval.
            t('host.executing.reviewPointsFixedTestsRe2', { feature: feature(e), fixed, pointsCount: response.points.length, file: response.file });
    log.info(`${e.spec.snapshot.specDir}: review answered (${response.verdict}), ${fixed} fixed, tests ${response.tests ? `${response.tests.command} → ${response.tests.exitCode}` : 'none'}`);
    notify(response.verdict === 'PASS' ? 'info' : 'warning', text, [{ title: t('host.commands.open', { file: response.file }), run: () => openSpecFile(e, response.file) }]);
    const wrote = [response.file, ...(response.handoff ? [response.handoff] : []), ...(response.tests ? [response.tests.log] : [])];
    return { status: 'done', specDir: e.dir, outcome: response.verdict === 'PASS' ? 'answered' : 'answer-failed', message: text, finished: wrote };
  }

  async function stopTasks(args: CommandArgs): Promise<CommandOutcome> {
    const dir = args.specDir ? (ctx.registry.entry(args.specDir)?.dir ?? args.specDir) : undefined;
    let target = dir ? running.get(dir) : undefined;
    const all = running.all();
    if (!target && !dir) {
      if (all.length === 1) target = all[0];
      else if (all.length > 1) {
        const picked = await vscode.window.showQuickPick(
          all.map((l) => ({ label: ctx.registry.entry(l.specDir)?.spec.snapshot.name ?? l.specDir, loop: l })),
          { placeHolder: t('host.executing.whichRunShouldStop') },
        );
        target = picked?.loop;
        if (!target) return { status: 'cancelled' };
      }
    }
    if (!target) {
      notify('info', t('host.executing.noTasksAreRunning'));
      return { status: 'refused', message: 'no tasks are running', reasons: [] };
    }
    const spec = ctx.registry.entry(target.specDir)?.spec;
    // Stop Tasks is an intent like any other: the spec's actor stops its run.
    const answer = spec ? await request(spec, { type: 'stopTasks' }) : undefined;
    if (answer?.kind !== 'changed') target.controller.abort();
    log.info(`${target.specDir}: stop requested`);
    return { status: 'done', specDir: target.specDir };
  }

  function breakerChoice(args: CommandArgs): CommandOutcome {
    const choice = args.choice;
    if (!args.specDir || !args.taskId || !isBreakerChoice(choice)) {
      return { status: 'failed', message: 'loom.executing.breakerChoice needs { specDir, taskId, choice: "A" | "B" | "C" }' };
    }
    const dir = ctx.registry.entry(args.specDir)?.dir ?? args.specDir;
    const loop = running.get(dir);
    if (!loop || !loop.prompts.answerBreaker(args.taskId, choice)) {
      const message = t('host.executing.noRunSpecWaitingChoice', { taskId: args.taskId });
      notify('info', message);
      return { status: 'refused', message, reasons: [] };
    }
    log.info(`${dir}: breaker choice ${choice} for ${args.taskId} (from a command)`);
    return { status: 'done', specDir: dir };
  }

  return [
    running,
    problems,
    createCommand(ctx, 'loom.runTasks', { spec: true, writes: true, placeHolder: t('host.executing.whoseTasksShouldRun') }, (a, e) => runTasks(e!, a)),
    createCommand(ctx, 'loom.answerReview', { spec: true, writes: true, placeHolder: t('host.executing.whoseReviewShouldLoomAnswer') }, (_a, e) => answerReview(e!)),
    createCommand(ctx, 'loom.stopTasks', { spec: false, writes: false }, (a) => stopTasks(a)),
    createCommand(ctx, 'loom.executing.breakerChoice', { spec: false, writes: true }, (a) => breakerChoice(a)),
  ];
}
