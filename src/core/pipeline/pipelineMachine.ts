import { and, assign, setup, type SnapshotFrom } from 'xstate';
import type { PipelineState } from '../files/pipelineState';
import { FAILED_STAGE } from '../files/vocabulary';
import type { SpecSnapshot } from '../spec/specSnapshot';
import type { GuardCall, GuardName } from './guardCall';
import { evaluateGuard, GUARDS } from './guards';
import type { PipelineDefinition, TransitionKind } from './pipelineDefinition';
import { applyStageChange } from './stateRecord';

export interface PipelineContext {
  snapshot: SpecSnapshot;
  state: PipelineState;
  /** Set by the transition action; the caller persists `state` when it changes. */
  lastChange?: { from: string; to: string; kind: TransitionKind };
}

export type PipelineEvent =
  | { type: 'ADVANCE'; to?: string; confirm?: boolean; now: string; reason?: string; approvalFingerprints?: Record<string, string>; validator?: string }
  | { type: 'FAIL'; reason: string; now: string; validator?: string }
  | { type: 'RECOVER'; to: string; now: string; reason?: string }
  /** Files of the spec changed on disk: the guards now see the new facts. */
  | { type: 'SNAPSHOT_CHANGED'; snapshot: SpecSnapshot; state?: PipelineState };

const confirmedBy = (event: PipelineEvent) => event.type === 'ADVANCE' && event.confirm === true;

/** Each named guard of the core, adapted to XState's guard signature. */
const machineGuards = Object.fromEntries(
  (Object.keys(GUARDS) as GuardName[]).map((name) => [
    name,
    ({ context, event }: { context: PipelineContext; event: PipelineEvent }, params: unknown) =>
      evaluateGuard({ type: name, params } as GuardCall, { snapshot: context.snapshot, confirmed: confirmedBy(event) }).ok,
  ]),
) as Record<GuardName, (args: { context: PipelineContext; event: PipelineEvent }, params: unknown) => boolean>;

/**
 * The XState machine of one pipeline, generated from its definition: one state per stage plus
 * `failed`, ADVANCE / RECOVER transitions guarded by the named preconditions, FAIL from any
 * stage that is not terminal. Stages added to pipeline.schema.json or workflow.yaml appear here
 * without code changes.
 */
export function createPipelineMachine(def: PipelineDefinition) {
  const impl = setup({
    types: {
      context: {} as PipelineContext,
      events: {} as PipelineEvent,
      input: {} as PipelineContext,
    },
    guards: {
      ...machineGuards,
      targetIs: ({ event }, params: { to: string }) => (event.type === 'ADVANCE' || event.type === 'RECOVER') && (event.to === undefined || event.to === params.to),
    },
    actions: {
      recordChange: assign(({ context, event }, params: { from: string; to: string; kind: TransitionKind }) => {
        const now = 'now' in event ? event.now : new Date().toISOString();
        const stage = def.stages.find((s) => s.id === params.from);
        const state = applyStageChange(context.state, {
          ...params,
          now,
          reason: 'reason' in event ? event.reason : undefined,
          confirmed: event.type === 'ADVANCE' && event.confirm === true && (stage?.confirmation ?? false),
          approvalFingerprints: event.type === 'ADVANCE' && stage?.humanApproval ? event.approvalFingerprints : undefined,
          // Going back from converge is what loom does when convergence-pass fails.
          validator: event.type === 'FAIL' ? event.validator
            : event.type === 'ADVANCE' && params.kind === 'retry' ? event.validator ?? stage?.validators.find((v) => v === 'convergence-pass')
              : undefined,
        });
        return { state, lastChange: params };
      }),
      updateSnapshot: assign(({ context, event }) =>
        event.type === 'SNAPSHOT_CHANGED' ? { snapshot: event.snapshot, state: event.state ?? context.state } : {}),
    },
  });

  type StateConfig = Parameters<typeof impl.createMachine>[0]['states'];
  const states: NonNullable<StateConfig> = {};
  const ids = [...def.stages.map((s) => s.id), FAILED_STAGE];
  for (const id of ids) {
    const outgoing = def.transitions.filter((t) => t.from === id);
    const guarded = (kind: TransitionKind[]) =>
      outgoing.filter((t) => kind.includes(t.kind)).map((t) => ({
        target: t.to,
        guard: and([{ type: 'targetIs' as const, params: { to: t.to } }, ...t.guards.map((g) => ({ type: g.type, params: g.params }))] as never),
        actions: { type: 'recordChange' as const, params: { from: id, to: t.to, kind: t.kind } },
      }));
    const fail = outgoing.find((t) => t.kind === 'fail');
    states[id] = {
      on: {
        ADVANCE: guarded(['forward', 'retry']),
        RECOVER: guarded(['recover']),
        ...(fail ? { FAIL: { target: FAILED_STAGE, actions: { type: 'recordChange' as const, params: { from: id, to: FAILED_STAGE, kind: 'fail' as const } } } } : {}),
        SNAPSHOT_CHANGED: { actions: 'updateSnapshot' as const },
      },
    } as never;
  }

  return impl.createMachine({
    id: `loom-pipeline-${def.type}`,
    context: ({ input }) => input,
    initial: def.initial,
    states,
  });
}

export type PipelineMachine = ReturnType<typeof createPipelineMachine>;
export type PipelineMachineSnapshot = SnapshotFrom<PipelineMachine>;
