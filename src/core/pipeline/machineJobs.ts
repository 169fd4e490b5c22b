import { fromPromise, setup } from 'xstate';
import { executingMachine } from '../executing/machine/executingMachine';
import type { FeatureWorktree } from '../git/featureWorktree';
import { taskChangeJob, type TaskChangeJobInput } from '../executing/review/taskChangeJob';
import { reviewTestsJob } from '../review/reviewTestsJob';
import { verificationJob, type VerificationJobInput } from '../verification/verificationJob';
import { stageOnDisk, type PipelineContext, type PipelineEmitted, type PipelineEvent } from './machineTypes';
import type { PipelineDefinition } from './pipelineDefinition';

/** What a worktree job is given and gives back. */
interface WorktreeJob {
  repoRoot: string;
  specName: string;
  dir: string;
  location: string;
  signal?: AbortSignal;
}

/** Makes or reuses the feature worktree (git); loaded when first used, as only this stage needs it. */
const worktreeJob = fromPromise<FeatureWorktree, WorktreeJob>(async ({ input, signal }) => {
  const { ensureFeatureWorktree } = await import('../git/featureWorktree.js');
  const both = input.signal ? AbortSignal.any([signal, input.signal]) : signal;
  return ensureFeatureWorktree({ repoRoot: input.repoRoot, specName: input.specName, specDir: input.dir, location: input.location, signal: both });
});

/** The pipeline machine's types and the jobs it runs beside its stages (guards and actions are added by machineGuards.ts and machineActions.ts). */
export const machineSetup = () =>
  setup({
    types: {
      context: {} as PipelineContext,
      events: {} as PipelineEvent,
      emitted: {} as PipelineEmitted,
      input: {} as Omit<PipelineContext, 'lastRun' | 'runRequest' | 'worktreeRequest' | 'taskChangeRequest' | 'verifyRequest' | 'answering' | 'jobAt'>,
    },
    actors: { executingRun: executingMachine(), worktreeJob, taskChangeJob, verificationJob, reviewTestsJob },
  });

/** The worktree job's input, from the spec's facts and the event. */
export const worktreeInput = ({ context, event }: { context: PipelineContext; event: PipelineEvent }): WorktreeJob => {
  const e = event as Extract<PipelineEvent, { type: 'CREATE_WORKTREE' }>;
  return { repoRoot: context.facts.repoRoot, specName: context.facts.name, dir: context.facts.dir, location: e.location, signal: e.signal };
};

/** A rewind or a rejected file: the spec's facts, the change, and the person's word on the step that stays where it is (a rewind asks first). */
export const taskChangeInput =
  (def: PipelineDefinition) =>
  ({ context, event }: { context: PipelineContext; event: PipelineEvent }): TaskChangeJobInput => {
    const e = event as Extract<PipelineEvent, { type: 'TASK_CHANGE' }>;
    const stage = stageOnDisk(def, context.facts);
    const word = e.confirm;
    const confirmed = word === true || (word !== undefined && word.by !== 'agent' && word.from === stage && word.to === stage);
    return { facts: context.facts, change: e.change, confirmed, ...(e.signal ? { signal: e.signal } : {}) };
  };

/** The verification job's input: the spec's facts and the intent's commands. */
export const verificationInput =
  (definition: PipelineDefinition) =>
  ({ context, event }: { context: PipelineContext; event: PipelineEvent }): VerificationJobInput => ({
    facts: context.facts,
    definition,
    verify: (event as Extract<PipelineEvent, { type: 'VERIFY' }>).verify,
  });
