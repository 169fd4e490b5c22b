import { GUARDS, holds } from './guards';
import type { GuardCall, GuardName } from './guardCall';
import { advancePassesGate, chooseTransition } from './chooseTransition';
import { runTasksCheck } from './machineAnswers';
import type { machineSetup } from './machineJobs';
import { compressedBy, type MachineReading } from './machineReading';
import { machineStateOf, type PipelineContext, type PipelineEvent } from './machineTypes';
import type { PipelineDefinition, TransitionKind } from './pipelineDefinition';
import { completesPipeline } from './refusals';
import { isCompleted } from './stateRecord';
import { hasRole } from './stageRoles';
import { fixRunOutput } from './reviewResponseStage';
import { reviewFixesToAnswer, reviewResponseOnly } from './specOffers';
import { stageReportDue } from './effects/stageReports';
import { reapprovalOf } from './effects/stageChange';
import { stepsChange } from './effects/steps';
import { taskStateProblem } from './effects/taskState';
import { handoffProblem } from './effects/handoff';

/**
 * The machine's guards: the named preconditions of pipeline.schema.json (each reads its verdict
 * on the facts, evaluated once), and the conditions of the machine's own events, each from the
 * snapshot and the event only.
 */
export function withGuards(base: ReturnType<typeof machineSetup>, def: PipelineDefinition, reading: MachineReading) {
  const { diskStage, confirms } = reading;
  const namedGuards = Object.fromEntries(
    (Object.keys(GUARDS) as GuardName[]).map((name) => [
      name,
      ({ context, event }: { context: PipelineContext; event: PipelineEvent }, params: unknown) =>
        holds(context.verdicts.outcome({ type: name, params } as GuardCall), confirms(context, event), compressedBy(event)),
    ]),
  ) as Record<GuardName, (args: { context: PipelineContext; event: PipelineEvent }, params: unknown) => boolean>;

  return base.extend({
    guards: {
      ...namedGuards,
      /** The way this move takes is the one transition `params` names (chooseTransition decides). */
      chosen: ({ context, event }, params: { to: string; kind: TransitionKind }) => {
        if (event.type === 'RECOVER') return params.kind === 'recover' && event.to === params.to;
        if (event.type !== 'ADVANCE' && event.type !== 'APPROVE') return false;
        const from = diskStage(context.facts);
        if (from === null) return false;
        if (event.type === 'ADVANCE' && advancePassesGate(def, from, event.to)) return false;
        const way = chooseTransition(def, from, event.type === 'APPROVE' ? { approve: true } : { to: event.to }, context.verdicts);
        return way?.to === params.to && way.kind === params.kind;
      },
      completes: ({ event }, params: { stage: string }) => event.type === 'ADVANCE' && completesPipeline(def, params.stage, event.to) && !advancePassesGate(def, params.stage, event.to),
      completed: ({ context }) => context.state !== undefined && isCompleted(context.state),
      hasReason: ({ event }) => event.type === 'FAIL' && event.reason.trim() !== '',
      reapprovable: ({ context, event }, params: { stage: string }) => event.type === 'REAPPROVE' && reapprovalOf(context, params.stage, event.stage) !== undefined,
      diskStageIs: ({ event }, params: { state: string }) => event.type === 'FILES_CHANGED' && machineStateOf(def, diskStage(event.facts)) === params.state,
      /** Run Tasks' preconditions (plan approved, worktree there, task graph sound, files readable). */
      tasksCanRun: ({ context, event }) => event.type === 'RUN_TASKS' && runTasksCheck(def, context.facts, event.input.worktree).ok,
      /** The person agreed to send the tasks to a language model. */
      runConfirmed: ({ event }) => event.type === 'RUN_TASKS' && event.confirm !== undefined,
      worktreeIdle: ({ context }) => context.worktreeRequest === undefined,
      /** One rewind or rejected file at a time. */
      taskChangeIdle: ({ context }) => context.taskChangeRequest === undefined,
      hasStateRecord: ({ context }) => context.state !== undefined,
      /** Leaving out a stage a person must pass needs that person's word. */
      stepsMayChange: ({ context, event }) => event.type === 'ADJUST_STEPS' && stepsChange(def, context, event).problem === undefined,
      /** Changing the steps needs a person's word; an agent's report of it will do unless a stage a person must pass is left out. */
      stepsConfirmed: ({ context, event }) =>
        event.type === 'ADJUST_STEPS' && event.confirm !== undefined && (event.confirm === true || event.confirm.by !== 'agent' || stepsChange(def, context, event).droppedGates.length === 0),
      /** A spec starts on chosen steps only while it has no state record, and with the person's word (or the agent's report of it). */
      startable: ({ context, event }) => event.type === 'START_PIPELINE' && context.facts.stateCondition === 'missing' && event.steps.length > 0 && event.confirm !== undefined,
      taskStateValid: ({ context, event }) => event.type === 'SET_TASK_STATE' && taskStateProblem(context, event) === undefined,
      handoffValid: ({ context, event }) => event.type === 'WRITE_HANDOFF' && handoffProblem(def, context, event) === undefined,
      /** Verification runs at the stage that verifies (loom's verification skill), not before the work is there. */
      atVerification: ({ context }) => hasRole(def, diskStage(context.facts), 'verification'),
      /** Synced by Loom runs at the stage whose role is to sync (loom's index-update), whatever the pipeline calls it. */
      atSync: ({ context }) => hasRole(def, diskStage(context.facts), 'sync'),
      /** loom's `run --advance` writes the stage's report before it decides this move (stageReports.ts). */
      stageReportDue: ({ context, event }) => stageReportDue(def, diskStage(context.facts), event) !== undefined,
      /**
       * The review's fixes go back to the implementer (loom's receiving-code-review): at the stage that
       * answers it or at the gate between rounds; never twice for one feedback (its handoff fresh).
       */
      reviewFixesToAnswer: ({ context }) => reviewFixesToAnswer(def, context.facts, diskStage(context.facts)),
      /** A review with nothing to fix, not answered yet, at the stage that answers it: the tests re-run and the response. */
      reviewResponseOnly: ({ context }) => reviewResponseOnly(def, context.facts, diskStage(context.facts)),
      /** Answering re-runs the project's tests: only where the workspace is trusted. */
      answerTrusted: ({ event }) => event.type === 'ANSWER_REVIEW' && event.input.settings.trusted,
      fixRunCompleted: ({ event }) => fixRunOutput(event).outcome === 'completed',
      /** It runs the project's commands: only where the workspace is trusted. */
      verificationTrusted: ({ event }) => event.type === 'VERIFY' && event.verify.trusted,
      verificationIdle: ({ context }) => context.verifyRequest === undefined,
    },
  });
}
