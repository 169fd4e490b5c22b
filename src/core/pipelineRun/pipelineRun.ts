import { join } from 'node:path';
import { buildAuthoringMessages, buildRepairMessage, loadAuthoringTemplates } from '../authoring/authoringPrompts';
import { replySummary, type Draft } from '../authoring/draftBlocks';
import { checkDrafts } from '../authoring/draftCheck';
import type { DraftingRequest } from '../authoring/draftingTurn';
import { countDrafting, draftingBudget, MessageTokens, spendSaid } from '../credits/draftingCredits';
import { formatCredits } from '../credits/pricing';
import { draftBase, writeDrafts } from '../authoring/draftWrite';
import { featureDiff, featureDiffForPrompt } from '../authoring/featureDiff';
import type { AuthoringCommand, AuthoringCommandName } from '../authoring/stageCommands';
import { ModelUnavailableError, type ChatMessage, type ChatModel } from '../executing/dispatch/chatModel';
import type { ExecutingOutcome } from '../executing/machine/runTypes';
import { TOKEN_USAGE_KEY, TokenLedger } from '../executing/transcripts/tokenLedger';
import { detectLanguage } from '../executing/dispatch/prompts/promptTemplates';
import { readOptionalText } from '../fs/readOptional';
import { t } from '../messages';
import type { Answer, NeedsConfirmation, Refused } from '../port/answer';
import { request } from '../port/request';
import type { SpecPipeline } from '../repository/specPipeline';
import { staleHandoffs } from '../specdir/handoffStaleness';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { isReviewProblem, reviewToAnswer } from '../review/reviewToAnswer';
import { reviewFixesToAnswer } from '../pipeline/specOffers';
import type { VerificationResult } from '../verification/verificationResult';
import { stageNeed } from './personFirst';
import { CORRECTION_ROUNDS, runDraftingStep } from './draftingStep';
import { reconcileStep } from './reconcileStep';
import { stopped, tasksStop } from './tasksStop';
import { writeStageTranscript } from './stageTranscript';
import { stageWork, type StageWork } from './stageWork';
import { estimateTokens } from './tokens';
import type { RunStop, TasksOutcome, StageRecord } from './runStop';

export type { RunStop, StopReason, TasksOutcome, StageRecord } from './runStop';

/** Supervised shows each stage's drafts and waits for Write; Autopilot writes what passes the checks. */
export type RunMode = 'supervised' | 'autopilot';

/** What a run needs from its surface: the model, the person, and the runners that take host ports. */
export interface RunPorts {
  mode: RunMode;
  signal: AbortSignal;
  /** The model that drafts (the `@loom` prompts); throws ModelUnavailableError when there is none. */
  model(): Promise<ChatModel>;
  /** Supervised: the drafts shown; true when the person says Write. */
  reviewDrafts(stage: string, drafts: readonly Draft[], problems: readonly string[]): Promise<boolean>;
  /** Supervised: the actor's question put to the person (an interactive stage, Run Tasks). */
  confirm(question: NeedsConfirmation): Promise<boolean>;
  /**
   * Run Tasks with the surface's executing ports (subagents), answered when the run ends: in
   * Supervised the person is asked the actor's question, in Autopilot the run's start was their word.
   */
  runTasks(): Promise<TasksOutcome>;
  createWorktree(): Promise<Answer<'createWorktree'>>;
  verify(): Promise<Answer<'verify'>>;
  /**
   * The review answered through the actor's `answerReview` intent (the BLOCKERs fixed by the
   * implementer in fix mode, the tests re-run, review-response.md written), as the surface's
   * command tells it; undefined where the surface has none (the run then stops for the person).
   */
  answerReview?: () => Promise<ReviewOutcome>;
  /** The memory update (the actor's `sync` intent), then the branch handed on; the actor's answer. */
  sync(): Promise<Answer<'sync'>>;
  /** After the sync, a drifted spec is reconciled with its code (the person asked for it: `loom.drift.reconcileInRun`). */
  reconcile?: boolean;
  /** Tokens the run may still spend; undefined: no budget. */
  budget?: number;
  /** `loom.budget.credits` (0 or undefined: none) and `loom.credits.prices`: a drafting step that would pass the budget is not sent. */
  credits?: { budget?: number; prices?: unknown };
  /** 80 % of the credits budget is used: said once per run. */
  onNearLimit?(used: number, budget: number): void;
  /** Each line of the transcript, as it is written (progress, the status bar). */
  onEvent?(stage: string, line: string): void;
}

/** How answering the review ended: refused, its fix run stopped (as Run Tasks stops), or the response written with its verdict. */
export type ReviewOutcome =
  { kind: 'refused'; message: string } | { kind: 'stopped'; outcome: ExecutingOutcome; message: string } | { kind: 'answered'; passed: boolean; message: string; wrote: string[] };

/** More moves than a pipeline has stages means something loops: the run stops and says so. */
const MAX_STEPS = 40;

/** The refusal's sentence with what is still unmet. */
const refusalText = (a: Refused) => {
  const reasons = a.check?.unmet.length ? a.check.unmet : a.reasons;
  return reasons.length ? `${a.message}: ${reasons.join('; ')}` : a.message;
};

/** The subagents' tokens the executing loop recorded (pipeline.state.json `metadata.token_usage`). */
function recordedTokens(snapshot: SpecSnapshot): number {
  const meta = snapshot.state?.metadata ?? {};
  if (!Object.hasOwn(meta, TOKEN_USAGE_KEY)) return 0;
  const { total } = new TokenLedger(meta[TOKEN_USAGE_KEY]).toJSON('');
  return total.input + total.output;
}

/**
 * One run of Loom: Run Pipeline on one spec, from its current stage. Each stage's work (the
 * `@loom` drafting, or its runner) and its move go through the spec's actor; the run stops where
 * a person decides (a human-approval gate, the review gate), at a breaker, a task that needs
 * context, the budget, a check still failing after two corrections, a model that refuses or is
 * missing, and says why. It never passes a gate by itself: a human-approval step is never
 * confirmed here. A stage whose handoff is fresh is not done again: the run tries the move first.
 */
export async function runPipeline(spec: SpecPipeline, ports: RunPorts): Promise<RunStop> {
  const stages: StageRecord[] = [];
  let used = 0;
  const end = (s: Omit<RunStop, 'stages'>): RunStop => ({ ...s, stages });
  // No read of the spec per step or per line: each of the run's writes is a request or a change of
  // the spec (SpecPipeline.change), which reads what it wrote; a change from outside comes
  // through the watcher.
  for (let step = 0; step < MAX_STEPS; step++) {
    const stage = spec.stage ?? '-';
    if (ports.signal.aborted) return end(stopped('stopped', stage, t('run.pipeline.stopped', { stage })));
    if (ports.budget !== undefined && used >= ports.budget) return end(stopped('budget', stage, t('run.pipeline.budget', { used, budget: ports.budget })));
    const work = stageWork(spec.definition, spec.stage);
    const record: StageRecord = { stage, work: work.kind, startedAt: new Date().toISOString(), ms: 0, rounds: 0, tokens: 0, wrote: [], transcript: [] };
    const began = Date.now();
    const say = (line: string) => {
      record.transcript.push(line);
      ports.onEvent?.(stage, line);
    };
    stages.push(record);
    const outcome = await doStage(spec, ports, work, stage, record, say).finally(() => {
      record.ms = Date.now() - began;
      used += record.tokens;
    });
    if (outcome) say(outcome.message);
    keepTranscript(spec, ports, record);
    if (outcome) return end(outcome);
  }
  return end(stopped('refused', spec.stage ?? '-', t('run.pipeline.loops', { steps: MAX_STEPS })));
}

/** The stage's transcript on disk; a write that fails is said where the run's lines go, and the run goes on. */
function keepTranscript(spec: SpecPipeline, ports: RunPorts, record: StageRecord): void {
  try {
    record.file = writeStageTranscript(spec.snapshot, record, ports.mode);
    ports.onEvent?.(record.stage, t('run.pipeline.transcript', { file: record.file }));
  } catch (e) {
    ports.onEvent?.(record.stage, e instanceof Error ? e.message : String(e));
  }
}

/** The stage's handoff is there, done, and no file it fingerprints changed since. */
function freshHandoff(snapshot: SpecSnapshot, stage: string): boolean {
  const handoff = snapshot.handoffs.get(stage) ?? snapshot.handoffs.get(`${stage}.json`);
  if (!handoff || handoff.status !== 'done') return false;
  return !staleHandoffs(snapshot).some((h) => h.handoff === stage || h.handoff === `${stage}.json` || h.handoff === `handoffs/${stage}.json`);
}

/** The stage's work and its move; a stop when the run cannot go on, else undefined (the spec moved). */
async function doStage(spec: SpecPipeline, ports: RunPorts, work: StageWork, stage: string, record: StageRecord, say: (l: string) => void): Promise<Omit<RunStop, 'stages'> | undefined> {
  switch (work.kind) {
    case 'unknown':
      // No stage at all: the state file does not parse, and only fixing it (not Recover) helps.
      if (spec.stage === null) return stopped('unreadable-state', stage, t('run.pipeline.unreadableState', { file: 'pipeline.state.json' }), 'pipeline.state.json');
      return stopped('failed-stage', stage, t('run.pipeline.unknownStage', { stage }));
    case 'reviewGate': {
      // BLOCKERs (or open code threads) no round answered yet: fixed now, as loom's receiving-code-review does between rounds; the gate stays shut.
      if (ports.answerReview && reviewFixesToAnswer(spec.definition, spec.snapshot, stage)) return answerAtGate(spec, ports, stage, record, say);
      // Feedback already there that the gate will not pass (a BLOCKER, a FAIL verdict): say what, not just "approve".
      const approval = spec.snapshot.files.has('review-feedback.md') ? spec.preview({ type: 'approve' }) : undefined;
      if (approval?.kind === 'refused' && approval.check?.unmet.length) return stopped('review-gate', stage, t('run.pipeline.reviewBlocked', { stage, reasons: approval.check.unmet.join('; ') }));
      return stopped('review-gate', stage, t('run.pipeline.reviewGate', { stage }));
    }
    case 'sync': {
      say(t('run.pipeline.syncing'));
      record.rounds = 1;
      const a = await ports.sync();
      if (a.kind !== 'changed') return stopped('refused', stage, a.kind === 'refused' ? refusalText(a) : a.question.title);
      record.wrote.push(a.memory.file);
      if (ports.reconcile) {
        const stop = await reconcileStep(spec, ports, stage, record, say);
        if (stop) return stop;
      }
      return stopped('done', stage, t('run.pipeline.done', { stage }));
    }
    default:
      break;
  }
  if (work.kind === 'move') return moveOn(spec, ports, stage, say);
  if (work.kind === 'draft') return personThenModel(spec, ports, work.command, stage, record, say);
  // A stage already done (its handoff written and fresh) is not done again: the move is tried first.
  if (freshHandoff(spec.snapshot, stage)) {
    say(t('run.pipeline.fresh', { stage }));
    const first = await move(spec, ports, stage, say, true);
    if (!isNotReady(first)) return first;
  }
  switch (work.kind) {
    case 'check': {
      record.rounds = 1;
      const a = await request(spec, { type: 'checkStage' });
      if (a.kind === 'refused') return stopped('refused', stage, refusalText(a));
      if (a.kind === 'changed') say(t('run.pipeline.checked', { reports: a.check.validators.flatMap((v) => v.report ?? []).join(', ') || '-' }));
      return moveOn(spec, ports, stage, say);
    }
    case 'worktree': {
      record.rounds = 1;
      const a = await ports.createWorktree();
      if (a.kind !== 'changed') return stopped('refused', stage, a.kind === 'refused' ? refusalText(a) : a.question.title);
      say(t('run.pipeline.worktree', { branch: a.worktree.branch, path: a.worktree.path }));
      record.wrote.push('pipeline.state.json');
      return moveOn(spec, ports, stage, say);
    }
    case 'tasks':
      return tasksStage(spec, ports, stage, record, say);
    case 'verify': {
      record.rounds = 1;
      const a = await ports.verify();
      if (a.kind !== 'changed') return stopped('refused', stage, a.kind === 'refused' ? refusalText(a) : a.question.title);
      const v: VerificationResult = a.verification;
      record.wrote.push(v.report, ...(v.handoff ? [v.handoff] : []), ...(v.evidence ? [v.evidence.file] : []));
      say(t('run.pipeline.verified', { verdict: v.verdict, report: v.report }));
      if (v.verdict !== 'PASS') return stopped('verification-failed', stage, t('run.pipeline.verificationFailed', { count: v.fixItems.length, first: v.fixItems[0]?.problem ?? '-' }));
      return moveOn(spec, ports, stage, say);
    }
    case 'reviewResponse': {
      if (!ports.answerReview) return stopped('review-response', stage, t('run.pipeline.reviewResponse', { stage }));
      const r = await answer(spec, ports.answerReview, stage, record);
      if (r.kind !== 'answered') return r.stop;
      say(r.message);
      if (!r.passed) return stopped('check-failed', stage, r.message);
      return moveOn(spec, ports, stage, say);
    }
  }
}

/**
 * A drafting stage asks for what is really missing before it asks for a model: a gate whose files
 * are written waits for the person's approval, a stale approval for its renewal, a file the model
 * may not write for the person; files that already pass are moved on, not drafted again. Only
 * what the stage's own drafting can supply goes to the model.
 */
async function personThenModel(
  spec: SpecPipeline,
  ports: RunPorts,
  command: AuthoringCommand<AuthoringCommandName>,
  stage: string,
  record: StageRecord,
  say: (l: string) => void,
): Promise<Omit<RunStop, 'stages'> | undefined> {
  const need = stageNeed(spec, stage, command);
  switch (need.kind) {
    case 'approval':
      return stopped('approval-gate', stage, t('run.pipeline.readyForApproval', { stage, to: need.to, files: need.outputs.join(', ') || '-' }));
    case 'input':
      return stopped('missing-input', stage, t('run.pipeline.missingInput', { stage, file: need.file, reasons: need.reasons.join('; ') }), need.file);
    case 'stale-approval':
    case 'move': {
      // The actor decides and words it (a stale approval's refusal, the interactive stage's question).
      say(freshHandoff(spec.snapshot, stage) ? t('run.pipeline.fresh', { stage }) : t('run.pipeline.outputsReady', { stage }));
      const first = await move(spec, ports, stage, say, true);
      if (!isNotReady(first)) return first;
      break;
    }
    case 'draft':
      break;
  }
  return draftStage(spec, ports, command, stage, record, say);
}

type Answered = Extract<ReviewOutcome, { kind: 'answered' }> | { kind: 'stop'; stop: Omit<RunStop, 'stages'> };

/** The review answered through the surface's command, its subagents' tokens counted; a refusal or a fix run that stopped is the run's stop. */
async function answer(spec: SpecPipeline, answerReview: () => Promise<ReviewOutcome>, stage: string, record: StageRecord): Promise<Answered> {
  record.rounds = 1;
  const before = recordedTokens(spec.snapshot);
  // Answer Review is a request of the spec's actor: the spec read what its run wrote as it ended.
  const r = await answerReview();
  record.tokens += Math.max(0, recordedTokens(spec.snapshot) - before);
  if (r.kind === 'refused') return { kind: 'stop', stop: stopped('refused', stage, r.message) };
  // A fix run that stopped stops the run for the same reasons Run Tasks does (a breaker, the budget, a model).
  if (r.kind === 'stopped')
    return { kind: 'stop', stop: tasksStop({ kind: 'ran', outcome: r.outcome, message: r.message, finished: [] }, spec.snapshot, stage) ?? stopped('refused', stage, r.message) };
  record.wrote.push(...r.wrote);
  return r;
}

/** At the review gate: the review's BLOCKERs fixed and answered, then the run stops there, saying what was fixed and what opens the gate. */
async function answerAtGate(spec: SpecPipeline, ports: RunPorts, stage: string, record: StageRecord, say: (l: string) => void): Promise<Omit<RunStop, 'stages'>> {
  const fixes = reviewToAnswer(spec.snapshot);
  const r = await answer(spec, ports.answerReview!, stage, record);
  if (r.kind !== 'answered') return r.stop;
  say(r.message);
  if (!r.passed) return stopped('check-failed', stage, r.message);
  return stopped('review-gate', stage, t('run.pipeline.reviewGateAnswered', { stage, fixed: isReviewProblem(fixes) ? 0 : fixes.fixes.length, file: 'review-response.md' }));
}

/** Run Tasks through the surface's executing command; the subagents' tokens are what the loop recorded. */
async function tasksStage(spec: SpecPipeline, ports: RunPorts, stage: string, record: StageRecord, say: (l: string) => void): Promise<Omit<RunStop, 'stages'> | undefined> {
  const before = recordedTokens(spec.snapshot);
  record.rounds = 1;
  // Run Tasks is a request of the spec's actor: the spec read what its run wrote as it ended.
  const r = await ports.runTasks();
  record.tokens += Math.max(0, recordedTokens(spec.snapshot) - before);
  if (r.kind !== 'ran') return tasksStop(r, spec.snapshot, stage);
  record.wrote.push(...r.finished.map((id) => `task-states/${id}.state.json`), ...(spec.snapshot.reports.has('test-report.md') ? ['test-report.md'] : []));
  say(r.message);
  return tasksStop(r, spec.snapshot, stage) ?? moveOn(spec, ports, stage, say);
}

/** A model's words on one line, at most 300 characters (its files are in the drafts, not here). */
function summary(text: string): string {
  const said = text
    .replace(/=== FILE:[\s\S]*?=== END FILE ===/g, '')
    .trim()
    .replace(/\s+/g, ' ');
  return said.length > 300 ? `${said.slice(0, 299)}…` : said || '-';
}

/**
 * The `@loom` drafting of a stage with the model, its checks with at most two corrections, then
 * (Autopilot) the drafts written, or (Supervised) shown and written when the person says Write;
 * then the move. A move the actor refuses for what the drafts lack is one more correction round.
 */
async function draftStage(
  spec: SpecPipeline,
  ports: RunPorts,
  command: AuthoringCommand<AuthoringCommandName>,
  stage: string,
  record: StageRecord,
  say: (l: string) => void,
): Promise<Omit<RunStop, 'stages'> | undefined> {
  let model: ChatModel;
  try {
    model = await ports.model();
  } catch (e) {
    // No role here: drafting a stage has no implementer or reviewer, so the reason is said without them.
    if (e instanceof ModelUnavailableError) return stopped('model-unavailable', stage, t('run.pipeline.noModel', { stage, reason: e.reason ?? e.message }));
    return stopped('model-unavailable', stage, e instanceof Error ? e.message : String(e));
  }
  let problems: string[] = [];
  for (let round = 0; round <= CORRECTION_ROUNDS; round++) {
    const snapshot = spec.snapshot;
    const specText = readOptionalText(join(snapshot.dir, 'spec.md'));
    const templates = loadAuthoringTemplates(snapshot.repoRoot, detectLanguage(specText ?? ''));
    const diff = command.diff ? featureDiffForPrompt(await featureDiff(snapshot, ports.signal)) : undefined;
    // The stage's prompt says what to draft from the spec's files; a correction round says what the actor still found missing.
    const ask = problems.length ? t('run.pipeline.correct', { problems: problems.map((p) => `- ${p}`).join('\n') }) : '';
    const messages = buildAuthoringMessages({ command, templates, dir: snapshot.dir, specDir: snapshot.specDir, stage, request: ask, drafts: [], diff, history: [] });
    const sent: ChatMessage[] = [...messages];
    say(t('run.pipeline.drafting', { command: command.name, round: round + 1 }));
    const tokens = new MessageTokens(model, ports.signal);
    const over = await draftingEstimate(spec, ports, model, messages, tokens, say);
    if (over) return stopped('budget', stage, over);
    const drafted = await runDraftingStep(
      {
        model,
        messages,
        specDir: snapshot.specDir,
        command,
        pending: [],
        check: (drafts) => checkDrafts(snapshot.repoRoot, snapshot.specDir, command, drafts),
        repairMessage: (p) => {
          const m = buildRepairMessage(templates, p);
          sent.push(m);
          return m;
        },
      },
      ports.signal,
      stage,
      say,
    );
    if ('stop' in drafted) return drafted.stop;
    const { result } = drafted;
    record.rounds += 1 + result.repairs;
    const estimated = estimateTokens([...sent.map((m) => m.content), ...result.replies]);
    record.tokens += estimated;
    say(t('run.pipeline.asked', { messages: sent.length, tokens: estimated, files: result.drafts.length }));
    await keepDraftingSpend(spec, ports, stage, model, result.requests, tokens, record, say);
    say(t('run.pipeline.answered', { reply: summary(result.replies.join('\n')) }));
    if (!result.proposed) {
      // A model that asks (brainstorming's approaches) or declines: its words go to the person, who answers in @loom.
      return stopped('model-refused', stage, t('run.pipeline.noDrafts', { command: command.name, reply: summary(result.replies.join('\n')) }));
    }
    if (result.refused.length) say(t('run.pipeline.leftOut', { files: result.refused.map((r) => r.path).join(', ') }));
    if (result.problems.length) {
      // The refused files first: they are the cause a stop must name (a file the stage may not write).
      const told = [...new Set([...result.refused.map((r) => r.reason), ...result.problems])];
      return stopped('check-failed', stage, t('run.pipeline.checksFail', { rounds: CORRECTION_ROUNDS, problems: told.join('; ') }));
    }
    if (ports.mode === 'supervised' && !(await ports.reviewDrafts(stage, result.drafts, result.problems))) {
      return stopped('drafts-declined', stage, t('run.pipeline.draftsWaiting', { stage }));
    }
    if (ports.signal.aborted) return stopped('stopped', stage, t('run.pipeline.stopped', { stage }));
    const written = writeDrafts(spec, command, result.drafts, draftBase(snapshot.dir, result.drafts), replySummary(result.replies), new Date().toISOString());
    record.wrote.push(...written.written, ...(written.handoff ? [written.handoff] : []));
    say(t('run.pipeline.wrote', { files: written.written.join(', ') || '-' }));
    const moved: Omit<RunStop, 'stages'> | undefined | NotReady = await move(spec, ports, stage, say, true);
    if (!isNotReady(moved)) return moved;
    // The actor refused the move for what the files still lack: one more correction round.
    problems = moved.notReady;
  }
  return stopped('check-failed', stage, t('run.pipeline.checksFail', { rounds: CORRECTION_ROUNDS, problems: problems.join('; ') }));
}

/** Runs whose 80 % warning was said (once per run). */
const warnedRuns = new WeakSet<RunPorts>();

/**
 * The drafting request's estimate, said before it is sent; the credits budget's stop when the
 * estimate would pass it (its message: how far the spec got and what the step would cost).
 */
async function draftingEstimate(spec: SpecPipeline, ports: RunPorts, model: ChatModel, messages: readonly ChatMessage[], tokens: MessageTokens, say: (l: string) => void): Promise<string | undefined> {
  const { estimate: e, stop, nearLimit } = await draftingBudget(spec.snapshot, ports.credits?.prices, ports.credits?.budget, model, messages, tokens);
  const n = { input: e.input, output: e.output };
  say(e.credits !== undefined ? t('credits.stageEstimate', { ...n, credits: formatCredits(e.credits) }) : t('credits.stageEstimateUnpriced', { ...n, model: e.model }));
  if (stop) return stop;
  if (nearLimit && !warnedRuns.has(ports)) {
    warnedRuns.add(ports);
    ports.onNearLimit?.(nearLimit.used, nearLimit.budget);
  }
  return undefined;
}

/** The drafting's requests added to the spec's ledger (an intent of its actor) and said; a spend the actor did not keep is said, and the run goes on. */
async function keepDraftingSpend(
  spec: SpecPipeline,
  ports: RunPorts,
  stage: string,
  model: ChatModel,
  requests: readonly DraftingRequest[],
  tokens: MessageTokens,
  record: StageRecord,
  say: (l: string) => void,
): Promise<void> {
  try {
    // A request of the spec's actor: the next drafting's estimate reads the ledger with these tokens in it.
    const spend = await countDrafting(stage, model, requests, tokens, ports.credits?.prices);
    const kept = spendSaid(await request(spec, { type: 'recordSpend', spend }));
    if ('notKept' in kept) return say(kept.notKept);
    if (kept.spend.credits !== undefined) record.credits = (record.credits ?? 0) + kept.spend.credits;
    say(kept.said);
  } catch (e) {
    say(t('credits.notKept', { detail: e instanceof Error ? e.message : String(e) }));
  }
}

/** The move once the stage's work is done: a refusal now stops the run. */
async function moveOn(spec: SpecPipeline, ports: RunPorts, stage: string, say: (l: string) => void): Promise<Omit<RunStop, 'stages'> | undefined> {
  const m = await move(spec, ports, stage, say);
  return isNotReady(m) ? stopped('check-failed', stage, m.notReady.join('; ')) : m;
}

/** A move refused for preconditions still unmet: the stage's work (or one more correction) is still to do. */
type NotReady = { notReady: string[] };
const isNotReady = (m: Omit<RunStop, 'stages'> | undefined | NotReady): m is NotReady => m !== undefined && 'notReady' in m;

/**
 * The move out of the stage, through the actor. A human-approval gate stops the run (the actor
 * refuses Advance there); another question (an interactive stage) is the person's in Supervised and
 * the run's word in Autopilot. `probe`: a refusal for unmet preconditions answers `not-ready`
 * (the stage's work is still to do) instead of stopping.
 */
async function move(spec: SpecPipeline, ports: RunPorts, stage: string, say: (l: string) => void, probe = false): Promise<Omit<RunStop, 'stages'> | undefined | NotReady> {
  let confirm: NeedsConfirmation['step'] | undefined;
  for (let asked = 0; asked < 2; asked++) {
    const a = await request(spec, { type: 'advance', compressionConfirmed: true }, confirm ? { confirm } : {});
    if (a.kind === 'changed') {
      const to = a.to ?? stage;
      say(t('run.pipeline.moved', { from: stage, to }));
      if (a.complete) return stopped('done', to, t('run.pipeline.done', { stage: to }));
      return undefined;
    }
    if (a.kind === 'refused') {
      // A stale approval is a gate again: the person approves it anew, never the run.
      if (a.codes.includes('stale-approval')) return stopped('stale-approval', stage, refusalText(a));
      if (probe && a.check?.unmet.length) return { notReady: [...a.check.unmet] };
      // The actor never lets Advance pass a human-approval gate: the run stops there for the person's approval.
      if (a.code === 'human-approval-gate' && !a.check?.unmet.length) return stopped('approval-gate', stage, t('run.pipeline.approvalGate', { stage, to: a.check?.to ?? stage }));
      return stopped('refused', stage, refusalText(a));
    }
    if (ports.mode === 'supervised' && !(await ports.confirm(a))) return stopped('declined', stage, a.question.title);
    confirm = a.step;
  }
  return stopped('declined', stage, t('run.pipeline.notConfirmed', { stage }));
}
