import type { TaskFile } from '../../files/taskFile';
import { normalizeOwnedPath } from '../../fs/paths';
import type { WorktreeDiff } from '../evidence/diffProvider';
import { promptContextOf } from '../dispatch/executingInputs';
import { changedFiles, diffOf, type LoopEnvironment } from './loopEnvironment';
import { chooseModelTier } from '../dispatch/modelTier';
import { buildFixPrompt, buildTestReporterPrompt } from '../dispatch/promptBuilder';
import { callImplementer, callJudge, type ImplementerResult, type JudgeResult } from '../dispatch/subagentCalls';
import { writeTestLog, type EvidenceLog } from '../evidence/testEvidence';
import type { TestRun } from '../evidence/testRunner';
import type { TestReporterRecord } from './testReporterRecord';

/**
 * The long work of the test reporter, each an invoked actor: the reporter itself (a judge that
 * may write test files), the implementer that fixes its findings, the diff and the test run.
 */
export const TEST_REPORTER = 'test-reporter';

export interface ReporterStepInput {
  env: LoopEnvironment;
  finished: readonly TaskFile[];
  record: TestReporterRecord;
}

export const reportedBehaviors = (finished: readonly TaskFile[]) => [...new Set(finished.flatMap((t) => t.behavior_ids))];

/** The test reporter's findings are fixed by an implementer that owns what the finished tasks own. */
function fixTask(finished: readonly TaskFile[]) {
  return {
    id: TEST_REPORTER,
    owns: [...new Set(finished.flatMap((t) => t.owns.map(normalizeOwnedPath)))],
    requirements: [...new Set(finished.flatMap((t) => t.requirements))],
    behavior_ids: reportedBehaviors(finished),
  };
}

export async function dispatchReporterFix(input: ReporterStepInput, env: LoopEnvironment): Promise<ImplementerResult> {
  const ctx = promptContextOf(env.inputs, env.store.snapshot(), env.testCommand, env.worktree);
  const task = fixTask(input.finished);
  const prompt = buildFixPrompt(ctx, task, input.record.fix_items ?? [], { answers: input.record.answers });
  return callImplementer(env, { task: TEST_REPORTER, mode: 'fix', prompt, tier: 'standard', scope: { kind: 'owns', owns: task.owns } });
}

export async function dispatchTestReporter(input: ReporterStepInput, env: LoopEnvironment): Promise<JudgeResult> {
  const ctx = promptContextOf(env.inputs, env.store.snapshot(), env.testCommand, env.worktree);
  const prompt = buildTestReporterPrompt(ctx, { finishedTasks: input.finished.map((t) => `${t.id} ${t.title}`), answers: input.record.answers });
  return callJudge(env, { task: TEST_REPORTER, role: 'test-reporter', prompt, tier: chooseModelTier('test-reporter', undefined), scope: { kind: 'tests-only' } });
}

export async function readReporterDiff(input: ReporterStepInput, env: LoopEnvironment): Promise<WorktreeDiff> {
  return diffOf(env, input.record.base!);
}

export async function takeReporterBase(_input: ReporterStepInput, env: LoopEnvironment): Promise<string> {
  return env.diff.snapshot(env.signal);
}

/** The test command over the whole spec; a passing run also says which files changed, for the evidence. */
export async function runReporterTests(input: ReporterStepInput, env: LoopEnvironment): Promise<{ run: TestRun; log: EvidenceLog; changed: string[] }> {
  const run = await env.testRunner.run(env.testCommand!, env.worktree, { signal: env.signal, timeoutMs: env.testTimeoutMs });
  const log = writeTestLog(env.store.dir, 'test', run, env.now());
  const changed = run.exitCode === 0 ? changedFiles(await diffOf(env, input.record.base!)) : [];
  return { run, log, changed };
}
