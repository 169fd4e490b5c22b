import { fromPromise } from 'xstate';
import { t } from '../../messages';
import type { NeedsConfirmation } from '../../port/answer';
import { stepFacts } from '../../port/question';
import type { PipelineDefinition } from '../../pipeline/pipelineDefinition';
import { splitSpecName } from '../../specdir/specName';
import type { SpecSnapshot } from '../../specdir/specSnapshot';
import { applyTaskChange, planTaskChange, type TaskChange, type TaskChangePlan } from './taskChanges';

/** The id of a Reject File or Rewind under way (one at a time per spec). */
export const TASK_CHANGE_JOB = 'taskChangeJob';

export interface TaskChangeJobInput {
  facts: SpecSnapshot;
  change: TaskChange;
  /** The person's word on a rewind; a rejected file is the person's word itself. */
  confirmed: boolean;
  signal?: AbortSignal;
}

/** The plan; `applied` once git did its part (a rewind waits for the person's word first). */
export type TaskChangeJobOutput = { plan: TaskChangePlan; applied: false } | { plan: TaskChangePlan; applied: true; base?: string };

/** Reads the plan from git, and, where it may go on, lets git do its part. */
export const taskChangeJob = fromPromise<TaskChangeJobOutput, TaskChangeJobInput>(async ({ input, signal }) => {
  const both = input.signal ? AbortSignal.any([signal, input.signal]) : signal;
  const plan = await planTaskChange(input.facts, input.change, both);
  if (plan.kind === 'rewind' && !input.confirmed) return { plan, applied: false };
  const { base } = await applyTaskChange(plan, both);
  return { plan, applied: true, ...(base ? { base } : {}) };
});

const MAX_LISTED = 12;
const listed = (items: readonly string[]) => (items.length > MAX_LISTED ? `${items.slice(0, MAX_LISTED).join(', ')}, … (+${items.length - MAX_LISTED})` : items.join(', ') || '-');

/** Rewind's question, worded once here: the tasks it sends back to pending and the files it changes back. */
export function rewindQuestion(def: PipelineDefinition, facts: SpecSnapshot, stage: string, plan: Extract<TaskChangePlan, { kind: 'rewind' }>): NeedsConfirmation {
  const step = { from: stage, to: stage };
  const base = stepFacts(def, facts, { from: stage, to: stage, approve: false, confirmations: [] });
  const feature = splitSpecName(facts.name).feature;
  return {
    kind: 'needs-confirmation',
    step,
    question: {
      title: t('ask.rewind.title', { feature, task: plan.task }),
      lines: [
        t('ask.rewind.tasks', { tasks: plan.tasks.join(', ') }),
        t('ask.rewind.files', { task: plan.task, count: plan.files.length, files: listed(plan.files) }),
        t('ask.rewind.where', { worktree: plan.worktree }),
      ],
      ok: t('ask.rewind.ok'),
    },
    facts: { ...base, verb: 'rewind', scope: plan.tasks },
    agentMayReport: false,
  };
}
