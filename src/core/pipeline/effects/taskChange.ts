import type { PipelineContext, PipelineEvent } from '../machineTypes';
import { stageOnDisk } from '../machineTypes';
import type { PipelineDefinition } from '../pipelineDefinition';
import { answerWith, jobNow, type Sender } from './answered';
import { takeBackTraceability } from '../../executing/evidence/traceabilityUpdate';
import { rewindQuestion, type TaskChangeJobOutput } from '../../executing/review/taskChangeJob';
import { taskStatesAfter } from '../../executing/review/taskChanges';
import { recordThreadsSent } from '../../executing/review/taskReviewRound';

/**
 * Rewind, Reject File or Send to the Implementer once git did its part (src/core/executing/review): the task states
 * written (rewound tasks pending; a rejected file's task pending in fix mode), a rewind's
 * traceability entries taken back; the threads sent recorded as sent. A rewind git has not done yet is the person's question.
 */
export function recordTaskChange(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender): void {
  const out = (event as unknown as { output: TaskChangeJobOutput }).output;
  const id = context.taskChangeRequest;
  const stage = stageOnDisk(def, context.facts) ?? '';
  if (!out.applied) {
    if (out.plan.kind === 'rewind') self.send({ type: 'ANSWERED', id, answer: rewindQuestion(def, context.facts, stage, out.plan) });
    return;
  }
  answerWith(self, id, () => {
    const now = jobNow(context.jobAt?.taskChange, 'Rewind or Reject File');
    const { plan } = out;
    // The facts as git left them when the job ended (it took a while), not as the request found them.
    const facts = context.store.read(context.facts);
    for (const state of taskStatesAfter(facts, plan, out.applied ? out.base : undefined)) context.store.writeTaskState(facts, { ...state, updated_at: now }, now);
    if (plan.kind === 'rewind') {
      takeBackTraceability(
        facts,
        plan.tasks.map((id) => ({ id, behaviors: facts.tasks.get(id)?.behavior_ids ?? [] })),
      );
      return { answer: { kind: 'changed', intent: 'rewind', from: stage, to: stage, task: plan.task, tasks: plan.tasks, files: plan.files, target: plan.target } };
    }
    if (plan.kind === 'sendThreads') {
      recordThreadsSent(facts, plan, now);
      return { answer: { kind: 'changed', intent: 'sendThreads', from: stage, to: stage, task: plan.task, threads: plan.threads.length } };
    }
    return { answer: { kind: 'changed', intent: 'rejectFile', from: stage, to: stage, task: plan.task, file: plan.file } };
  });
}
