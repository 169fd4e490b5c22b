import { join, relative, sep } from 'node:path';
import { checkpointsOf } from '../executing/review/taskChanges';
import type {
  BreakerReport,
  DashboardFinding,
  ReadableReview,
  DashboardHandoff,
  DashboardModel,
  DashboardTask,
  NextTransition,
  Precondition,
  StageStep,
  StageVisit,
  TokenUsage,
} from '../../shared/dashboardModel';
import { ARTIFACT_ANALYSIS_FILE, CONVERGENCE_REPORT_FILE, FINDING_SEVERITIES, type Finding } from '../files/findings';
import { HANDOFFS_DIR } from '../files/handoff';
import type { StageHistoryEntry } from '../files/pipelineState';
import { DEFAULT_MAX_RETRIES } from '../files/workflow';
import { FAILED_STAGE } from '../files/vocabulary';
import { convergenceRound } from '../pipeline/guards';
import { MAX_CONVERGENCE_ROUNDS, stageOf, transitionsFrom, type PipelineDefinition } from '../pipeline/pipelineDefinition';
import { stageWithRole } from '../pipeline/stageRoles';
import type { SpecPipeline } from '../repository/specPipeline';
import { staleHandoffs } from '../specdir/handoffStaleness';
import { byTaskNumber, specTaskIds } from '../specdir/loadSpec';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { dependentsOf, describeBreakerReason, type BreakerChoice } from '../executing/machine/circuitBreaker';
import { TOKEN_USAGE_KEY, TokenLedger } from '../executing/transcripts/tokenLedger';
import { readTaskRunRecord } from '../executing/machine/taskRunRecord';
import type { TaskState } from '../files/taskState';
import { planTaskBatches } from '../tasks/taskBatches';
import { stageCheckValidatorNames } from '../validators/stageFindings';
import { describeGuard } from './guardLabels';
import { specOffers } from '../pipeline/specOffers';
import { readOptionalText } from '../fs/readOptional';
import { anchorThread } from '../review/anchoring';
import { openThreads } from '../review/reviewComments';
import { readReviewComments } from '../review/reviewStore';
import { findWorktree } from '../specdir/worktree';
import { stagePlaces } from '../specdir/stageStatus';
import { unreadableFiles, type UnreadableFile } from '../specdir/unreadableFiles';
import { readFindingsFiles } from './findingsFiles';
import { stageDescription, t, transitionDescription } from '../messages';
import { taskTitleWithoutId } from '../tasks/taskTitle';
import { readableReview } from '../executing/dispatch/fixInstructions';
import { taskReviewSummary } from '../executing/review/taskReviewSummary';

/**
 * The dashboard's model for one spec. Every fact comes from the core (the stage from
 * SpecPipeline, preconditions from the guards, batches from planTaskBatches, staleness from
 * handoffStaleness); this only arranges them for display.
 */
export function buildDashboardModel(spec: SpecPipeline): DashboardModel {
  const { snapshot, definition } = spec;
  const state = snapshot.state;
  const errors = spec.diagnostics.filter((d) => d.severity === 'error').length;
  return {
    kind: 'dashboard',
    specDir: snapshot.specDir,
    specName: snapshot.name,
    pipelineType: definition.type,
    stage: spec.stage,
    stageSource: spec.stageSource,
    // loom keeps failure_reason after a recovery; it describes the spec only while it is failed.
    ...(state?.failure_reason && spec.stage === 'failed' ? { failureReason: state.failure_reason } : {}),
    ...(state?.started_at ? { startedAt: state.started_at } : {}),
    ...(state?.updated_at ? { updatedAt: state.updated_at } : {}),
    steps: stageSteps(spec),
    ...(stageWithRole(definition, 'convergence')
      ? {
          // The round as the report and the converge handoff number it (1 for the first check), not
          // the count of rounds sent back (0 before any), so the stepper and the handoff agree.
          convergence: {
            round: snapshot.convergenceReport?.round ?? convergenceRound(snapshot) + 1,
            max: MAX_CONVERGENCE_ROUNDS,
            ...(snapshot.convergenceReport ? { status: snapshot.convergenceReport.status } : {}),
          },
        }
      : {}),
    next: nextTransitions(spec),
    actions: actions(spec),
    ...tasks(snapshot, definition),
    handoffs: handoffs(snapshot),
    findings: findings(snapshot),
    ...tokenUsage(snapshot),
    ...reviewThreads(snapshot),
    problems: { errors, warnings: spec.diagnostics.length - errors },
    unreadable: unreadableFiles(snapshot).map((f) => ({ path: `${snapshot.specDir}/${f.file}`, file: f.file, line: f.line, message: f.message })),
    // The lock this process holds (its own pipeline run, its Run Tasks) is no other process's.
    ...(snapshot.lock && !snapshot.lock.stale && snapshot.lock.pid !== process.pid ? { lockedBy: snapshot.lock.pid } : {}),
  };
}

/** The history's `approved_by`, when it is in the shape Loom writes (personRule.ts); anything else is left out. */
function approvedByOf(h: StageHistoryEntry): { approvedBy?: NonNullable<StageVisit['approvedBy']> } {
  const a = h.approved_by as { by?: unknown; through?: unknown } | undefined;
  if (h.approval !== 'user_confirmed' || !a || typeof a !== 'object' || (a.by !== 'person' && a.by !== 'agent')) return {};
  return { approvedBy: { by: a.by, ...(typeof a.through === 'string' ? { through: a.through } : {}) } };
}

const visit = (h: StageHistoryEntry): StageVisit => ({
  status: h.status,
  ...(h.entered_at ? { enteredAt: h.entered_at } : {}),
  ...(h.exited_at ? { exitedAt: h.exited_at } : {}),
  ...(h.reason ? { reason: h.reason } : {}),
  ...(h.approval === 'user_confirmed' ? { approved: true } : {}),
  ...approvedByOf(h),
  ...(h.validator ? { validator: h.validator } : {}),
  ...(h.retry_from ? { retryFrom: h.retry_from } : {}),
  ...(h.recovery_from ? { recoveryFrom: h.recovery_from } : {}),
});

/**
 * The stepper: each stage's status as every view derives it (stageStatus.stagePlaces), `current`
 * for the stage being worked on, with its times and every recorded visit.
 */
function stageSteps(spec: SpecPipeline): StageStep[] {
  const { definition, snapshot } = spec;
  const state = snapshot.state;
  const history = state?.stage_history ?? [];
  const { places } = stagePlaces(definition, spec.stage, state);
  return definition.stages.map((stage, i): StageStep => {
    const visits = history.filter((h) => h.stage === stage.id).map(visit);
    const last = visits[visits.length - 1];
    const { status, current } = places[i];
    const enteredAt = current ? state?.current_stage_started_at : last?.enteredAt;
    const exitedAt = current ? undefined : last?.exitedAt;
    return {
      id: stage.id,
      ...(stage.description ? { description: stageDescription(stage.id, stage.description) } : {}),
      status: status === 'running' ? 'current' : status,
      humanApproval: stage.humanApproval,
      ...(stage.role ? { role: stage.role } : {}),
      ...(enteredAt ? { enteredAt } : {}),
      ...(exitedAt ? { exitedAt } : {}),
      visits,
    };
  });
}

/** The transitions open now, each precondition with whether it holds (the guards' own verdicts). */
function nextTransitions(spec: SpecPipeline): NextTransition[] {
  const unreadable = unreadableFiles(spec.snapshot);
  // The spec's own checks of the ways on (the CLI's `next`), each precondition with its verdict.
  return spec.next().map((check) => {
    const seen = new Set<string>();
    // One fact is said once: "test-report.md does not exist" under the first check that reads the
    // file, not again under each of the others that fail only because of it (verdict, receipt).
    const said = new Set<string>();
    const preconditions: Precondition[] = [];
    for (const { call, outcome } of check.verdicts) {
      if (call.type === 'confirmed') continue;
      // A check only the user can make is listed among the confirmations instead; the caller's word
      // on compression is given by the extension's own Advance (pipelineCommands), so it is not listed.
      if (outcome.needsConfirmation || outcome.needsCompression) continue;
      // The team's rule on open threads is a precondition only where the team set it.
      if (call.type === 'threadsAnswered' && !spec.verdicts.rules.blockOnOpenThreads) continue;
      const label = describeGuard(call);
      if (seen.has(label)) continue;
      seen.add(label);
      const reasons = outcome.reasons.filter((r) => !said.has(r));
      // A check that fails only for a fact already listed adds nothing the user can act on.
      if (!outcome.ok && outcome.reasons.length > 0 && reasons.length === 0) continue;
      for (const r of reasons) said.add(r);
      const caveat = call.type === 'inputsReadable' && outcome.ok ? unreadElsewhere(unreadable, call.params.paths) : undefined;
      preconditions.push({
        label,
        holds: outcome.ok,
        reasons,
        ...(outcome.file ? { path: `${spec.snapshot.specDir}/${outcome.file.replace(/\/$/, '')}` } : {}),
        ...(caveat ? { caveat } : {}),
      });
    }
    return {
      to: check.to,
      // next() lists the ways on (forward, back, recover), never failing.
      kind: check.kind as NextTransition['kind'],
      ...(check.description ? { description: transitionDescription(spec.stage ?? '', check.to, check.description) } : {}),
      ready: check.ready,
      interactive: check.interactive,
      preconditions,
      confirmations: check.confirmations,
    };
  });
}

/**
 * "The files it reads can be read" holds for this step's files only: a file of the spec the step
 * does not read, yet cannot be read, is said beside it, so that the checklist and the count of
 * errors above it do not seem to disagree.
 */
function unreadElsewhere(unreadable: readonly UnreadableFile[], read: readonly string[]): string | undefined {
  const others = unreadable.filter((f) => !read.some((p) => (p.endsWith('/') ? f.file.startsWith(p) : f.file === p)));
  const files = others.map((f) => f.file).join(', ');
  return others.length ? t(others.length === 1 ? 'check.inputsReadableElsewhere' : 'check.inputsReadableElsewhereSeveral', { files }) : undefined;
}

/** The buttons: what the spec offers (specOffers, as every surface renders it), and the dashboard's own. */
function actions(spec: SpecPipeline): DashboardModel['actions'] {
  const { definition: def, stage } = spec;
  const current = stage === null || stage === FAILED_STAGE ? undefined : stageOf(def, stage);
  const from = current ? transitionsFrom(def, current.id) : [];
  const offers = specOffers(spec);
  return {
    advance: offers.advance,
    approve: offers.approve,
    markFailed: from.some((t) => t.kind === 'fail'),
    checkStage: stageCheckValidatorNames(spec),
    recoverTo: stage === FAILED_STAGE ? [...def.recoveryTargets] : [],
    reapprove: offers.approveAgain,
    ...(offers.verify ? { verify: true } : {}),
    ...(offers.answerReview ? { answerReview: true } : {}),
  };
}

function readable(text: string): ReadableReview {
  const { summary, items } = readableReview(text);
  return { summary, fixItems: items.map((i) => ({ ...i })) };
}

function tasks(snapshot: SpecSnapshot, def: PipelineDefinition): { tasks: DashboardTask[]; cycle: string[] } {
  const plan = planTaskBatches(snapshot.tasks.values());
  const batchOf = new Map<string, DashboardTask['batch']>();
  plan.batches.forEach((b, i) => {
    for (const id of b.tasks) batchOf.set(id, { index: i + 1, type: b.type });
  });
  const maxRetries = stageWithRole(def, 'tasks')?.maxRetries ?? DEFAULT_MAX_RETRIES;
  const ids = specTaskIds(snapshot);
  const finished = ids.filter((id) => snapshot.taskStates.get(id)?.status === 'done');
  const out = ids.map((id): DashboardTask => {
    const file = snapshot.tasks.get(id);
    const s = snapshot.taskStates.get(id);
    const breaker = s ? breakerReport(snapshot, id, s, finished) : undefined;
    const batch = batchOf.get(id);
    const checkpoint = checkpointsOf(s).at(-1);
    return {
      id,
      // The id has its own column: the title is the heading's words after it.
      title: taskTitleWithoutId(id, file?.title) ?? '',
      ...(file ? { path: file.file } : {}),
      status: s?.status ?? 'pending',
      retries: s?.retry_count ?? 0,
      maxRetries,
      ...(s?.last_reviewer_result ? { lastReviewerResult: s.last_reviewer_result } : {}),
      ...(s?.blocker ? { blocker: s.blocker } : {}),
      ...(s?.last_reviewer_result ? { lastReview: readable(s.last_reviewer_result) } : {}),
      ...(s?.blocker ? { blockerText: readable(s.blocker) } : {}),
      owns: [...(file?.owns ?? [])],
      dependsOn: plan.tasks.find((t) => t.id === id)?.depends_on ?? [],
      ...(batch ? { batch } : {}),
      ...(breaker ? { breaker } : {}),
      ...(checkpoint ? { checkpoint: { commit: checkpoint.commit, files: checkpoint.files } } : {}),
      ...dashboardTaskReview(snapshot, id),
    };
  });
  return { tasks: out, cycle: plan.cycle ?? [] };
}

/** A task's review, as the dashboard shows it beside Review Changes. */
function dashboardTaskReview(snapshot: SpecSnapshot, id: string): Pick<DashboardTask, 'review'> {
  const r = taskReviewSummary(snapshot, id);
  return r ? { review: { files: r.files.length, reviewed: r.reviewed, changed: r.changed, openThreads: r.openThreads, ...(r.error ? { error: r.error } : {}) } } : {};
}

/**
 * The executing loop's breaker record for a task (kept in its state's metadata), as long as the
 * task is still failed on it. Choice B closes the record once the user's fix is in; A and C leave
 * the task failed or blocked, with the choice recorded, so no button is offered twice.
 */
function breakerReport(snapshot: SpecSnapshot, id: string, state: TaskState, finished: readonly string[]): BreakerReport | undefined {
  const record = readTaskRunRecord(state).breaker;
  if (!record || (state.status !== 'failed' && !record.choice)) return undefined;
  const choices: BreakerChoice[] = ['A', 'B', 'C'];
  return {
    reason: record.reason.kind,
    summary: describeBreakerReason(record.reason),
    openedAt: record.opened_at,
    blockingIssues: [...record.last_issues],
    finishedTasks: [...finished],
    dependents: dependentsOf(id, snapshot.tasks.values()),
    choices: choices.map((choice) => ({ choice, label: t(`breaker.choice.${choice}`) })),
    ...(record.choice ? { chosen: { choice: record.choice, ...(record.chosen_at ? { at: record.chosen_at } : {}) } } : {}),
  };
}

/** `metadata.token_usage` of pipeline.state.json, read as leniently as the loop itself reads it. */
function tokenUsage(snapshot: SpecSnapshot): { tokenUsage?: TokenUsage } {
  const meta = snapshot.state?.metadata ?? {};
  if (!Object.hasOwn(meta, TOKEN_USAGE_KEY)) return {};
  const saved = meta[TOKEN_USAGE_KEY];
  const u = new TokenLedger(saved).toJSON('');
  const list = (r: Record<string, { input: number; output: number }>) => Object.entries(r).map(([id, c]) => ({ id, input: c.input, output: c.output }));
  const updatedAt = saved && typeof saved === 'object' && typeof (saved as { updated_at?: unknown }).updated_at === 'string' ? (saved as { updated_at: string }).updated_at : undefined;
  return {
    tokenUsage: {
      total: { ...u.total },
      tasks: list(u.tasks).sort((a, b) => byTaskNumber(a.id, b.id)),
      stages: list(u.stages),
      roles: list(u.roles),
      ...(updatedAt ? { updatedAt } : {}),
      // Credits once a run priced its requests (issue 49); a ledger from before has none to show.
      ...(u.credits && saved && typeof saved === 'object' && Object.hasOwn(saved, 'credits')
        ? {
            credits: {
              total: u.credits.total,
              tasks: Object.entries(u.credits.tasks)
                .map(([id, credits]) => ({ id, credits }))
                .sort((a, b) => byTaskNumber(a.id, b.id)),
              stages: Object.entries(u.credits.stages).map(([id, credits]) => ({ id, credits })),
              prices: Object.entries(u.credits.prices ?? {}).map(([model, source]) => ({ model, source })),
              unpricedModels: u.credits.unpriced.models,
              unpricedTokens: u.credits.unpriced.input + u.credits.unpriced.output,
              source: u.credits.source,
            },
          }
        : {}),
    },
  };
}

function handoffs(snapshot: SpecSnapshot): DashboardHandoff[] {
  const stale = new Map(staleHandoffs(snapshot).map((h) => [h.handoff, h.changed]));
  return [...snapshot.handoffs].map(([name, h]) => {
    const changed = stale.get(`${HANDOFFS_DIR}/${name}.json`) ?? [];
    return {
      name,
      path: `${snapshot.specDir}/${HANDOFFS_DIR}/${name}.json`,
      // loom writes handoffs without a summary, and its compaction hook status "pending".
      status: h.status ?? '-',
      summary: h.summary ?? (typeof h.notes === 'string' ? h.notes : ''),
      ...(h.stage ? { stage: h.stage } : {}),
      ...(h.task_id ? { taskId: h.task_id } : {}),
      ...(h.written_at ? { writtenAt: h.written_at } : {}),
      stale: changed.length > 0,
      changed,
    };
  });
}

const severityRank = (s: Finding['severity']) => FINDING_SEVERITIES.indexOf(s);

/** Findings of the artifact analysis, the convergence check and `findings/*.json`, most severe first. */
function findings(snapshot: SpecSnapshot): DashboardFinding[] {
  const sources: { source: string; file: string; findings: readonly Finding[] }[] = [];
  if (snapshot.artifactAnalysis) sources.push({ source: 'artifact-analysis', file: ARTIFACT_ANALYSIS_FILE, findings: snapshot.artifactAnalysis.findings });
  if (snapshot.convergenceReport) sources.push({ source: 'convergence', file: CONVERGENCE_REPORT_FILE, findings: snapshot.convergenceReport.findings });
  sources.push(...readFindingsFiles(snapshot));
  // A location is spec-relative when the spec holds that file, else repository-relative.
  const locate = (file: string) => (snapshot.files.has(file) ? `${snapshot.specDir}/${file}` : file.replace(/\\/g, '/').replace(/^\.\//, ''));
  const out: DashboardFinding[] = [];
  for (const { source, file, findings: list } of sources) {
    for (const f of list) {
      const fix = [f.suggested_fix?.action, f.suggested_fix?.details].filter(Boolean).join(': ');
      out.push({
        source,
        file: `${snapshot.specDir}/${file}`,
        id: f.id,
        kind: f.kind,
        severity: f.severity,
        message: f.message,
        ...(f.requirement_id ? { requirementId: f.requirement_id } : {}),
        ...(f.behavior_id ? { behaviorId: f.behavior_id } : {}),
        ...(f.task_id ? { taskId: f.task_id } : {}),
        ...(f.location?.file ? { location: { path: locate(f.location.file), ...(f.location.line ? { line: f.location.line } : {}) } } : {}),
        ...(fix ? { suggestedFix: fix } : {}),
      });
    }
  }
  return out.sort((a, b) => severityRank(b.severity) - severityRank(a.severity));
}

/** The open comment threads, where each one stands now in its file; a corrupt file is named, not guessed at. */
function reviewThreads(s: SpecSnapshot): Pick<DashboardModel, 'reviewThreads' | 'reviewError'> {
  let comments;
  try {
    comments = readReviewComments(s);
  } catch (e) {
    return { reviewThreads: [], reviewError: e instanceof Error ? e.message : String(e) };
  }
  return {
    reviewThreads: openThreads(comments).map((t) => {
      // A thread on the feature's code is in the worktree (or the repository without one).
      const abs = t.code ? join(findWorktree(s) ?? s.repoRoot, t.file) : join(s.dir, t.file);
      const text = readOptionalText(abs);
      const at = text === undefined ? { line: t.line, endLine: t.end_line } : anchorThread(t, text);
      return {
        id: t.id,
        path: relative(s.repoRoot, abs).split(sep).join('/'),
        file: t.file,
        line: at.line,
        endLine: at.endLine,
        author: t.comments[0]?.author ?? '',
        body: t.comments[0]?.body ?? '',
        replies: Math.max(0, t.comments.length - 1),
        createdAt: t.created_at,
      };
    }),
  };
}
