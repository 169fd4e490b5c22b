import type { TaskFile } from '../../files/taskFile';
import type { WorktreeDiff } from '../evidence/diffProvider';
import { promptContextOf, promptTaskOf } from '../dispatch/executingInputs';
import { diffOf, withSignal, type LoopEnvironment } from './loopEnvironment';
import { chooseModelTier, mentionsUnknown } from '../dispatch/modelTier';
import { buildFixPrompt, buildImplementerPrompt, buildReviewerPrompt } from '../dispatch/promptBuilder';
import { callImplementer, callJudge, type ImplementerResult, type JudgeResult } from '../dispatch/subagentCalls';
import { compactHandoffIndex, refreshHandoff, staleArtifacts, upstreamTasks, writeHandoff, type UpstreamEntry } from '../taskHandoff';
import type { TaskRunRecord } from './taskRunRecord';
import { writeTestLog, type EvidenceLog } from '../evidence/testEvidence';
import type { TestRun } from '../evidence/testRunner';
import { fromPromise } from 'xstate';
import { newProblems, problemsBefore, type NewProblems, type ProblemsBefore } from '../evidence/problems';
import { implementerReportText } from './taskAttempt';

/**
 * The long work of one task, each an invoked actor that takes its input and honours its signal:
 * the implementer (first-implementation or fix mode), the reviewer, the task's diff and its test
 * run. They read and write no task state; the machine decides what their results mean.
 */
export interface TaskStepInput {
  env: LoopEnvironment;
  task: TaskFile;
  record: TaskRunRecord;
  /** Inside a parallel batch the diff is limited to what the task owns. */
  owns?: readonly string[];
  /** The files the task added or changed, once its review passed (for the Problems panel). */
  changed?: readonly string[];
}

/** A step over the run's environment with the actor's own signal; tracked until it settles. */
export function taskStep<I extends { env: LoopEnvironment }, O>(work: (input: I, env: LoopEnvironment) => Promise<O>) {
  return fromPromise<O, I>(({ input, signal }) => input.env.work.track(work(input, withSignal(input.env, signal))));
}

/** Upstream handoffs for the compact index, each refreshed first when its fingerprints are stale. */
function upstream(env: LoopEnvironment, task: TaskFile): UpstreamEntry[] {
  const snapshot = env.store.snapshot();
  return upstreamTasks(task.id, env.tasks).map((id) => {
    const handoff = snapshot.handoffs.get(id);
    if (!handoff) return { task: id, changed: [] };
    const changed = staleArtifacts(handoff, env.worktree);
    if (changed.length === 0) return { task: id, handoff, changed };
    const refreshed = refreshHandoff(handoff, env.worktree, changed, env.now());
    writeHandoff(snapshot, id, refreshed);
    env.logger.info(`handoffs/${id}.json was stale (${changed.join(', ')}); refreshed before ${task.id}`);
    return { task: id, handoff: refreshed, changed };
  });
}

export async function dispatchImplementer(input: TaskStepInput, env: LoopEnvironment): Promise<ImplementerResult> {
  const { task, record } = input;
  const ctx = promptContextOf(env.inputs, env.store.snapshot(), env.testCommand, env.worktree);
  const ptask = promptTaskOf(env.inputs, task);
  const mode = record.mode ?? 'first';
  let prompt: string;
  let staleHandoff = false;
  if (mode === 'first') {
    const entries = upstream(env, task);
    staleHandoff = entries.some((u) => u.changed.length > 0);
    prompt = buildImplementerPrompt(ctx, ptask, { upstreamHandoffs: compactHandoffIndex(entries, env.inputs.language), answers: record.answers });
  } else {
    prompt = buildFixPrompt(ctx, ptask, record.fix_items ?? [], { answers: record.answers });
  }
  const unknownFacts = mentionsUnknown(`${ptask.text}\n${env.inputs.subagentContext}`);
  const tier = chooseModelTier('implementer', task, { staleHandoff, unknownFacts });
  return callImplementer(env, { task: task.id, mode, prompt, tier, scope: { kind: 'owns', owns: task.owns } });
}

export async function dispatchReviewer(input: TaskStepInput, env: LoopEnvironment): Promise<JudgeResult> {
  const { task, record } = input;
  const diff = await diffOf(env, record.base!, input.owns);
  const ctx = promptContextOf(env.inputs, env.store.snapshot(), env.testCommand, env.worktree);
  const prompt = buildReviewerPrompt(ctx, promptTaskOf(env.inputs, task), { diff: diff.text, implementerReport: implementerReportText(record) });
  return callJudge(env, { task: task.id, role: 'reviewer', prompt, tier: chooseModelTier('reviewer', task), scope: { kind: 'none' } });
}

/** The task's changes since it started (its diff base). */
export async function readTaskDiff(input: TaskStepInput, env: LoopEnvironment): Promise<WorktreeDiff> {
  return diffOf(env, input.record.base!, input.owns);
}

/** The diff base, taken once when the task first starts, with the errors its files have in the Problems panel then. */
export async function takeDiffBase(input: TaskStepInput, env: LoopEnvironment): Promise<{ base: string; problemsBefore: ProblemsBefore }> {
  const base = await env.diff.snapshot(env.signal);
  return { base, problemsBefore: await problemsBefore(env.problems, env.worktree, input.task.owns, env.signal) };
}

/** The errors the Problems panel shows now on the files the task changed that it did not show when the task started. */
export async function readNewProblems(input: TaskStepInput, env: LoopEnvironment): Promise<NewProblems[]> {
  return newProblems(env.problems, env.worktree, input.changed ?? [], input.record.problems_before ?? {}, env.signal);
}

/** The test command for the task's evidence; its log is kept in `evidence/` whatever the exit code. */
export async function runTaskTests(input: TaskStepInput, env: LoopEnvironment): Promise<{ run: TestRun; log: EvidenceLog }> {
  const run = await env.testRunner.run(env.testCommand!, env.worktree, { signal: env.signal, timeoutMs: env.testTimeoutMs });
  return { run, log: writeTestLog(env.store.dir, `${input.task.id}-tests`, run, env.now()) };
}
