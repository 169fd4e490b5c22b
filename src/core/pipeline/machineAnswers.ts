import { checkExecutingPreconditions, type ExecutingPreconditions } from '../executing/preconditions';
import { testLocationsOfRun } from '../executing/tools/testWriteScope';
import { FAILED_STAGE } from '../files/vocabulary';
import { t } from '../messages';
import type { NeedsConfirmation, Refused, Remedy } from '../port/answer';
import { questionOf, stepFacts, type StepFacts } from '../port/question';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { findWorktree } from '../specdir/worktree';
import { hasRole, stageWithRole } from './stageRoles';
import { stageOnDisk, type PipelineContext, type PipelineEvent } from './machineTypes';
import { stageOf, type PipelineDefinition } from './pipelineDefinition';
import { advanceRefusal, chooseReapproval, failRefusal, isRefusal, recoverRefusal, type Refusal, type RefusalCode } from './refusals';
import { renewableApprovals, staleApprovals } from '../specdir/staleness';
import { stepsChange } from './effects/steps';
import { taskStateProblem } from './effects/taskState';
import { handoffProblem } from './effects/handoff';
import { personRequired } from './personRule';
import { nextTransitions, type TransitionCheck } from './transitionCheck';
import { unfinishedTasks } from '../views/remedies';
import { isReviewProblem, reviewAnswered, reviewToAnswer } from '../review/reviewToAnswer';
import { baselineNotMoved } from '../drift/baselineMove';

/** Run Tasks' preconditions on one snapshot, worked out once for the guard and for the refusal. */
const preconditions = new WeakMap<SpecSnapshot, Map<string, ExecutingPreconditions>>();
export function runTasksCheck(def: PipelineDefinition, facts: SpecSnapshot, worktree: string | undefined): ExecutingPreconditions {
  let byWorktree = preconditions.get(facts);
  if (!byWorktree) preconditions.set(facts, (byWorktree = new Map()));
  const key = worktree ?? '';
  let found = byWorktree.get(key);
  if (!found) byWorktree.set(key, (found = checkExecutingPreconditions(facts, def, worktree)));
  return found;
}

/** What would help with a refusal, read off its codes and the move's verdicts. */
function remediesOf(def: PipelineDefinition, facts: SpecSnapshot, stage: string | null, r: Refusal): Remedy[] {
  const out: Remedy[] = [];
  const codes = r.codes;
  if (codes.includes('spec-failed')) out.push({ kind: 'recover', targets: [...def.recoveryTargets] });
  if (codes.includes('stale-approval')) out.push({ kind: 'reapprove' });
  if (codes.includes('open-threads')) out.push({ kind: 'refine-threads' });
  if (codes.includes('tasks-running')) out.push({ kind: 'stop-tasks' });
  if (codes.includes('no-gate')) out.push({ kind: 'advance' });
  if (codes.includes('human-approval-gate')) out.push({ kind: 'approve' });
  if (codes.includes('compression-required')) out.push({ kind: 'compress-context' });
  const check = r.check;
  // With tasks left to run, running them helps first: they write test-report.md and the handoff themselves.
  if (check && unfinishedTasks(def, stage, check).length) return [{ kind: 'run-tasks' }, ...out];
  if (check?.verdicts.some((v) => v.call.type === 'worktreeExists' && !v.outcome.ok)) out.push({ kind: 'create-worktree' });
  const file = codes.includes('state-unreadable') ? 'pipeline.state.json' : r.file;
  if (file) out.push({ kind: 'open-file', file, exists: facts.files.has(file) });
  return out;
}

/** A refusal as every surface receives it: its main code first, with what would help. */
export function refusedAnswer(def: PipelineDefinition, facts: SpecSnapshot, stage: string | null, r: Refusal): Refused {
  const codes: RefusalCode[] = r.codes.length ? [...new Set(r.codes)] : ['transition-refused'];
  return {
    kind: 'refused',
    code: codes[0],
    codes,
    message: r.message,
    reasons: r.reasons,
    remedies: remediesOf(def, facts, stage, r),
    ...(r.file ? { file: r.file } : {}),
    ...(r.check ? { check: r.check } : {}),
    stage,
  };
}

const refusal = (message: string, codes: RefusalCode[], reasons: string[] = [], file?: string): Refusal => ({ message, reasons, codes, ...(file ? { file } : {}) });

/** Everything holds but the person's word: the question, worded once. */
function needsWord(facts: StepFacts, step: { from: string; to: string }, agentMayReport: boolean): NeedsConfirmation {
  return { kind: 'needs-confirmation', step, question: questionOf(facts), facts, agentMayReport };
}

/** Only the person's word is missing from a move: nothing unmet, the compression given. */
const onlyWordMissing = (check: TransitionCheck | undefined): check is TransitionCheck =>
  check !== undefined && check.unmet.length === 0 && check.compression.length === 0 && check.confirmations.length > 0;

/** What every answer to an event not taken is worked out from: the pipeline, the actor's context, the stage, and how a refusal is made. */
interface NotTaken {
  def: PipelineDefinition;
  context: PipelineContext;
  facts: SpecSnapshot;
  stage: string;
  specDir: string;
  refuse: (r: Refusal) => Refused;
}

type EventOf<T extends PipelineEvent['type']> = Extract<PipelineEvent, { type: T }>;
type NotTakenAnswer = Refused | NeedsConfirmation;

/**
 * The answer to an event the machine did not take at `stage`: why not, in one sentence with its
 * reasons, from the same verdicts its guards read; or, where only a person's word is missing,
 * the question to put to them. `running`: the tasks of the spec are running.
 */
export function answerWhenNotTaken(def: PipelineDefinition, context: PipelineContext, stage: string, event: PipelineEvent, confirmed: boolean, running = false): NotTakenAnswer {
  const { facts } = context;
  const onDisk = stageOnDisk(def, facts);
  const n: NotTaken = { def, context, facts, stage, specDir: facts.specDir, refuse: (r) => refusedAnswer(def, facts, onDisk, r) };
  const { refuse, specDir } = n;
  if (!stageOf(def, stage) && stage !== FAILED_STAGE) return refuse(unreadableRefusal(def, facts));
  if (running && event.type !== 'STOP_TASKS') {
    return refuse(refusal(t(event.type === 'RUN_TASKS' ? 'run.alreadyRunning' : 'refusal.tasksRunning', { specDir }), ['tasks-running']));
  }
  switch (event.type) {
    case 'ADVANCE':
    case 'APPROVE':
      return moveNotTaken(n, event, confirmed);
    case 'FAIL':
      return refuse(failRefusal(def, specDir, stage, event.reason) ?? refusal(t('refusal.failNotTaken', { specDir, stage }), ['not-allowed']));
    case 'RECOVER':
      return refuse(recoverRefusal(def, specDir, stage, event.to, context.verdicts));
    case 'REAPPROVE': {
      const chosen = chooseReapproval(specDir, stage, renewableApprovals(staleApprovals(facts), stage), event.stage);
      return refuse(isRefusal(chosen) ? chosen : refusal(t('refusal.cannotReapprove', { specDir, stage: chosen.stage }), ['not-allowed']));
    }
    case 'RUN_TASKS':
      return runTasksNotTaken(n, event);
    case 'CHECK_STAGE':
      return refuse(refusal(t('refusal.specFailed', { specDir, targets: def.recoveryTargets.join(', ') }), ['spec-failed']));
    case 'STOP_TASKS':
      return refuse(refusal(t('port.notRunning', { specDir }), ['not-running']));
    case 'TASK_CHANGE':
      return refuse(refusal(t('taskChange.busy', { specDir }), ['worktree-busy']));
    case 'CREATE_WORKTREE':
      return refuse(refusal(t('port.worktreeBusy', { specDir }), ['worktree-busy']));
    case 'VERIFY':
      return verifyNotTaken(n, event);
    case 'SYNC':
      return syncNotTaken(n);
    case 'MOVE_BASELINE': {
      const why = baselineNotMoved(def, specDir, stage);
      return refuse(refusal(why.message, [why.code]));
    }
    case 'ANSWER_REVIEW':
      return answerReviewNotTaken(n, event);
    case 'ADJUST_STEPS':
      return adjustStepsNotTaken(n, event);
    case 'START_PIPELINE':
      return startPipelineNotTaken(n, event);
    case 'SET_TASK_STATE':
    case 'WRITE_HANDOFF':
      return fileWriteNotTaken(n, event);
    default:
      return refuse(refusal(t('refusal.noAnswer', { specDir, event: event.type }), ['not-allowed']));
  }
}

/** Advance or Approve not taken: the question when only the person's word is missing, else why not, with the other ways on that hold. */
function moveNotTaken(n: NotTaken, event: EventOf<'ADVANCE' | 'APPROVE'>, confirmed: boolean): NotTakenAnswer {
  const { def, context, stage, specDir, refuse } = n;
  const approve = event.type === 'APPROVE';
  const r = advanceRefusal(def, specDir, stage, { to: approve ? undefined : event.to, confirm: confirmed, compressionConfirmed: event.compressionConfirmed === true, approve }, context.verdicts);
  if (onlyWordMissing(r.check)) return askForWord(n, event, r.check);
  // Plain Advance goes the one way chosen; another way that holds (back to executing from
  // verification) is offered, not taken.
  const others = approve || event.to ? [] : nextTransitions(def, stage, context.verdicts).filter((c) => c.to !== r.check?.to && c.ready);
  const answer = refuse(r);
  return others.length ? { ...answer, remedies: [...others.map((c): Remedy => ({ kind: 'advance', to: c.to })), ...answer.remedies] } : answer;
}

/** Everything of a move holds but the person's word: the question to put to them, unless the team requires the person's own word and this is an agent's report. */
function askForWord(n: NotTaken, event: EventOf<'ADVANCE' | 'APPROVE'>, check: TransitionCheck): NotTakenAnswer {
  const { def, context, facts, stage, specDir, refuse } = n;
  const approve = event.type === 'APPROVE';
  // The word came, but only as an agent's report, and the team requires the person's own (personRule.ts).
  if (personRequired(context.verdicts.rules, event)) {
    const through = event.approver?.through;
    return refuse(
      refusal(
        t('agentHost.refusal.personRequired', { specDir, stage }),
        ['person-required'],
        [through ? t('agentHost.refusal.through', { through }) : t('agentHost.refusal.agentWord'), t('agentHost.refusal.howToApprove')],
      ),
    );
  }
  const to = check.to;
  const step = { from: stage, to };
  const f = stepFacts(def, facts, { from: stage, to, approve, confirmations: check.confirmations });
  // loom takes an agent's report of the person's word for a gate, unless the team requires the person (loom.approvals.requirePerson).
  const agentMayReport = approve && context.verdicts.rules.requirePerson !== true;
  const asked = needsWord({ ...f, gate: stageOf(def, stage)?.humanApproval ? 'human-approval' : stageOf(def, stage)?.confirmation ? 'confirmation' : undefined }, step, agentMayReport);
  // A worktree that is not there is better made than confirmed away.
  const noWorktree = check.verdicts.some((v) => v.call.type === 'worktreeExists' && !v.outcome.ok);
  return noWorktree ? { ...asked, remedies: [{ kind: 'create-worktree' }] } : asked;
}

/** Run Tasks not taken: the stage that runs them, the preconditions, else the person's agreement to send the tasks to a model. */
function runTasksNotTaken(n: NotTaken, event: EventOf<'RUN_TASKS'>): NotTakenAnswer {
  const { def, facts, stage, specDir, refuse } = n;
  const taskStage = stageWithRole(def, 'tasks');
  if (!taskStage) return refuse(refusal(t('run.noTaskStage', { pipeline: def.type }), ['no-task-stage']));
  if (stage !== taskStage.id) return refuse(refusal(t('port.notAtTaskStage', { specDir, stage, taskStage: taskStage.id }), ['not-at-task-stage']));
  const pre = runTasksCheck(def, facts, event.input.worktree);
  if (!pre.ok) {
    const errors = pre.diagnostics.filter((d) => d.severity === 'error');
    // A missing worktree is fixed by making it, not by opening the state file it was looked up in.
    const noWorktree = errors.some((d) => d.code === 'no-worktree');
    const fileError = errors.find((d) => d.code !== 'no-worktree');
    const first = fileError?.file.startsWith(`${specDir}/`) ? fileError.file.slice(specDir.length + 1) : undefined;
    const answer = refuse(
      refusal(
        t('port.tasksCannotRun', { specDir }),
        ['tasks-cannot-run'],
        errors.map((d) => d.message),
        first,
      ),
    );
    return noWorktree ? { ...answer, remedies: [{ kind: 'create-worktree' }, ...answer.remedies] } : answer;
  }
  const step = { from: stage, to: stage };
  const base = stepFacts(def, facts, { from: stage, to: stage, approve: false, confirmations: [] });
  return needsWord({ ...base, verb: 'runTasks', scope: runScope(facts) }, step, false);
}

/** Verify not taken: no verification stage, another stage, an untrusted workspace, or one already running. */
function verifyNotTaken(n: NotTaken, event: EventOf<'VERIFY'>): Refused {
  const { def, stage, specDir, refuse } = n;
  const verification = stageWithRole(def, 'verification');
  if (!verification) return refuse(refusal(t('verify.noStage', { pipeline: def.type }), ['no-verification-stage']));
  if (stage !== verification.id) return refuse(refusal(t('verify.notAtStage', { specDir, stage, verification: verification.id }), ['not-at-verification']));
  if (!event.verify.trusted) return refuse(refusal(t('verify.untrusted'), ['untrusted-workspace']));
  return refuse(refusal(t('verify.busy', { specDir }), ['verification-busy']));
}

/** Sync not taken: the spec is not at the stage that syncs; the way on towards it is offered when it is open. */
function syncNotTaken(n: NotTaken): Refused {
  const { def, context, stage, specDir, refuse } = n;
  const sync = stageWithRole(def, 'sync');
  if (!sync) return refuse(refusal(t('sync.noStage', { pipeline: def.type }), ['no-sync-stage']));
  const answer = refuse(refusal(t('sync.notAtStage', { specDir, stage, sync: sync.id }), ['not-at-sync'], [t('sync.notAtStage.reason', { stage, sync: sync.id })]));
  // The way on from here is what helps, when it is open: moving on towards the stage that syncs.
  const ready = stage === FAILED_STAGE ? [] : nextTransitions(def, stage, context.verdicts).filter((c) => c.ready && c.kind === 'forward');
  return { ...answer, remedies: [...ready.map((c): Remedy => ({ kind: 'advance', to: c.to })), ...answer.remedies] };
}

/** Answer Review not taken: the stage, what review-feedback.md asks, an answer already written, trust, or a fix run under way. */
function answerReviewNotTaken(n: NotTaken, event: EventOf<'ANSWER_REVIEW'>): Refused {
  const { def, facts, stage, specDir, refuse } = n;
  const respond = stageWithRole(def, 'reviewResponse');
  if (!respond) return refuse(refusal(t('answerReview.noStage', { pipeline: def.type }), ['no-review-response-stage']));
  const atGate = hasRole(def, stage, 'reviewGate');
  if (stage !== respond.id && !atGate)
    return refuse(refusal(t('answerReview.notAtStage', { specDir, stage, respond: respond.id, gate: stageWithRole(def, 'reviewGate')?.id ?? respond.id }), ['not-at-review-response']));
  const review = reviewToAnswer(facts);
  if (isReviewProblem(review)) {
    const answer = refuse(refusal(review.message, [review.code === 'no-worktree' ? 'tasks-cannot-run' : review.code === 'response-exists' ? 'not-allowed' : review.code], [], review.file));
    return review.code === 'no-worktree' ? { ...answer, remedies: [{ kind: 'create-worktree' }] } : answer;
  }
  if (review.fixes.length && !stageWithRole(def, 'tasks')) return refuse(refusal(t('run.noTaskStage', { pipeline: def.type }), ['no-task-stage']));
  if (atGate && review.fixes.length === 0) return refuse(refusal(t('answerReview.gateNothing', { specDir, stage }), ['already-answered'], [], 'review-feedback.md'));
  if (!atGate && reviewAnswered(facts, respond.id)) {
    const answered = refuse(refusal(t('answerReview.answered', { specDir, file: 'review-response.md' }), ['already-answered'], [], 'review-response.md'));
    return { ...answered, remedies: [{ kind: 'advance' }, ...answered.remedies] };
  }
  if (!event.input.settings.trusted) return refuse(refusal(t('answerReview.untrusted'), ['untrusted-workspace']));
  return refuse(refusal(t('answerReview.busy', { specDir }), ['tasks-running']));
}

/** Adjust Steps not taken: the change does not hold, there is no state to record it in, else the person's word on the steps left out. */
function adjustStepsNotTaken(n: NotTaken, event: EventOf<'ADJUST_STEPS'>): NotTakenAnswer {
  const { def, context, facts, stage, specDir, refuse } = n;
  const change = stepsChange(def, context, event);
  if (change.problem) return refuse(refusal(change.problem, ['invalid-request']));
  if (!context.state) return refuse(refusal(t('port.noStateToRecord', { specDir }), ['no-state-record'], [], 'pipeline.state.json'));
  const base = stepFacts(def, facts, { from: stage, to: stage, approve: false, confirmations: [] });
  return needsWord(
    { ...base, verb: 'adjustSteps', steps: { from: change.merged.map((s) => s.id), leftOut: change.dropped, leftOutGates: change.droppedGates } },
    { from: stage, to: stage },
    change.droppedGates.length === 0,
  );
}

/** Start Pipeline not taken: a state exists already (or no step was chosen), else the person's word on the steps. */
function startPipelineNotTaken(n: NotTaken, event: EventOf<'START_PIPELINE'>): NotTakenAnswer {
  const { def, facts, stage, specDir, refuse } = n;
  if (facts.stateCondition !== 'missing' || event.steps.length === 0)
    return refuse(refusal(t('port.stateExists', { file: `${specDir}/pipeline.state.json` }), ['state-exists'], [], 'pipeline.state.json'));
  const base = stepFacts(def, facts, { from: stage, to: stage, approve: false, confirmations: [] });
  return needsWord({ ...base, verb: 'startPipeline', steps: { from: event.steps.map((s) => s.id), leftOut: [] }, scope: [...event.why] }, { from: stage, to: event.steps[0].id }, true);
}

/** A task state or a handoff not written: what is wrong with the request, by name. */
function fileWriteNotTaken(n: NotTaken, event: EventOf<'SET_TASK_STATE' | 'WRITE_HANDOFF'>): Refused {
  const { def, context, specDir, refuse } = n;
  const problem = event.type === 'SET_TASK_STATE' ? taskStateProblem(context, event) : handoffProblem(def, context, event);
  // A guard swapped in (tests) may refuse what the checks find no fault with: said plainly, never a crash of the actor.
  if (!problem) return refuse(refusal(t('refusal.noAnswer', { specDir, event: event.type }), ['not-allowed']));
  return refuse(refusal(problem.message, [problem.code], [], problem.file));
}

/** Why nothing can change a spec whose stage is unknown: its workflow or its state file. */
function unreadableRefusal(def: PipelineDefinition, facts: SpecSnapshot): Refusal {
  const file = `${facts.specDir}/pipeline.state.json`;
  if (def.problems?.length)
    return refusal(
      def.problems[0].message,
      ['state-unreadable'],
      def.problems.slice(1).map((d) => d.message),
    );
  const onDisk = stageOnDisk(def, facts);
  return onDisk === null
    ? refusal(t('input.stateCorrupt', { file }), ['state-unreadable', 'corrupt-file'], [], 'pipeline.state.json')
    : refusal(
        t('input.unknownStage', { file, pipeline: def.type }),
        ['state-unreadable'],
        [t('refusal.stageUnknownDetail', { stage: onDisk, pipeline: def.type, stages: def.stages.map((s) => s.id).join(', ') })],
        'pipeline.state.json',
      );
}

/** Where Run Tasks writes and what it sends, told before the person agrees. */
function runScope(facts: SpecSnapshot): string[] {
  const lines = [t('ask.runTasks.sends')];
  const worktree = findWorktree(facts);
  if (worktree) {
    const locations = testLocationsOfRun(worktree, facts.tasks.values(), [`${facts.specDir}/`]);
    const where = [...locations.folders, ...locations.beside.map((b) => t('ask.runTasks.testFilesBeside', { folder: b.folder || './', extensions: b.extensions.join(', ') }))].join(', ');
    lines.push(t('ask.runTasks.testLocations', { where }));
  }
  return lines;
}
