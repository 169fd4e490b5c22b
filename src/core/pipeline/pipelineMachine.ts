import { spawnChild } from 'xstate';
import { TASK_CHANGE_JOB } from '../executing/review/taskChangeJob';
import { withActions } from './machineActions';
import { withGuards } from './machineGuards';
import { machineSetup, taskChangeInput } from './machineJobs';
import { machineReading } from './machineReading';
import { pipelineStates } from './machineStates';
import { UNREADABLE, VERIFICATION_JOB, WORKTREE_JOB, type PipelineContext } from './machineTypes';
import { stageOf, type PipelineDefinition } from './pipelineDefinition';

export type { StateStorePort } from './machineTypes';
export { EXECUTING_RUN, machineStateOf, stageOfValue, stageOnDisk, UNREADABLE, VERIFICATION_JOB, WORKTREE_JOB, type PipelineContext, type PipelineEmitted, type PipelineEvent } from './machineTypes';

/**
 * The XState machine of one pipeline, generated from its definition: one state per stage plus
 * `failed`, each transition guarded by the named preconditions, which read the guards' verdicts
 * on the spec's facts. It is the one place that decides: every intent of every surface is an
 * event to the spec's actor (src/core/port/request.ts), every answer is the actor's own, emitted
 * as an `answer` event (changed, refused with its reasons, or a question for a person), and what
 * a request changes is written by its effects (effects/, one file a family), with the request's
 * `now`, through the state store, under the run lock the request holds; the stage reports loom's
 * `run --advance` writes before it decides are the move's own first effect (effects/stageReports.ts),
 * after which the actor follows the files and decides the move. A run it starts (Run Tasks, Answer
 * Review's fixes) writes its own task states and handoffs; what it keeps in the spec's state is
 * the actor's effect too, handed to it as its RunRecorder (effects/runRecord.ts). Stages added to
 * pipeline.schema.json or workflow.yaml appear here without code changes.
 */
export function createPipelineMachine(def: PipelineDefinition) {
  const reading = machineReading(def);
  const { diskStage } = reading;
  const impl = withActions(withGuards(machineSetup(), def, reading), def, reading);
  return impl.createMachine({
    id: `loom-pipeline-${def.type}`,
    context: ({ input }) => input,
    // A pipeline that cannot be read has no stages: every spec of it is unreadable.
    initial: stageOf(def, def.initial) ? def.initial : UNREADABLE,
    on: {
      ANSWERED: { actions: ['takeAnswer', 'emitAnswer'] },
      // loom writes these reports whenever asked, at any stage, a failed or unreadable one too: no stage takes the event for itself.
      WRITE_REPORT: { actions: 'writeReport' },
      // A new spec's first state: at its root, since the stage it names may be one no pipeline reads yet.
      INIT_STATE: { actions: 'initState' },
      STOP_TASKS: { actions: { type: 'answerNotTaken', params: ({ context }: { context: PipelineContext }) => ({ stage: diskStage(context.facts) ?? UNREADABLE }) } as never },
      [`xstate.done.actor.${WORKTREE_JOB}`]: { actions: ['recordWorktree', 'endWorktree'] },
      [`xstate.error.actor.${WORKTREE_JOB}`]: { actions: ['worktreeFailed', 'endWorktree'] },
      TASK_CHANGE: [
        { guard: 'taskChangeIdle', actions: ['startTaskChange', spawnChild('taskChangeJob', { id: TASK_CHANGE_JOB, input: taskChangeInput(def) }) as never] },
        { actions: { type: 'answerNotTaken', params: ({ context }: { context: PipelineContext }) => ({ stage: diskStage(context.facts) ?? UNREADABLE }) } },
      ],
      [`xstate.done.actor.${TASK_CHANGE_JOB}`]: { actions: ['recordTaskChange', 'endTaskChange'] },
      [`xstate.error.actor.${TASK_CHANGE_JOB}`]: { actions: ['taskChangeFailed', 'endTaskChange'] },
      [`xstate.done.actor.${VERIFICATION_JOB}`]: { actions: ['recordVerification', 'endVerification'] },
      [`xstate.error.actor.${VERIFICATION_JOB}`]: { actions: ['verificationFailed', 'endVerification'] },
    } as never,
    states: pipelineStates(def) as never,
  });
}

export type PipelineMachine = ReturnType<typeof createPipelineMachine>;
