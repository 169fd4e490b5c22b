import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { TransitionRefusedError } from '../../../../src/core/errors';
import type { ExecutingResult, ExecutingSettings } from '../../../../src/core/executing/machine/runTypes';
import { request } from '../../../../src/core/port/request';
import type { RunTasksInput } from '../../../../src/core/port/intent';
import { TOOL_NAMES } from '../../../../src/core/executing/tools/workspaceTools';
import { MemoryTranscriptStore } from '../../../../src/core/executing/transcripts/transcriptStore';
import { LoomRepository } from '../../../../src/core/repository/loomRepository';
import { TempRepo } from '../../../helpers/tempRepo';
import { collectEvents, FakePrompts, FakeTestRunner } from './fakes';
import { ScriptedModels, type ScriptedReply } from './scriptedChatModel';

export const SPEC = 'specs/2026-11-25+due-dates';

export interface FixtureOptions {
  maxRetries?: number;
  timeoutMinutes?: number;
  /** A third task (independent of T1) turns subagent mode on. */
  threeTasks?: boolean;
  stage?: string;
  history?: unknown[];
  /**
   * A real feature worktree at this repository-relative path (`.worktree/<date>-<name>`, as the
   * extension and loom make it), on the feature branch, for the loop to work in; else the loop
   * works in the repository itself.
   */
  worktree?: string;
}

const SPEC_MD = `# Due dates

Tasks in the todo app can carry a due date, shown next to the title.

## REQ-001 Parse due dates

Users type a due date as YYYY-MM-DD. REQ-001-B01: a valid date is parsed to a Date at local midnight.
REQ-001-B02: an invalid date (2026-13-01, 2026-02-30, "tomorrow") is rejected with a message naming the format.

## REQ-002 Show due dates

REQ-002-B01: a task with a due date shows it as "due 25 Nov" in the list.

## REQ-003 Reminders

REQ-003-B01: a task due today is marked as due.

## Out of scope

Time zones other than the user's own; recurring dates.
`;

function requirement(id: string, behaviors: [string, string, string][]) {
  return {
    id,
    status: 'in_progress',
    types: ['functional'],
    acceptance: [`${id} works as the spec says`],
    behaviors: behaviors.map(([bid, category, description]) => ({
      id: bid,
      category,
      description,
      status: 'in_progress',
      acceptance: [`${description} (checked by a unit test)`],
      test_plan: { strategy: 'unit', inputs: ['example input'], expected: ['expected output'], coverage_target: 'all branches' },
    })),
  };
}

export function task(id: string, front: { owns: string[]; depends_on?: string[]; requirements: string[]; behavior_ids: string[]; complexity?: string }, body: string): string {
  const list = (xs: string[] = []) => `[${xs.join(', ')}]`;
  return `---\nowns: ${list(front.owns)}\nreads: []\ndepends_on: ${list(front.depends_on)}\nrequirements: ${list(front.requirements)}\nbehavior_ids: ${list(front.behavior_ids)}\ncomplexity: ${front.complexity ?? 'low'}\n---\n# ${id} ${body.split('\n')[0]}\n\n${body.split('\n').slice(1).join('\n').trim() || body}\n`;
}

export function executingFixture(options: FixtureOptions = {}): { repo: TempRepo; specDir: string } {
  const repo = new TempRepo('loom-exec-');
  spawnSync('git', ['init', '-q'], { cwd: repo.root });
  repo.write(
    '.loom/workflow.yaml',
    `defaults:\n  pipeline_type: feature\n  max_retries: 3\n  timeout_minutes: 30\npipelines:\n  feature:\n    steps:\n      - id: planning\n        next: approved\n        outputs: [plan.md, tasks/, traceability.json]\n      - id: approved\n        gate: human-approval\n        next: executing\n      - id: executing\n        skill: loom-subagent-driven-development\n        next: verification\n        outputs: [test-report.md]\n        config:\n          max_retries: ${options.maxRetries ?? 2}\n          timeout_minutes: ${options.timeoutMinutes ?? 30}\n      - id: verification\n        outputs: [verify-report.md]\n`,
  );
  repo.write('.loom/contexts/subagent-context.md', '# Subagent context\n\nNode 20, CommonJS, no dependencies. Tests use node:test and live in tests/.\n');
  repo.write('.loom/rules/constitution.md', '# Constitution\n\n1. No new dependencies.\n2. Every behavior has a unit test.\n');
  repo.write('package.json', { name: 'todo', scripts: { test: 'node --test tests/' } });
  repo.write('src/app.js', 'module.exports = {};\n');
  repo.write(`${SPEC}/spec.md`, SPEC_MD);
  const reqs = [
    requirement('REQ-001', [
      ['REQ-001-B01', 'happy-path', 'a valid YYYY-MM-DD date is parsed'],
      ['REQ-001-B02', 'invalid-input', 'an invalid date is rejected'],
    ]),
    requirement('REQ-002', [['REQ-002-B01', 'happy-path', 'a due date is shown in the list']]),
  ];
  if (options.threeTasks) reqs.push(requirement('REQ-003', [['REQ-003-B01', 'happy-path', 'a task due today is marked']]));
  repo.write(`${SPEC}/requirements.json`, { requirements: reqs });
  repo.write(
    `${SPEC}/plan.md`,
    `# Plan\n\n| Task | Title |\n|---|---|\n| [T1](tasks/T1.md) | Parse due dates |\n| [T2](tasks/T2.md) | Show due dates |\n${options.threeTasks ? '| [T3](tasks/T3.md) | Reminders |\n' : ''}`,
  );
  repo.write(
    `${SPEC}/tasks/T1.md`,
    task('T1', { owns: ['src/due.js', 'tests/due.test.js'], requirements: ['REQ-001'], behavior_ids: ['REQ-001-B01', 'REQ-001-B02'] }, 'Parse due dates\nAdd parseDueDate(text) to src/due.js.'),
  );
  repo.write(
    `${SPEC}/tasks/T2.md`,
    task(
      'T2',
      { owns: ['src/format.js', 'tests/format.test.js'], depends_on: ['T1'], requirements: ['REQ-002'], behavior_ids: ['REQ-002-B01'], complexity: 'medium' },
      'Show due dates\nFormat the due date in the list with formatDue(date).',
    ),
  );
  const trace: Record<string, unknown> = {
    'REQ-001': { tasks: ['T1'], tests: [], evidence: [], behaviors: { 'REQ-001-B01': { tasks: ['T1'], tests: [], evidence: [] }, 'REQ-001-B02': { tasks: ['T1'], tests: [], evidence: [] } } },
    'REQ-002': { tasks: ['T2'], tests: [], evidence: [], behaviors: { 'REQ-002-B01': { tasks: ['T2'], tests: [], evidence: [] } } },
  };
  if (options.threeTasks) {
    repo.write(
      `${SPEC}/tasks/T3.md`,
      task('T3', { owns: ['src/reminder.js', 'tests/reminder.test.js'], requirements: ['REQ-003'], behavior_ids: ['REQ-003-B01'] }, 'Reminders\nMark tasks due today.'),
    );
    trace['REQ-003'] = { tasks: ['T3'], tests: [], evidence: [], behaviors: { 'REQ-003-B01': { tasks: ['T3'], tests: [], evidence: [] } } };
  }
  repo.write(`${SPEC}/traceability.json`, { requirements: trace });
  repo.write(`${SPEC}/pipeline.state.json`, {
    spec_dir: SPEC,
    pipeline_type: 'feature',
    current_stage: options.stage ?? 'executing',
    loom_version: '2.3.0',
    started_at: '2026-11-25T08:00:00.000Z',
    updated_at: '2026-11-25T09:00:00.000Z',
    current_stage_started_at: '2026-11-25T09:00:00.000Z',
    stage_history: options.history ?? [
      { stage: 'planning', entered_at: '2026-11-25T08:00:00.000Z', exited_at: '2026-11-25T08:30:00.000Z', status: 'passed' },
      { stage: 'approved', entered_at: '2026-11-25T08:30:00.000Z', exited_at: '2026-11-25T09:00:00.000Z', status: 'passed', approval: 'user_confirmed', approved_at: '2026-11-25T09:00:00.000Z' },
    ],
    metadata: {},
  });
  return { repo, specDir: join(repo.root, SPEC) };
}

/** Commits the fixture and checks the feature branch out at `path` (repository-relative), as Create Worktree does; returns its absolute path. */
export function addFeatureWorktree(repo: TempRepo, path: string): string {
  const git = (...args: string[]) => {
    const r = spawnSync('git', ['-c', 'user.name=Loom Test', '-c', 'user.email=test@example.com', ...args], { cwd: repo.root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };
  repo.write('.gitignore', '.worktree/\n');
  git('add', '-A');
  git('commit', '-qm', 'the app with a spec at executing');
  git('worktree', 'add', '-q', '-b', 'feature/2026-11-25-due-dates', path);
  return join(repo.root, path);
}

export interface Harness {
  repo: TempRepo;
  specDir: string;
  loop: TaskRun;
  models: ScriptedModels;
  prompts: FakePrompts;
  tests: FakeTestRunner;
  transcripts: MemoryTranscriptStore;
  events: ReturnType<typeof collectEvents>['events'];
  /** A new loop over the same files and fakes, as after a window reload. */
  reload(settings?: Partial<ExecutingSettings>): TaskRun;
}

/**
 * Run Tasks as the product runs it: the intent to the spec's actor, the person's word given
 * (the consent), and the run's result; a refusal is thrown with the actor's sentence, reasons
 * and codes.
 */
export interface TaskRun {
  run(signal: AbortSignal): Promise<ExecutingResult>;
}

export function harness(options: FixtureOptions = {}, settings: Partial<ExecutingSettings> = {}, extra: Partial<RunTasksInput> = {}): Harness {
  const { repo, specDir } = executingFixture(options);
  const worktree = options.worktree ? addFeatureWorktree(repo, options.worktree) : repo.root;
  const models = new ScriptedModels();
  const prompts = new FakePrompts();
  const tests = new FakeTestRunner();
  const transcripts = new MemoryTranscriptStore();
  const { events, listener } = collectEvents();
  let t = Date.parse('2026-11-25T10:00:00.000Z');
  const clock = { now: () => new Date((t += 1000)), setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms), clearTimeout: (h: unknown) => clearTimeout(h as NodeJS.Timeout) };
  const make = (s: Partial<ExecutingSettings> = {}): TaskRun => {
    // Each loop reads the spec afresh, as a window does after a reload.
    const spec = new LoomRepository(repo.root).load().get(SPEC)!;
    const input: Omit<RunTasksInput, 'signal'> = {
      worktree,
      models,
      prompts,
      transcripts,
      testRunner: tests,
      clock,
      onEvent: listener,
      settings: { trusted: true, testCommand: 'npm test', ...settings, ...s },
      ...extra,
    };
    return {
      run: async (signal) => {
        const a = await request(spec, { type: 'runTasks', run: { ...input, signal } }, { confirm: true });
        if (a.kind === 'changed') return a.result;
        if (a.kind === 'refused') throw new TransitionRefusedError(a.message, a.reasons, { codes: a.codes });
        throw new Error(`Run Tasks asked for a word it was given: ${a.question.title}`);
      },
    };
  };
  return { repo, specDir, loop: make(), models, prompts, tests, transcripts, events, reload: make };
}

// ---- scripted replies -------------------------------------------------------------------

export const write = (path: string, content: string) => ({ name: TOOL_NAMES.writeFile, input: { path, content } });

const FILES: Record<string, Record<string, string>> = {
  T1: {
    'src/due.js': 'exports.parseDueDate = (s) => { const m = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(s); return m ? new Date(+m[1], +m[2] - 1, +m[3]) : null; };\n',
    'tests/due.test.js': "const test = require('node:test');\ntest('REQ-001-B01 parses a valid date', () => {});\ntest('REQ-001-B02 rejects an invalid date', () => {});\n",
  },
  T2: {
    'src/format.js': 'exports.formatDue = (d) => `due ${d.getDate()}`;\n',
    'tests/format.test.js': "const test = require('node:test');\ntest('REQ-002-B01 shows the due date', () => {});\n",
  },
  T3: {
    'src/reminder.js': 'exports.isDueToday = () => false;\n',
    'tests/reminder.test.js': "require('node:test')('REQ-003-B01 marks tasks due today', () => {});\n",
  },
};

const TESTS: Record<string, string> = {
  T1: '- REQ-001-B01: tests/due.test.js#REQ-001-B01 parses a valid date\n- REQ-001-B02: tests/due.test.js#REQ-001-B02 rejects an invalid date',
  T2: '- REQ-002-B01: tests/format.test.js#REQ-002-B01 shows the due date',
  T3: '- REQ-003-B01: tests/reminder.test.js',
};

/** The implementer writes the task's files through the tools, then reports. */
export function implementerDone(taskId: 'T1' | 'T2' | 'T3', status = 'DONE', files = FILES[taskId]): ScriptedReply[] {
  return [
    { text: 'Writing the files.', toolCalls: Object.entries(files).map(([p, c]) => write(p, c)) },
    {
      text: `## Summary\n${taskId} implemented.\n\n## Tests\n${TESTS[taskId]}\n\n## Exported interfaces\n- ${taskId === 'T1' ? 'parseDueDate | src/due.js | (s: string) => Date | null' : 'none'}\n\nSTATUS: ${status}`,
    },
  ];
}

/** A fix-mode answer: one edit, then DONE. */
export function implementerFixed(taskId: 'T1' | 'T2' | 'T3'): ScriptedReply[] {
  const [path, content] = Object.entries(FILES[taskId])[0];
  return [{ text: '', toolCalls: [write(path, `${content}// fixed\n`)] }, { text: `## Summary\nFixed.\n\n## Tests\n${TESTS[taskId]}\n\nSTATUS: DONE` }];
}

export const PASS: ScriptedReply = { text: 'The change matches the task.\n\nverdict: PASS' };
export const failWith = (problem: string): ScriptedReply => ({
  text: `## Fix instructions\n\n### Fix item 1\n- Problem: ${problem}\n- File: src/due.js\n- Location: parseDueDate\n- Severity: major\n- Direction: reject months outside 1-12\n\nverdict: FAIL`,
});
export const REPORT_PASS: ScriptedReply = { text: '## Summary\nAll behaviors are implemented and tested.\n\n## Results\nnpm test: all passed.\n\nverdict: PASS' };
