import { and, assign, sendTo, setup, type SnapshotFrom, type StateValue } from 'xstate';
import { executingMachine, type ExecutingMachineInput } from '../executing/machine/executingMachine';
import type { UserAnswerEvent } from '../executing/machine/runEvents';
import type { ExecutingResult } from '../executing/machine/runTypes';
import type { PipelineState } from '../files/pipelineState';
import { FAILED_STAGE } from '../files/vocabulary';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { renewableApprovals, staleApprovals, type StaleApproval } from '../specdir/staleness';
import { approvalFingerprints } from './approvalArtifacts';
import { guard, type GuardCall, type GuardName } from './guardCall';
import { GUARDS, holds } from './guards';
import type { GuardVerdicts } from './guardVerdicts';
import { stageOf, type PipelineDefinition, type TransitionKind } from './pipelineDefinition';
import { advanceRefusal, chooseReapproval, completesPipeline, completionTransition, failRefusal, isRefusal, recoverRefusal, type Refusal } from './refusals';
import { inferStage } from './stageInference';
import { hasRole } from './stageRoles';
import { CONVERGENCE_PASS } from '../validators/convergence';
import { applyStageChange, completeStage, isCompleted, renewApprovals } from './stateRecord';

/** Where the machine writes loom's state: the one state store (tests give their own). */
export interface StateStorePort {
  /** Writes pipeline.state.json and progress.md for the spec `facts` describes; throws when refused. */
  writeState(facts: SpecSnapshot, state: PipelineState, now: string): void;
}

/** The result of the last event, read by whoever sent it. */
export type PipelineOutcome =
  | {
      kind: 'changed';
      from: string;
      to: string;
      state: PipelineState;
      change: TransitionKind | 'complete' | 'reapprove';
      /** Completing a pipeline completed before: nothing was written. */
      alreadyComplete?: boolean;
      /** Approve Again: the approval renewed. */
      reapproved?: StaleApproval;
    }
  | ({ kind: 'refused' } & Refusal)
  /** The guards held but the store could not write (the lock is held, the state file turned corrupt). */
  | { kind: 'error'; error: Error };

export interface PipelineContext {
  /** The spec's files as last read: the one immutable snapshot every guard reads. */
  facts: SpecSnapshot;
  /** The guards' verdicts on `facts`, each evaluated once. */
  verdicts: GuardVerdicts;
  /** The state record on disk; undefined when the spec has none yet (its stage inferred). */
  state?: PipelineState;
  /** A new record for a spec without one, as loom's init writes it. */
  freshState: (stage: string, now: string) => PipelineState;
  store: StateStorePort;
  outcome?: PipelineOutcome;
  /** How the last run of the executing stage ended: its result, or the error it stopped with. */
  lastRun?: { result: ExecutingResult } | { error: unknown };
}

type Stamp = { now: string };
export type PipelineEvent =
  /** `compressionConfirmed`: the caller compressed the closed stage's context (loom 3's --compression-confirmed). */
  | ({ type: 'ADVANCE'; to?: string; confirm?: boolean; compressionConfirmed?: boolean; reason?: string } & Stamp)
  /** Confirms the current stage's gate and advances. */
  | ({ type: 'APPROVE'; compressionConfirmed?: boolean; reason?: string } & Stamp)
  /** Renews a stale approval of a gate already passed; the stage stays. */
  | ({ type: 'REAPPROVE'; stage?: string; reason?: string } & Stamp)
  | ({ type: 'FAIL'; reason: string; validator?: string } & Stamp)
  | ({ type: 'RECOVER'; to: string; reason?: string } & Stamp)
  /** The spec's files changed on disk (or were just written): the machine follows the new facts. */
  | { type: 'FILES_CHANGED'; facts: SpecSnapshot; verdicts: GuardVerdicts; state?: PipelineState }
  /** Runs the tasks: the executing stage's statechart as a child of the stage that runs tasks. */
  | { type: 'RUN_TASKS'; input: ExecutingMachineInput }
  /** Stop Tasks: the run stops, its in-flight model requests and test runs cancelled. */
  | { type: 'STOP_TASKS' }
  /** The user's answer to a question of the run (breaker choice, manual fix done, context). */
  | { type: 'TASK_ANSWER'; answer: UserAnswerEvent };

/** The stage a machine state value stands for (the stage that runs tasks has substates). */
export const stageOfValue = (value: StateValue): string => (typeof value === 'string' ? value : Object.keys(value)[0]);

/** The id of the executing run while the stage that runs tasks runs them. */
export const EXECUTING_RUN = 'executingRun';

/** The machine state of a spec whose stage cannot be known (corrupt state file, unknown stage). */
export const UNREADABLE = '(unreadable)';

/**
 * The stage the files say the spec is at: the state file's, else inferred from the artifacts;
 * null when the state file exists but cannot be read.
 */
export function stageOnDisk(def: PipelineDefinition, facts: SpecSnapshot): string | null {
  if (def.problems?.length) return null;
  if (facts.state) return facts.state.current_stage;
  if (facts.stateCondition === 'invalid') return null;
  return inferStage(def, facts);
}

/** The machine state for a stage on disk: the stage itself when the pipeline has it. */
export function machineStateOf(def: PipelineDefinition, stage: string | null): string {
  return stage !== null && (stage === FAILED_STAGE || stageOf(def, stage)) ? stage : UNREADABLE;
}

/** The user's word comes with Approve and with a confirmed Advance; recovering is confirmed by asking for it. */
const confirmedBy = (event: PipelineEvent) => event.type === 'APPROVE' || event.type === 'RECOVER' || (event.type === 'ADVANCE' && event.confirm === true);

/** The caller's word that the closed stage's context was compressed comes only with the move itself. */
const compressedBy = (event: PipelineEvent) => (event.type === 'ADVANCE' || event.type === 'APPROVE') && event.compressionConfirmed === true;

/** The record a change starts from. */
const base = (context: PipelineContext, stage: string, now: string) => context.state ?? context.freshState(stage, now);

const renewable = (context: PipelineContext, stage: string) => renewableApprovals(staleApprovals(context.facts), stage);

/**
 * The XState machine of one pipeline, generated from its definition: one state per stage plus
 * `failed`, each transition guarded by the named preconditions, which read the guards' verdicts
 * on the spec's facts. It is the one place that decides: every change to a spec is an event to
 * its actor, every refusal is the machine's own explanation, and every change is written by its
 * actions through the state store. Stages added to pipeline.schema.json or workflow.yaml appear
 * here without code changes.
 */
export function createPipelineMachine(def: PipelineDefinition) {
  const namedGuards = Object.fromEntries(
    (Object.keys(GUARDS) as GuardName[]).map((name) => [
      name,
      ({ context, event }: { context: PipelineContext; event: PipelineEvent }, params: unknown) =>
        holds(context.verdicts.outcome({ type: name, params } as GuardCall), confirmedBy(event), compressedBy(event)),
    ]),
  ) as Record<GuardName, (args: { context: PipelineContext; event: PipelineEvent }, params: unknown) => boolean>;

  // Every state's FILES_CHANGED asks where the files put the spec: work it out once per snapshot
  // (without a state file it is inferred from the artifacts, by the guards).
  let lastDisk: { facts: SpecSnapshot; stage: string | null } | undefined;
  const diskStage = (facts: SpecSnapshot) => (lastDisk?.facts === facts ? lastDisk.stage : (lastDisk = { facts, stage: stageOnDisk(def, facts) }).stage);

  const writeOrError = (
    context: PipelineContext,
    from: string,
    to: string,
    state: PipelineState,
    now: string,
    change: Extract<PipelineOutcome, { kind: 'changed' }>['change'],
    extra: Partial<Extract<PipelineOutcome, { kind: 'changed' }>> = {},
  ): Partial<PipelineContext> => {
    try {
      context.store.writeState(context.facts, state, now);
    } catch (error) {
      return { outcome: { kind: 'error', error: error as Error } };
    }
    return { state, outcome: { kind: 'changed', from, to, state, change, ...extra } };
  };

  const autoRetry = (from: string, to: string) => def.transitions.some((t) => t.from === from && t.to === to && t.kind === 'retry' && t.auto === true);

  const impl = setup({
    types: {
      context: {} as PipelineContext,
      events: {} as PipelineEvent,
      input: {} as Omit<PipelineContext, 'outcome' | 'lastRun'>,
    },
    actors: { executingRun: executingMachine() },
    guards: {
      ...namedGuards,
      /** Advance names this stage, or names none and this is the way forward. */
      targetIs: ({ event }, params: { to: string; kind: TransitionKind; auto?: boolean }) => {
        if (event.type === 'APPROVE') return params.kind === 'forward';
        if (event.type !== 'ADVANCE' && event.type !== 'RECOVER') return false;
        return event.to === undefined ? params.kind === 'forward' || (event.type === 'ADVANCE' && params.auto === true) : event.to === params.to;
      },
      completes: ({ event }, params: { stage: string }) => event.type === 'ADVANCE' && completesPipeline(def, params.stage, event.to),
      completed: ({ context }) => context.state !== undefined && isCompleted(context.state),
      hasReason: ({ event }) => event.type === 'FAIL' && event.reason.trim() !== '',
      reapprovable: ({ context, event }, params: { stage: string }) =>
        event.type === 'REAPPROVE' && !isRefusal(chooseReapproval(context.facts.specDir, params.stage, renewable(context, params.stage), event.stage)),
      diskStageIs: ({ event }, params: { state: string }) => event.type === 'FILES_CHANGED' && machineStateOf(def, diskStage(event.facts)) === params.state,
    },
    actions: {
      recordChange: assign(({ context, event }, params: { from: string; to: string; kind: TransitionKind }) => {
        if (event.type !== 'ADVANCE' && event.type !== 'APPROVE' && event.type !== 'FAIL' && event.type !== 'RECOVER') return {};
        const stage = stageOf(def, params.from);
        const confirmed = confirmedBy(event) && event.type !== 'RECOVER' && (stage?.confirmation ?? false);
        // Going back by itself is loom's convergence-pass retry: the history names the validator and its findings.
        const retryBy = params.kind === 'retry' && autoRetry(params.from, params.to) ? guard('validatorPasses', { name: CONVERGENCE_PASS, stage: params.from }) : undefined;
        // A gate records the sha256 of what was approved (loom's approve), even when empty.
        const prints = confirmed && stage?.humanApproval ? approvalFingerprints(def, params.from, context.facts) : undefined;
        // Passing a gate again (after a recovery) re-approves it: its older stale entries would
        // otherwise block loom's next advance for good, as loom never clears them.
        const older = prints ? (staleApprovals(context.facts).find((a) => a.stage === params.from)?.historyIndices ?? []) : [];
        const start = base(context, params.from, event.now);
        const renewed = prints && older.length ? renewApprovals(start, older, prints, event.now, `approved again when passing ${params.from}`) : start;
        const state = applyStageChange(renewed, {
          ...params,
          now: event.now,
          reason: event.reason?.trim() || (retryBy ? context.verdicts.outcome(retryBy).reasons.join('; ') : undefined),
          confirmed,
          approvalFingerprints: prints,
          // Going back from converge is what loom does when convergence-pass fails.
          validator: event.type === 'FAIL' ? event.validator : retryBy ? CONVERGENCE_PASS : undefined,
          fromConvergence: hasRole(def, params.from, 'convergence'),
        });
        return writeOrError(context, params.from, params.to, state, event.now, params.kind);
      }),
      complete: assign(({ context, event }, params: { stage: string }) => {
        if (event.type !== 'ADVANCE') return {};
        const stage = stageOf(def, params.stage);
        const state = completeStage(base(context, params.stage, event.now), event.now, event.confirm === true && (stage?.confirmation ?? false));
        return writeOrError(context, params.stage, params.stage, state, event.now, 'complete');
      }),
      alreadyComplete: assign(({ context }, params: { stage: string }) => ({
        outcome: { kind: 'changed' as const, from: params.stage, to: params.stage, state: context.state!, change: 'complete' as const, alreadyComplete: true },
      })),
      reapprove: assign(({ context, event }, params: { stage: string }) => {
        if (event.type !== 'REAPPROVE') return {};
        const chosen = chooseReapproval(context.facts.specDir, params.stage, renewable(context, params.stage), event.stage);
        if (isRefusal(chosen)) return { outcome: { kind: 'refused' as const, ...chosen } };
        const reason = event.reason?.trim() || `approved again: ${chosen.changed.join(', ')} changed since the approval${chosen.approvedAt ? ` of ${chosen.approvedAt}` : ''}`;
        const state = renewApprovals(base(context, params.stage, event.now), chosen.historyIndices, approvalFingerprints(def, chosen.stage, context.facts), event.now, reason);
        return writeOrError(context, chosen.stage, params.stage, state, event.now, 'reapprove', { reapproved: chosen });
      }),
      /** The event was not taken: the machine says why, from the same verdicts its guards read. */
      refuse: assign(({ context, event }, params: { stage: string }) => ({ outcome: { kind: 'refused' as const, ...refusalOf(def, context, params.stage, event) } })),
      refuseWhileRunning: assign(({ context }) => ({
        outcome: { kind: 'refused' as const, message: `the tasks of ${context.facts.specDir} are running; stop them first (Stop Tasks)`, reasons: [], codes: ['tasks-running' as const] },
      })),
      takeFacts: assign(({ event }) => (event.type === 'FILES_CHANGED' ? { facts: event.facts, verdicts: event.verdicts, state: event.state, outcome: undefined } : {})),
    },
  });

  type StateConfig = NonNullable<Parameters<typeof impl.createMachine>[0]['states']>;
  const states: StateConfig = {};
  const refuse = (stage: string) => ({ actions: { type: 'refuse' as const, params: { stage } } });
  for (const id of [...def.stages.map((s) => s.id), FAILED_STAGE]) {
    const outgoing = def.transitions.filter((t) => t.from === id);
    const guarded = (kinds: TransitionKind[]) =>
      outgoing
        .filter((t) => kinds.includes(t.kind))
        .map((t) => ({
          target: t.to,
          guard: and([{ type: 'targetIs' as const, params: { to: t.to, kind: t.kind, auto: t.auto } }, ...t.guards.map((g) => ({ type: g.type, params: g.params }))] as never),
          actions: { type: 'recordChange' as const, params: { from: id, to: t.to, kind: t.kind } },
        }));
    const stage = stageOf(def, id);
    const completion = stage?.terminal
      ? [
          { guard: and([{ type: 'completes' as const, params: { stage: id } }, 'completed'] as never), actions: { type: 'alreadyComplete' as const, params: { stage: id } } },
          {
            guard: and([{ type: 'completes' as const, params: { stage: id } }, ...completionTransition(stage).guards.map((g) => ({ type: g.type, params: g.params }))] as never),
            actions: { type: 'complete' as const, params: { stage: id } },
          },
        ]
      : [];
    const fail = outgoing.find((t) => t.kind === 'fail');
    states[id] = {
      on: {
        ADVANCE: [...completion, ...guarded(['forward', 'retry']), refuse(id)],
        APPROVE: [...(stage?.confirmation ? guarded(['forward']) : []), refuse(id)],
        RECOVER: [...guarded(['recover']), refuse(id)],
        REAPPROVE: [{ guard: { type: 'reapprovable' as const, params: { stage: id } }, actions: { type: 'reapprove' as const, params: { stage: id } } }, refuse(id)],
        FAIL: [
          ...(fail ? [{ target: FAILED_STAGE, guard: 'hasReason' as const, actions: { type: 'recordChange' as const, params: { from: id, to: FAILED_STAGE, kind: 'fail' as const } } }] : []),
          refuse(id),
        ],
      },
    } as never;
    if (stage?.role === 'tasks') Object.assign(states[id] as object, tasksStage());
  }
  states[UNREADABLE] = {
    on: Object.fromEntries(['ADVANCE', 'APPROVE', 'REAPPROVE', 'FAIL', 'RECOVER'].map((e) => [e, refuse(UNREADABLE)])),
  } as never;

  // The files decide where the spec is: loom's CLI, git or a person may have moved it. Staying
  // at the same stage takes the new facts without leaving the state, so work running inside it
  // (the executing stage's run) goes on.
  const stateIds = Object.keys(states);
  for (const id of stateIds) {
    const node = states[id] as { on: Record<string, unknown> };
    node.on.FILES_CHANGED = [
      { guard: { type: 'diskStageIs' as const, params: { state: id } }, actions: 'takeFacts' as const },
      ...stateIds.filter((other) => other !== id).map((other) => ({ target: other, guard: { type: 'diskStageIs' as const, params: { state: other } }, actions: 'takeFacts' as const })),
    ];
  }
  return impl.createMachine({
    id: `loom-pipeline-${def.type}`,
    context: ({ input }) => input,
    // A pipeline that cannot be read has no stages: every spec of it is unreadable.
    initial: stageOf(def, def.initial) ? def.initial : UNREADABLE,
    states,
  });
}

/**
 * The stage that runs tasks waits (idle) or runs them: the executing statechart invoked as its
 * child. Stop Tasks and the user's answers go to the child; leaving the stage (Mark Failed, or
 * the files naming another stage) stops it. Advancing waits until the run has ended.
 */
function tasksStage() {
  return {
    initial: 'idle',
    states: {
      idle: { on: { RUN_TASKS: { target: 'running', actions: assign({ lastRun: undefined }) } } },
      running: {
        invoke: {
          id: EXECUTING_RUN,
          src: 'executingRun' as const,
          input: ({ event }: { event: PipelineEvent }) => (event as Extract<PipelineEvent, { type: 'RUN_TASKS' }>).input,
          onDone: { target: 'idle', actions: assign({ lastRun: ({ event }: { event: { output: ExecutingResult } }) => ({ result: event.output }) }) },
          onError: { target: 'idle', actions: assign({ lastRun: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) }) },
        },
        on: {
          STOP_TASKS: { actions: sendTo(EXECUTING_RUN, { type: 'STOP' }) },
          TASK_ANSWER: { actions: sendTo(EXECUTING_RUN, ({ event }: { event: PipelineEvent }) => (event as Extract<PipelineEvent, { type: 'TASK_ANSWER' }>).answer) },
          ADVANCE: { actions: 'refuseWhileRunning' as const },
          APPROVE: { actions: 'refuseWhileRunning' as const },
        },
      },
    },
  };
}

/** The sentence for an event the machine did not take at `stage`. */
function refusalOf(def: PipelineDefinition, context: PipelineContext, stage: string, event: PipelineEvent): Refusal {
  const { specDir } = context.facts;
  if (stage === UNREADABLE && def.problems?.length) {
    return { message: def.problems[0].message, reasons: def.problems.slice(1).map((d) => d.message), codes: ['state-unreadable'] };
  }
  if (stage === UNREADABLE) {
    const onDisk = stageOnDisk(def, context.facts);
    const file = `${specDir}/pipeline.state.json`;
    return onDisk === null
      ? { message: `${file} is corrupt, so the current stage is unknown; fix or restore it first`, reasons: [], codes: ['state-unreadable'], file: 'pipeline.state.json' }
      : {
          message: `${file} names the stage "${onDisk}", which the ${def.type} pipeline does not have (${def.stages.map((s) => s.id).join(', ')})`,
          reasons: [],
          codes: ['state-unreadable'],
          file: 'pipeline.state.json',
        };
  }
  switch (event.type) {
    case 'ADVANCE':
      return advanceRefusal(def, specDir, stage, { to: event.to, confirm: event.confirm === true, compressionConfirmed: event.compressionConfirmed === true }, context.verdicts);
    case 'APPROVE':
      return advanceRefusal(def, specDir, stage, { confirm: true, compressionConfirmed: event.compressionConfirmed === true, approve: true }, context.verdicts);
    case 'FAIL':
      return failRefusal(def, specDir, stage, event.reason) ?? { message: `${specDir}: the pipeline did not accept FAIL from ${stage}`, reasons: [], codes: [] };
    case 'RECOVER':
      return recoverRefusal(def, specDir, stage, event.to, context.verdicts);
    case 'REAPPROVE': {
      const chosen = chooseReapproval(specDir, stage, renewable(context, stage), event.stage);
      return isRefusal(chosen) ? chosen : { message: `${specDir} cannot approve ${chosen.stage} again`, reasons: [], codes: [] };
    }
    default:
      return { message: `${specDir}: ${event.type} is not a pipeline change`, reasons: [], codes: [] };
  }
}

export type PipelineMachine = ReturnType<typeof createPipelineMachine>;
export type PipelineMachineSnapshot = SnapshotFrom<PipelineMachine>;
