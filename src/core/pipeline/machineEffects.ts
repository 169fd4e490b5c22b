import { isAbsolute, relative, resolve } from 'node:path';
import { HANDOFFS_DIR, WritableHandoffSchema } from '../files/handoff';
import { PIPELINE_STATE_FILE, type PipelineState } from '../files/pipelineState';
import type { TaskState } from '../files/taskState';
import { TASK_ID_PATTERN, TASK_STATUSES, type TaskStatus } from '../files/vocabulary';
import { taskStateFile } from '../files/taskState';
import type { WorkflowStep } from '../files/workflow';
import type { FeatureWorktree } from '../git/featureWorktree';
import { t } from '../messages';
import type { Answer } from '../port/answer';
import { specTaskIds } from '../specdir/loadSpec';
import { specLanguage } from '../specdir/specLanguage';
import { syncFeatureMemory } from '../memory/featureMemory';
import { reviewFixTaskStates } from '../review/reviewFixes';
import { isReviewProblem, reviewToAnswer } from '../review/reviewToAnswer';
import type { SpecFile } from '../store/specFiles';
import { renewableApprovals, staleApprovals, type StaleApproval } from '../specdir/staleness';
import { checkStage } from '../validators/stageCheck';
import { CONVERGENCE_PASS, convergenceRound, writeConvergence } from '../validators/convergence';
import { writeArtifactAnalysis } from '../validators/artifactAnalysis';
import { OMISSION_HUNTER_FILE, writeOmissionHunt } from '../validators/omissionHunt';
import { approvalFingerprints } from './approvalArtifacts';
import { guard } from './guardCall';
import { stageOnDisk, type PipelineContext, type PipelineEvent } from './machineTypes';
export type { StateStorePort } from './machineTypes';
import { stageOf, type PipelineDefinition, type TransitionKind } from './pipelineDefinition';
import { chooseReapproval, isRefusal, type RefusalCode } from './refusals';
import { hasRole } from './stageRoles';
import { applyStageChange, completeStage, renewApprovals } from './stateRecord';
import { withBaseline } from '../drift/baseline';
import { approvedByOf } from './personRule';
import { answerWith, jobNow, type Sender } from './effects/answered';
import { recordVerification } from './effects/verification';
import { recordReviewAnswer } from './effects/reviewAnswer';
import { recordTaskChange } from './effects/taskChange';

/** An intent the actor turns down before writing: why, in one sentence, with a stable code. */
export interface RequestProblem {
  message: string;
  code: RefusalCode;
  file?: string;
}

/** A file the write would replace that exists but does not parse: it is somebody's work, never overwritten. */
function unreadableFile(facts: PipelineContext['facts'], file: string): RequestProblem | undefined {
  const broken = facts.diagnostics.filter((d) => d.file === `${facts.specDir}/${file}` && d.severity === 'error');
  return broken.length ? { message: t('port.fileUnreadable', { file: `${facts.specDir}/${file}`, problems: broken.map((d) => d.message).join('; ') }), code: 'corrupt-file', file } : undefined;
}

/** How long a sync waits for another writer of loom's memory store (an agent's loom_add_memory). */
const MEMORY_LOCK_WAIT_MS = 5_000;

/** The metadata key loom's git-worktree stage records the feature worktree under. */
export const WORKTREE_PATH_KEY = 'worktree_path';

const intentOf = { ADVANCE: 'advance', APPROVE: 'approve', FAIL: 'fail', RECOVER: 'recover' } as const;

/**
 * The machine's effects: each works out what to write from the facts and the event, writes it
 * through the state store (under the run lock the request holds), and sends the machine its
 * answer (or the error it met) as `ANSWERED`, which the machine emits. An effect never throws
 * into the machine: a failed write is the request's error, and the actor lives on.
 */
export function effects(def: PipelineDefinition) {
  const done = answerWith;

  const base = (context: PipelineContext, stage: string, now: string) => context.state ?? context.freshState(stage, now);
  const here = (context: PipelineContext) => stageOnDisk(def, context.facts);
  const autoRetry = (from: string, to: string) => def.transitions.some((x) => x.from === from && x.to === to && x.kind === 'retry' && x.auto === true);

  /** The stale approval Approve Again renews (the one named, or the only one); undefined when none can be. */
  const reapprovalOf = (context: PipelineContext, stage: string, asked: string | undefined): StaleApproval | undefined => {
    const chosen = chooseReapproval(context.facts.specDir, stage, renewableApprovals(staleApprovals(context.facts), stage), asked);
    return isRefusal(chosen) ? undefined : chosen;
  };

  /** The steps from now on (loom's engine.adjust): those entered stay, in order; the rest are `remaining`. */
  const stepsChange = (context: PipelineContext, event: Extract<PipelineEvent, { type: 'ADJUST_STEPS' }>) => {
    const stage = here(context);
    const entered = new Set([...(context.state?.stage_history ?? []).map((h) => h.stage), ...(stage ? [stage] : [])]);
    const kept = [...event.current.filter((s) => entered.has(s.id)), ...event.remaining.filter((s) => !entered.has(s.id))];
    // The list's order is the way forward (loom's getSteps order): a `next` the old list named would skip the new steps.
    const merged: WorkflowStep[] = kept.map((s, i) => ({ ...s, next: kept[i + 1]?.id ?? null }));
    const ahead = event.current.slice(event.current.findIndex((s) => s.id === stage) + 1);
    const dropped = ahead.filter((s) => !entered.has(s.id) && !event.remaining.some((r) => r.id === s.id));
    // A stage a person must pass: leaving it out needs the person, not an agent's word.
    const needsPerson = (step: WorkflowStep) => step.gate === 'human-approval' || (stageOf(def, step.id)?.confirmation ?? false);
    return {
      merged,
      dropped: dropped.map((s) => s.id),
      droppedGates: dropped.filter(needsPerson).map((s) => s.id),
      problem: event.remaining.length === 0 ? t('port.adjustNothing', { specDir: context.facts.specDir }) : undefined,
    };
  };

  const taskStateProblem = (context: PipelineContext, event: Extract<PipelineEvent, { type: 'SET_TASK_STATE' }>): RequestProblem | undefined => {
    const { specDir } = context.facts;
    if (!TASK_ID_PATTERN.test(event.task)) return { message: t('port.badTaskId', { id: event.task }), code: 'invalid-request' };
    if (!(TASK_STATUSES as readonly string[]).includes(event.status))
      return { message: t('port.unknownStatus', { status: event.status, statuses: TASK_STATUSES.join(', ') }), code: 'invalid-request' };
    const known = specTaskIds(context.facts);
    if (!known.includes(event.task)) return { message: t('port.unknownTask', { specDir, task: event.task, tasks: known.join(', ') || '-' }), code: 'unknown-task' };
    return unreadableFile(context.facts, taskStateFile(event.task));
  };

  const handoffProblem = (context: PipelineContext, event: Extract<PipelineEvent, { type: 'WRITE_HANDOFF' }>): RequestProblem | undefined => {
    const ask = event.handoff;
    const facts = context.facts;
    if ((ask.stage === undefined) === (ask.task === undefined)) return { message: t('port.handoffOneOf'), code: 'invalid-request' };
    const name = (ask.stage ?? ask.task)!;
    if (!TASK_ID_PATTERN.test(name)) return { message: t('port.badTaskId', { id: name }), code: 'invalid-request' };
    if (ask.stage !== undefined && !stageOf(def, ask.stage)) {
      return { message: t('port.unknownStage', { stage: ask.stage, pipeline: def.type, stages: def.stages.map((s) => s.id).join(', ') }), code: 'unknown-stage' };
    }
    if (ask.task !== undefined && !specTaskIds(facts).includes(ask.task)) {
      return { message: t('port.unknownTask', { specDir: facts.specDir, task: ask.task, tasks: specTaskIds(facts).join(', ') || '-' }), code: 'unknown-task' };
    }
    const file = `${HANDOFFS_DIR}/${name}.json`;
    const unreadable = unreadableFile(facts, file);
    if (unreadable) return unreadable;
    const current = here(context);
    if (ask.currentStageOnly && ask.stage !== current) return { message: t('port.notCurrentStage', { stage: ask.stage ?? name, current: current ?? '?' }), code: 'stage-mismatch' };
    if (ask.refresh && !facts.handoffs.has(name)) return { message: t('port.nothingToRefresh', { file: `${facts.specDir}/${file}` }), code: 'invalid-request', file };
    // An artifact is a path of the repository: never one that leads out of it.
    for (const a of ask.artifacts ?? []) {
      const rel = relative(facts.repoRoot, resolve(facts.repoRoot, a));
      if (rel.startsWith('..') || isAbsolute(rel)) return { message: t('port.artifactEscapes', { path: a }), code: 'invalid-request' };
    }
    if (ask.refresh === 'same-paths') return undefined;
    const parsed = WritableHandoffSchema().safeParse(handoffOf(context, event, '1970-01-01T00:00:00.000Z'));
    if (!parsed.success) return { message: t('port.handoffInvalid', { detail: parsed.error.issues.map((i) => `${i.path.join('.') || 'handoff'}: ${i.message}`).join('; ') }), code: 'invalid-handoff' };
    return undefined;
  };

  /** The handoff as loom writes it: `task_id` is the stage or task it is for, always (state-store.js writeHandoff). */
  const handoffOf = (context: PipelineContext, event: Extract<PipelineEvent, { type: 'WRITE_HANDOFF' }>, now: string): Record<string, unknown> => {
    const ask = event.handoff;
    const name = (ask.stage ?? ask.task)!;
    const kept: Record<string, unknown> = ask.refresh === true ? { ...context.facts.handoffs.get(name) } : {};
    return {
      ...kept,
      ...ask.data,
      ...(ask.stage !== undefined ? { stage: ask.stage } : {}),
      task_id: name,
      status: ask.status ?? kept.status ?? ask.data?.status ?? 'done',
      // Only a summary given is written (loom's `handoff write` and loom_write_handoff alike).
      ...(ask.summary !== undefined ? { summary: ask.summary } : {}),
      ...(ask.artifacts ? { artifacts: ask.artifacts } : {}),
      written_at: now,
      ...(ask.writtenBy ? { written_by: ask.writtenBy } : {}),
    };
  };

  return {
    reapprovalOf,
    stepsChange,
    taskStateProblem,
    handoffProblem,

    /** A stage change: the history entry loom writes for it, through the store. */
    recordChange(context: PipelineContext, event: PipelineEvent, self: Sender, params: { from: string; to: string; kind: TransitionKind }, confirmed: boolean) {
      if (event.type !== 'ADVANCE' && event.type !== 'APPROVE' && event.type !== 'FAIL' && event.type !== 'RECOVER') return;
      done(self, event.id, () => {
        const stage = stageOf(def, params.from);
        const byPerson = confirmed && event.type !== 'RECOVER' && (stage?.confirmation ?? false);
        // Going back by itself is loom's convergence-pass retry: the history names the validator and its findings.
        const retryBy = params.kind === 'retry' && autoRetry(params.from, params.to) ? guard('validatorPasses', { name: CONVERGENCE_PASS, stage: params.from }) : undefined;
        // A gate records the sha256 of what was approved (loom's approve), even when empty.
        const prints = byPerson && stage?.humanApproval ? approvalFingerprints(def, params.from, context.facts) : undefined;
        // Passing a gate again (after a recovery) re-approves it: its older stale entries would
        // otherwise block loom's next advance for good, as loom never clears them.
        const older = prints ? (staleApprovals(context.facts).find((a) => a.stage === params.from)?.historyIndices ?? []) : [];
        const start = base(context, params.from, event.now);
        const renewed = prints && older.length ? renewApprovals(start, older, prints, event.now, `approved again when passing ${params.from}`) : start;
        const state = applyStageChange(renewed, {
          ...params,
          now: event.now,
          reason: event.reason?.trim() || (retryBy ? context.verdicts.outcome(retryBy).reasons.join('; ') : undefined),
          confirmed: byPerson,
          approvedBy: byPerson ? approvedByOf(event) : undefined,
          approvalFingerprints: prints,
          // Going back from converge is what loom does when convergence-pass fails.
          validator: event.type === 'FAIL' ? event.validator : retryBy ? CONVERGENCE_PASS : undefined,
          fromConvergence: hasRole(def, params.from, 'convergence'),
        });
        // Reaching the stage that syncs: the commit the code is at is what the spec is true to (drift's baseline).
        const codeCommit = (event.type === 'ADVANCE' || event.type === 'APPROVE') && hasRole(def, params.to, 'sync') ? event.codeCommit : undefined;
        const written = codeCommit ? withBaseline(state, { commit: codeCommit, recorded_at: event.now, source: 'synced' }) : state;
        context.store.writeState(context.facts, written, event.now);
        return { answer: { kind: 'changed', intent: intentOf[event.type], from: params.from, to: params.to, state: written }, state: written };
      });
    },

    /** Advance at the last stage: loom's `terminal` history entry, the pipeline completed. */
    complete(context: PipelineContext, event: PipelineEvent, self: Sender, stageId: string, confirmed: boolean) {
      if (event.type !== 'ADVANCE') return;
      done(self, event.id, () => {
        const stage = stageOf(def, stageId);
        const byPerson = confirmed && (stage?.confirmation ?? false);
        const state = completeStage(base(context, stageId, event.now), event.now, byPerson, byPerson ? approvedByOf(event) : undefined);
        context.store.writeState(context.facts, state, event.now);
        return { answer: { kind: 'changed', intent: 'advance', from: stageId, to: stageId, state, complete: true }, state };
      });
    },

    /** Approve Again: the stale entries of the gate get the files' fingerprints in place; the stage stays. */
    reapprove(context: PipelineContext, event: PipelineEvent, self: Sender, stageId: string) {
      if (event.type !== 'REAPPROVE') return;
      done(self, event.id, () => {
        const chosen = reapprovalOf(context, stageId, event.stage)!;
        const reason = event.reason?.trim() || `approved again: ${chosen.changed.join(', ')} changed since the approval${chosen.approvedAt ? ` of ${chosen.approvedAt}` : ''}`;
        const state = renewApprovals(base(context, stageId, event.now), chosen.historyIndices, approvalFingerprints(def, chosen.stage, context.facts), event.now, reason);
        context.store.writeState(context.facts, state, event.now);
        return { answer: { kind: 'changed', intent: 'reapprove', from: stageId, to: stageId, state, reapproved: chosen }, state };
      });
    },

    /**
     * The worktree git made or reused, recorded in `metadata.worktree_path` (absolute, as loom
     * writes it), read afresh under the lock: git took a while, and the state may have moved.
     * A spec without a state file gets nothing written (the worktree is found through git).
     */
    recordWorktree(context: PipelineContext, event: PipelineEvent, self: Sender) {
      const worktree = (event as unknown as { output: FeatureWorktree }).output;
      done(self, context.worktreeRequest, () => {
        const now = jobNow(context.jobAt?.worktree, 'Create Worktree');
        const state = context.store.updateState(
          context.facts,
          (fresh) => {
            const current = fresh.state;
            if (!current || (Object.hasOwn(current.metadata, WORKTREE_PATH_KEY) && current.metadata[WORKTREE_PATH_KEY] === worktree.path)) return undefined;
            return { ...current, metadata: { ...current.metadata, [WORKTREE_PATH_KEY]: worktree.path }, updated_at: now };
          },
          now,
        );
        const at = state?.current_stage ?? here(context);
        return { answer: { kind: 'changed', intent: 'createWorktree', from: at, to: at, ...(state ? { state } : {}), worktree, recorded: state !== undefined }, state };
      });
    },

    recordVerification: (context: PipelineContext, event: PipelineEvent, self: Sender) => recordVerification(def, context, event, self),

    /** The steps from now on, recorded as `dynamic_steps`; the spec stays where it is. */
    adjustSteps(context: PipelineContext, event: PipelineEvent, self: Sender) {
      if (event.type !== 'ADJUST_STEPS') return;
      done(self, event.id, () => {
        const { merged } = stepsChange(context, event);
        const state: PipelineState = { ...context.state!, dynamic_steps: merged, updated_at: event.now };
        context.store.writeState(context.facts, state, event.now);
        return { answer: { kind: 'changed', intent: 'adjustSteps', from: here(context), to: here(context), state, steps: merged }, state };
      });
    },

    /**
     * loom's `run --task --task-status` and `loom_update_task_state` (state-store.js updateTask):
     * a missing state starts as initTask writes it; `failed` counts a retry when a state existed
     * before; the blocker is set only when given, and kept otherwise.
     */
    setTaskState(context: PipelineContext, event: PipelineEvent, self: Sender) {
      if (event.type !== 'SET_TASK_STATE') return;
      done(self, event.id, () => {
        const current = context.facts.taskStates.get(event.task);
        const status = event.status as TaskStatus;
        const start: TaskState = current ?? {
          task_id: event.task,
          // loom's initTask writes the absolute spec directory (PipelineStateStore.specDir); both forms are read.
          spec_dir: context.facts.dir,
          status: 'pending',
          retry_count: 0,
          agent_session_id: null,
          created_at: event.now,
          updated_at: event.now,
          last_reviewer_result: null,
          blocker: null,
        };
        const task: TaskState = {
          ...start,
          status,
          ...(event.blocker ? { blocker: event.blocker } : {}),
          ...(current && status === 'failed' ? { retry_count: (current.retry_count ?? 0) + 1 } : {}),
          updated_at: event.now,
        };
        context.store.writeTaskState(context.facts, task, event.now);
        return { answer: { kind: 'changed', intent: 'setTaskState', from: here(context), to: here(context), task } };
      });
    },

    /** The first state record of a spec on the steps chosen for it, as loom's `run --auto` writes it. */
    startPipeline(context: PipelineContext, event: PipelineEvent, self: Sender) {
      if (event.type !== 'START_PIPELINE') return;
      done(self, event.id, () => {
        const first = event.steps[0].id;
        const state: PipelineState = { ...context.freshState(first, event.now), spec_dir: context.facts.dir, current_stage_started_at: event.now, dynamic_steps: [...event.steps] };
        context.store.writeState(context.facts, state, event.now);
        return { answer: { kind: 'changed', intent: 'startPipeline', from: null, to: first, state }, state };
      });
    },

    /**
     * A new spec's first state, as loom's init writes it (PipelineStateStore.init): at the stage
     * given, `spec_dir` absolute, progress.md from it. Refused where the spec has a state already.
     */
    initState(context: PipelineContext, event: PipelineEvent, self: Sender) {
      if (event.type !== 'INIT_STATE') return;
      done(self, event.id, () => {
        const facts = context.facts;
        if (facts.stateCondition !== 'missing') {
          const file = `${facts.specDir}/${PIPELINE_STATE_FILE}`;
          return {
            answer: {
              kind: 'refused',
              code: 'state-exists',
              codes: ['state-exists'],
              message: t('port.stateExists', { file }),
              reasons: [],
              remedies: [],
              stage: here(context),
              file: PIPELINE_STATE_FILE,
            },
          };
        }
        const state: PipelineState = { ...context.freshState(event.stage, event.now), spec_dir: resolve(facts.dir) };
        context.store.writeState(facts, state, event.now);
        return { answer: { kind: 'changed', intent: 'initState', from: null, to: event.stage, state }, state };
      });
    },

    /** loom's `handoff write`: one handoff with its fingerprints; `refresh` keeps what it says. */
    writeHandoff(context: PipelineContext, event: PipelineEvent, self: Sender) {
      if (event.type !== 'WRITE_HANDOFF') return;
      done(self, event.id, () => {
        const ask = event.handoff;
        const name = (ask.stage ?? ask.task)!;
        const written =
          ask.refresh === 'same-paths'
            ? context.store.refreshHandoff(context.facts, name, context.facts.handoffs.get(name)!)
            : context.store.writeHandoff(context.facts, name, WritableHandoffSchema().parse(handoffOf(context, event, event.now)), event.now);
        return {
          answer: {
            kind: 'changed',
            intent: 'writeHandoff',
            from: here(context),
            to: here(context),
            file: `${HANDOFFS_DIR}/${name}.json`,
            handoff: written,
            refreshed: ask.refresh !== undefined && ask.refresh !== false,
          },
        };
      });
    },

    /**
     * Synced by Loom: the feature's decisions and pitfalls into loom's memory through
     * loom_add_memory's writer, while the request holds the spec's run lock (the store's own lock
     * is taken inside); what the store holds already is not added twice.
     */
    syncMemory(context: PipelineContext, event: PipelineEvent, self: Sender) {
      if (event.type !== 'SYNC') return;
      done(self, event.id, () => {
        const stage = here(context);
        const memory = syncFeatureMemory(context.facts, specLanguage(context.facts), event.now, MEMORY_LOCK_WAIT_MS);
        return { answer: { kind: 'changed', intent: 'sync', from: stage, to: stage, memory } };
      });
    },

    /** The tasks the review sends back, pending in fix mode with their fix items, through the store (the fix run reads them next). */
    writeReviewFixes(context: PipelineContext, event: PipelineEvent) {
      if (event.type !== 'ANSWER_REVIEW') return;
      const review = reviewToAnswer(context.facts);
      if (isReviewProblem(review)) return;
      for (const state of reviewFixTaskStates(context.facts, review.fixes, event.now)) context.store.writeTaskState(context.facts, state, event.now);
    },

    recordReviewAnswer: (context: PipelineContext, event: PipelineEvent, self: Sender) => recordReviewAnswer(def, context, event, self),

    /** Check Stage: the current stage's validators, writing the reports loom writes, and a passing report stage's handoff. */
    checkStage(context: PipelineContext, event: PipelineEvent, self: Sender) {
      if (event.type !== 'CHECK_STAGE') return;
      done(self, event.id, () => {
        const stage = here(context);
        const check = checkStage(
          { snapshot: context.facts, definition: def, stage },
          event.now,
          (name, handoff) => context.store.writeHandoff(context.facts, name, handoff, event.now),
          (files) => context.store.writeReport(context.facts, files),
        );
        return { answer: { kind: 'changed', intent: 'checkStage', from: stage, to: stage, check } };
      });
    },

    /**
     * A validator's report (analyze-artifacts, converge, the omission hunt), written as loom's
     * scripts write it, from the facts read under the request's lock, stamped with its `now`.
     */
    writeReport(context: PipelineContext, event: PipelineEvent, self: Sender) {
      if (event.type !== 'WRITE_REPORT') return;
      const facts = context.facts;
      const now = event.now;
      const at = here(context);
      const write = (files: readonly SpecFile[]) => context.store.writeReport(facts, files);
      const refuse = (message: string, code: RefusalCode, file?: string): Answer => ({
        kind: 'refused',
        code,
        codes: [code],
        message,
        reasons: [],
        remedies: [],
        stage: at,
        ...(file ? { file } : {}),
      });
      done(self, event.id, () => {
        const ask = event.report;
        if (ask.kind === 'artifactAnalysis') {
          const { report, written } = writeArtifactAnalysis(facts, { now, write, ...(ask.override ? { override: ask.override } : {}) });
          return { answer: { kind: 'changed', intent: 'analyzeArtifacts', from: at, to: at, report, written } };
        }
        if (ask.kind === 'convergence') {
          const next = convergenceRound(facts) + 1;
          // The round comes from pipeline.state.json; a different one means the caller lost count.
          if (ask.round !== undefined && ask.round !== next) return { answer: refuse(t('mcp.converge.wrongRound', { round: ask.round, specDir: facts.specDir, next }), 'wrong-round') };
          return { answer: { kind: 'changed', intent: 'converge', from: at, to: at, outcome: writeConvergence(facts, { now, write }) } };
        }
        const broken = unreadableFile(facts, OMISSION_HUNTER_FILE);
        if (broken) return { answer: refuse(broken.message, broken.code, broken.file) };
        return { answer: { kind: 'changed', intent: 'huntOmissions', from: at, to: at, report: writeOmissionHunt(facts, now, write) } };
      });
    },

    recordTaskChange: (context: PipelineContext, event: PipelineEvent, self: Sender) => recordTaskChange(def, context, event, self),
  };
}
