import { createActor, fromPromise, waitFor, type AnyActorLogic, type AnyActorRef, type InspectionEvent } from 'xstate';
import type { WorktreeDiff } from '../../../../src/core/executing/evidence/diffProvider';
import type { NewProblems, ProblemsBefore } from '../../../../src/core/executing/evidence/problems';
import type { FixItem } from '../../../../src/core/executing/dispatch/fixInstructions';
import { parseImplementerReport } from '../../../../src/core/executing/dispatch/implementerReport';
import { batchMachine } from '../../../../src/core/executing/machine/batchMachine';
import { executingMachine, type ExecutingMachineInput } from '../../../../src/core/executing/machine/executingMachine';
import { prepareRun } from '../../../../src/core/executing/machine/runSetup';
import type { ExecutingSettings } from '../../../../src/core/executing/machine/runTypes';
import { taskMachine, type TaskMachineInput } from '../../../../src/core/executing/machine/taskMachine';
import type { TaskStepInput } from '../../../../src/core/executing/machine/taskSteps';
import { testReporterMachine } from '../../../../src/core/executing/machine/testReporterMachine';
import type { ReporterStepInput } from '../../../../src/core/executing/machine/testReporterSteps';
import type { ImplementerResult, JudgeResult } from '../../../../src/core/executing/dispatch/subagentCalls';
import { writeTestLog, type EvidenceLog } from '../../../../src/core/executing/evidence/testEvidence';
import type { LoopEnvironment } from '../../../../src/core/executing/machine/loopEnvironment';
import type { TestRun } from '../../../../src/core/executing/evidence/testRunner';
import { MemoryTranscriptStore } from '../../../../src/core/executing/transcripts/transcriptStore';
import { LoomRepository } from '../../../../src/core/repository/loomRepository';
import { runRecorder } from '../../../../src/core/pipeline/effects/runRecord';
import type { TempRepo } from '../../../helpers/tempRepo';
import { SPEC, executingFixture, type FixtureOptions } from './executingFixture';
import { collectEvents, FakeTestRunner } from './fakes';
import { ScriptedModels } from './scriptedChatModel';

/**
 * The executing machine with its invoked actors swapped through `machine.provide({ actors })`:
 * each dispatch, diff and test run answers from a script and records what it was asked, so the
 * statechart's transitions are tested without a model, git or a child process.
 */
export const HANG = 'hang' as const;
/** A reply, a step that hangs until its signal aborts, or an error the step throws. */
type Scripted<T> = T | typeof HANG | Error;

export const done = (task: string, status: 'DONE' | 'DONE_WITH_CONCERNS' = 'DONE'): ImplementerResult => ({
  kind: 'status',
  status,
  detail: '',
  dispatchId: `impl-${task}`,
  report: parseImplementerReport(`## Summary\n${task} implemented.\n\n## Tests\n${TESTS[task] ?? ''}\n\nSTATUS: ${status}`),
});
export const needsContext = (question: string): ImplementerResult => ({ kind: 'status', status: 'NEEDS_CONTEXT', detail: question, dispatchId: 'impl-q', report: parseImplementerReport('') });
export const blocked = (reason: string): ImplementerResult => ({ kind: 'status', status: 'BLOCKED', detail: reason, dispatchId: 'impl-b', report: parseImplementerReport('') });
export const timeout = (minutes: number) => ({ kind: 'timeout' as const, minutes });
export const pass: JudgeResult = { kind: 'verdict', verdict: 'PASS', fixItems: [], text: 'verdict: PASS', dispatchId: 'rev' };
export const fail = (problem: string): JudgeResult => {
  const fixItems: FixItem[] = [{ problem, file: 'src/due.js', severity: 'major', direction: 'fix it' }];
  return { kind: 'verdict', verdict: 'FAIL', fixItems, text: 'verdict: FAIL', dispatchId: 'rev' };
};

const TESTS: Record<string, string> = {
  T1: '- REQ-001-B01: tests/due.test.js\n- REQ-001-B02: tests/due.test.js',
  T2: '- REQ-002-B01: tests/format.test.js',
  T3: '- REQ-003-B01: tests/reminder.test.js',
};

/** What the steps were asked, in order. */
export interface StepCall {
  step: 'implementer' | 'reviewer' | 'tests' | 'reporter' | 'reporter-fix';
  task: string;
  mode?: 'first' | 'fix';
  signal: AbortSignal;
}

export class ScriptedSteps {
  readonly calls: StepCall[] = [];
  implementer = new Map<string, Scripted<ImplementerResult>[]>();
  reviewer = new Map<string, Scripted<JudgeResult>[]>();
  exitCodes: number[] = [];
  reporter: Scripted<JudgeResult>[] = [];
  reporterFixes: ImplementerResult[] = [];
  /** The diff every readTaskDiff answers; unset: each of the task's owns modified. */
  diff?: WorktreeDiff;
  /** Diffs for the next readTaskDiff calls, before falling back to the task's owns, each changed. */
  diffs: WorktreeDiff[] = [];
  /** The new errors in the Problems panel each closing finds (none when the queue is empty). */
  problems: NewProblems[][] = [];

  script<T>(queue: Map<string, Scripted<T>[]>, task: string, ...replies: Scripted<T>[]): void {
    queue.set(task, [...(queue.get(task) ?? []), ...replies]);
  }

  callsOf(step: StepCall['step'], task?: string): StepCall[] {
    return this.calls.filter((c) => c.step === step && (task === undefined || c.task === task));
  }

  private next<T>(queue: Scripted<T>[] | undefined, what: string, signal: AbortSignal): Promise<T> {
    const reply = queue?.shift();
    if (reply === undefined) return Promise.reject(new Error(`no ${what} scripted`));
    if (reply instanceof Error) return Promise.reject(reply);
    if (reply === HANG) return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    return Promise.resolve(reply);
  }

  taskActors() {
    return {
      takeDiffBase: fromPromise<{ base: string; problemsBefore: ProblemsBefore }, TaskStepInput>(async () => ({ base: 'base', problemsBefore: {} })),
      readNewProblems: fromPromise<NewProblems[], TaskStepInput>(async () => this.problems.shift() ?? []),
      dispatchImplementer: fromPromise<ImplementerResult, TaskStepInput>(({ input, signal }) => {
        this.calls.push({ step: 'implementer', task: input.task.id, mode: input.record.mode ?? 'first', signal });
        return this.next(this.implementer.get(input.task.id), `implementer reply for ${input.task.id}`, signal);
      }),
      dispatchReviewer: fromPromise<JudgeResult, TaskStepInput>(({ input, signal }) => {
        this.calls.push({ step: 'reviewer', task: input.task.id, signal });
        return this.next(this.reviewer.get(input.task.id), `reviewer reply for ${input.task.id}`, signal);
      }),
      readTaskDiff: fromPromise<WorktreeDiff, TaskStepInput>(async ({ input }) => this.diffs.shift() ?? this.diff ?? ownsChanged(input.task.owns)),
      runTaskTests: fromPromise<{ run: TestRun; log: EvidenceLog }, TaskStepInput>(async ({ input, signal }) => {
        this.calls.push({ step: 'tests', task: input.task.id, signal });
        return testRun(input.env, `${input.task.id}-tests`, this.exitCodes.shift() ?? 0);
      }),
    };
  }

  reporterActors() {
    return {
      takeReporterBase: fromPromise<string, ReporterStepInput>(async () => 'base'),
      dispatchTestReporter: fromPromise<JudgeResult, ReporterStepInput>(({ signal }) => {
        this.calls.push({ step: 'reporter', task: 'test-reporter', signal });
        return this.next(this.reporter, 'test reporter reply', signal);
      }),
      dispatchReporterFix: fromPromise<ImplementerResult, ReporterStepInput>(({ signal }) => {
        this.calls.push({ step: 'reporter-fix', task: 'test-reporter', mode: 'fix', signal });
        return this.next(this.reporterFixes, 'test-report fix', signal);
      }),
      readReporterDiff: fromPromise<WorktreeDiff, ReporterStepInput>(async () => this.diff ?? { text: '', files: [] }),
      runReporterTests: fromPromise<{ run: TestRun; log: EvidenceLog; changed: string[] }, ReporterStepInput>(async ({ input }) => ({
        ...testRun(input.env, 'test', this.exitCodes.shift() ?? 0),
        changed: [],
      })),
    };
  }

  /** The whole executing machine over these scripted steps. */
  machine() {
    return executingMachine().provide({
      actors: {
        batch: batchMachine().provide({ actors: { task: taskMachine().provide({ actors: this.taskActors() }) } }),
        testReporter: testReporterMachine().provide({ actors: this.reporterActors() }),
      },
    });
  }
}

/** A diff in which every file the task owns was modified, as a task that did its work leaves it. */
const ownsChanged = (owns: readonly string[]): WorktreeDiff => ({ text: '', files: owns.map((path) => ({ path, change: 'modified' as const })) });

/** A scripted test command run; its log is written as the core writes it, so the evidence exists. */
function testRun(env: LoopEnvironment, name: string, exitCode: number): { run: TestRun; log: EvidenceLog } {
  const run: TestRun = { command: 'npm test', exitCode, output: exitCode ? 'not ok 1\n' : 'ok\n', timedOut: false, durationMs: 1 };
  return { run, log: writeTestLog(env.store.dir, name, run, env.now()) };
}

export interface MachineHarness {
  repo: TempRepo;
  input: ExecutingMachineInput;
  steps: ScriptedSteps;
  events: ReturnType<typeof collectEvents>['events'];
  taskInput(task: string, extra?: Partial<TaskMachineInput>): TaskMachineInput;
  json(path: string): any;
}

/** The time of the request that started the run: the spec's state records it when the run writes there. */
export const REQUEST_NOW = '2026-11-25T09:59:00.000Z';

export function machineHarness(options: FixtureOptions = {}, settings: Partial<ExecutingSettings> = {}): MachineHarness {
  const { repo, specDir } = executingFixture(options);
  // The test files the scripted implementers name, so each behavior has its test.
  repo.write('tests/due.test.js', "test('REQ-001-B01 and REQ-001-B02', () => {});\n");
  repo.write('tests/format.test.js', "test('REQ-002-B01', () => {});\n");
  repo.write('tests/reminder.test.js', "test('REQ-003-B01', () => {});\n");
  const spec = new LoomRepository(repo.root).load().get(SPEC)!;
  const definition = spec.definition;
  const { events, listener } = collectEvents();
  let t = Date.parse('2026-11-25T10:00:00.000Z');
  const clock = { now: () => new Date((t += 1000)), setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms), clearTimeout: (h: unknown) => clearTimeout(h as NodeJS.Timeout) };
  const stage = definition.stages.find((st) => st.role === 'tasks')!;
  const input: ExecutingMachineInput = {
    repoRoot: repo.root,
    specDir,
    definition,
    worktree: repo.root,
    // What the spec's actor hands its run once its guard let the run start: the run's metadata
    // is written as the actor writes it, through its store, with the time of the request.
    ready: { stage, worktree: repo.root, record: runRecorder(spec.actor.getSnapshot().context.store, spec.snapshot, REQUEST_NOW, 'Run Tasks') },
    models: new ScriptedModels(),
    transcripts: new MemoryTranscriptStore(),
    testRunner: new FakeTestRunner(),
    clock,
    onEvent: listener,
    settings: { trusted: true, testCommand: 'npm test', ...settings },
  };
  return {
    repo,
    input,
    steps: new ScriptedSteps(),
    events,
    taskInput: (task, extra = {}) => {
      const env = prepareRun(input).env;
      return { env, task: env.tasks.get(task)!, inParallelBatch: false, holdBreaker: false, ...extra };
    },
    json: (path) => repo.json(`${SPEC}/${path}`),
  };
}

/** An actor that records every state it passes through, transient ones included. */
export function tracedActor<L extends AnyActorLogic>(logic: L, input: unknown): { actor: ReturnType<typeof createActor<L>>; path: string[] } {
  const path: string[] = [];
  // The root actor's own steps (its children report theirs too); the first ones come before createActor returns.
  const inspect = (e: InspectionEvent) => {
    if (e.type !== '@xstate.microstep' || (e.actorRef as { _parent?: unknown })._parent !== undefined) return;
    const value = flatten((e.snapshot as unknown as { value: string | Record<string, unknown> }).value);
    if (path[path.length - 1] !== value) path.push(value);
  };
  const actor = createActor(logic, { input, inspect } as never) as ReturnType<typeof createActor<L>>;
  return { actor, path };
}

function flatten(value: string | Record<string, unknown>): string {
  if (typeof value === 'string') return value;
  const [k, v] = Object.entries(value)[0];
  return `${k}.${flatten(v as string | Record<string, unknown>)}`;
}

export const settled = (actor: AnyActorRef) => waitFor(actor, (s) => s.status !== 'active', { timeout: 10_000 });
export const reaches = (actor: AnyActorRef, state: string) => waitFor(actor, (s) => (s as { matches(v: string): boolean }).matches(state), { timeout: 10_000 });

/** Waits until the condition holds; fails after 10 s (a hang, never a speed check). */
export async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error(`timed out waiting until ${what}`);
}
