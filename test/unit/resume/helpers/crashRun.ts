import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '../../../../src/core/executing/dispatch/chatModel';
import type { TestRunner } from '../../../../src/core/executing/evidence/testRunner';
import type { ExecutingResult } from '../../../../src/core/executing/machine/runTypes';
import type { ProblemsPort } from '../../../../src/core/executing/ports';
import { MemoryTranscriptStore } from '../../../../src/core/executing/transcripts/transcriptStore';
import { request } from '../../../../src/core/port/request';
import { LoomRepository } from '../../../../src/core/repository/loomRepository';
import { FakePrompts } from '../../executing/helpers/fakes';
import { implementerDone, PASS, REPORT_PASS, SPEC } from '../../executing/helpers/executingFixture';
import { ScriptedModels, type ScriptedReply } from '../../executing/helpers/scriptedChatModel';
import { die } from './die';

/**
 * One Run Tasks over a spec already on disk, as a window runs it, with a model whose every reply
 * follows from the conversation alone (so a run started again after a kill gets the same answers),
 * a test command that passes and an empty Problems panel. `crashAt` names where this process kills
 * itself with SIGKILL, as a crashed window dies: no `finally`, no release, no flush.
 *
 * - `implementer:T1` / `implementer-tools:T1`: at T1's first request, or once its files are written;
 * - `implementer:T3:T1-merging`: at T3's first request, once T1 waits for its merge (the issue's case);
 * - `reviewer:T1`, `test-reporter`: at that request;
 * - `tests:T1`, `problems:T1`: while T1's tests run, or the Problems panel is read after them.
 *
 * Kills inside git (the checkpoint, the merge, the worktree's removal) are the git wrapper's
 * (`LOOM_CRASH_GIT`, see crashLoop.ts).
 */
export const WORKTREE = '.worktree/2026-11-25-due-dates';

const taskOf = (messages: readonly ChatMessage[]) => /task (T\d) \(/.exec(messages.find((m) => m.role === 'user')?.content ?? '')?.[1] as 'T1' | 'T2' | 'T3' | undefined;

function waitFor(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (check()) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
  });
}

export async function runTasksOnce(root: string, crashAt = ''): Promise<ExecutingResult> {
  const specDir = join(root, SPEC);
  const stepOf = (task: string): string | undefined => {
    const file = join(specDir, 'task-states', `${task}.state.json`);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { metadata?: { step?: string } }).metadata?.step : undefined;
  };
  const models = new ScriptedModels();
  const implementer = (messages: readonly ChatMessage[]): ScriptedReply => {
    const task = taskOf(messages)!;
    const wrote = messages.some((m) => m.role === 'tool');
    if (!wrote && crashAt === `implementer:${task}`) die();
    if (wrote && crashAt === `implementer-tools:${task}`) die();
    const [tools, report] = implementerDone(task);
    if (!wrote && crashAt === `implementer:${task}:T1-merging`) return { until: waitFor(() => stepOf('T1') === 'merge').then(die), ms: 60_000, then: tools };
    return wrote ? report : tools;
  };
  const reviewer = (messages: readonly ChatMessage[]): ScriptedReply => (crashAt === `reviewer:${taskOf(messages)}` ? die() : PASS);
  const reporter = (): ScriptedReply => (crashAt === 'test-reporter' ? die() : REPORT_PASS);
  models.script('implementer', ...Array<ScriptedReply>(40).fill(implementer));
  models.script('reviewer', ...Array<ScriptedReply>(20).fill(reviewer));
  models.script('test-reporter', ...Array<ScriptedReply>(10).fill(reporter));

  const testsRan = new Set<string>();
  const inTaskWorktree = (path: string) => /\.tasks[\\/](T\d)(?:[\\/]|$)/.exec(path)?.[1];
  const testRunner: TestRunner = {
    run: async (command, cwd) => {
      const task = inTaskWorktree(cwd);
      if (task && crashAt === `tests:${task}`) die();
      if (task) testsRan.add(task);
      return { command, exitCode: 0, output: 'ok 3 tests passed\n', timedOut: false, durationMs: 5 };
    },
  };
  const problems: ProblemsPort = {
    errors: async (files) => {
      const task = files.map(inTaskWorktree).find(Boolean);
      // The first read is the one before the task starts; the one after its tests is the check.
      if (task && testsRan.has(task) && crashAt === `problems:${task}`) die();
      return new Map();
    },
  };

  const spec = new LoomRepository(root).load().get(SPEC)!;
  const answer = await request(
    spec,
    {
      type: 'runTasks',
      run: {
        worktree: join(root, WORKTREE),
        models,
        prompts: new FakePrompts(),
        transcripts: new MemoryTranscriptStore(),
        testRunner,
        problems,
        signal: new AbortController().signal,
        settings: { trusted: true, testCommand: 'npm test', parallel: true },
      },
    },
    { confirm: true },
  );
  if (answer.kind !== 'changed') throw new Error(`Run Tasks did not run: ${JSON.stringify(answer)}`);
  return answer.result;
}
