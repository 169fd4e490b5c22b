/**
 * `bench: parallel-batch ratio=<parallel ÷ serial> tasks=4`: the wall time of one batch of four
 * independent tasks run by the executing stage with each task in a worktree of its own (parallel
 * on), over the same four run one after another in the feature worktree (parallel off); the target
 * is 0.5 or less.
 *
 * Both runs are Run Tasks as the product runs it (the runTasks intent to the spec's actor) in a
 * fresh git repository with the feature branch in its own worktree, with real git (checkpoints,
 * task worktrees, merges) and the real test runner (`node --test` on each task's own test file).
 * The model is scripted, each reply delayed BENCH_MODEL_DELAY_MS (3000 ms by default, a short turn of a hosted model), as a real
 * model takes its time: per task two implementer turns (write the files, report) and one review.
 * The batch's time runs from the start of the run to the test reporter's dispatch, which both runs
 * share and which is left out.
 *
 * Run alone with `node --import tsx bench/parallelBatch.ts`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ChatMessage, ChatModel, ChatResponsePart } from '../src/core/executing/dispatch/chatModel';
import type { SubagentRole } from '../src/core/executing/dispatch/modelTier';
import { NodeTestRunner } from '../src/core/executing/evidence/testRunner';
import type { UserPrompts } from '../src/core/executing/ports';
import { TOOL_NAMES } from '../src/core/executing/tools/workspaceTools';
import { MemoryTranscriptStore } from '../src/core/executing/transcripts/transcriptStore';
import { request } from '../src/core/port/request';
import { LoomRepository } from '../src/core/repository/loomRepository';

const TASKS = ['T1', 'T2', 'T3', 'T4'];
const SPEC = 'specs/2026-11-25+labels';
const WORKTREE = '.worktree/2026-11-25-labels';
const DELAY_MS = Number(process.env.BENCH_MODEL_DELAY_MS ?? 3000);

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

function write(root: string, path: string, content: string | object): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
}

const req = (i: number) => `REQ-00${i}`;
const behavior = (i: number) => `REQ-00${i}-B01`;

/** A repository with a spec at executing whose four tasks share no files and depend on none, and its feature worktree. */
function repository(root: string): string {
  write(
    root,
    '.loom/workflow.yaml',
    'defaults:\n  pipeline_type: feature\npipelines:\n  feature:\n    steps:\n      - id: planning\n        next: approved\n      - id: approved\n        gate: human-approval\n        next: executing\n      - id: executing\n        skill: loom-subagent-driven-development\n        next: verification\n        outputs: [test-report.md]\n        config:\n          max_retries: 2\n          timeout_minutes: 30\n      - id: verification\n',
  );
  write(root, '.loom/contexts/subagent-context.md', '# Subagent context\n\nNode 20, CommonJS. Tests use node:test and live in tests/.\n');
  write(root, 'package.json', { name: 'labels', scripts: { test: 'node --test tests/' } });
  write(root, '.gitignore', '.worktree/\n');
  write(root, 'tests/app.test.js', "require('node:test')('the app loads', () => {});\n");
  write(root, `${SPEC}/spec.md`, `# Labels\n\n${TASKS.map((_, i) => `## ${req(i + 1)} Label kind ${i + 1}\n\n${behavior(i + 1)}: a task can carry label kind ${i + 1}.\n`).join('\n')}`);
  write(root, `${SPEC}/requirements.json`, {
    requirements: TASKS.map((_, i) => ({
      id: req(i + 1),
      status: 'in_progress',
      types: ['functional'],
      acceptance: [`label kind ${i + 1} works`],
      behaviors: [{ id: behavior(i + 1), category: 'happy-path', description: `label kind ${i + 1}`, status: 'in_progress', acceptance: ['a unit test'] }],
    })),
  });
  write(root, `${SPEC}/plan.md`, `# Plan\n\n| Task | Title |\n|---|---|\n${TASKS.map((t, i) => `| [${t}](tasks/${t}.md) | Label kind ${i + 1} |\n`).join('')}`);
  TASKS.forEach((t, i) =>
    write(
      root,
      `${SPEC}/tasks/${t}.md`,
      `---\nowns: [src/label${i + 1}.js, tests/label${i + 1}.test.js]\nreads: []\ndepends_on: []\nrequirements: [${req(i + 1)}]\nbehavior_ids: [${behavior(i + 1)}]\ncomplexity: low\n---\n# ${t} Label kind ${i + 1}\n\nAdd label${i + 1}() to src/label${i + 1}.js.\n`,
    ),
  );
  write(root, `${SPEC}/traceability.json`, {
    requirements: Object.fromEntries(TASKS.map((t, i) => [req(i + 1), { tasks: [t], tests: [], evidence: [], behaviors: { [behavior(i + 1)]: { tasks: [t], tests: [], evidence: [] } } }])),
  });
  write(root, `${SPEC}/pipeline.state.json`, {
    spec_dir: SPEC,
    pipeline_type: 'feature',
    current_stage: 'executing',
    loom_version: '2.3.0',
    started_at: '2026-11-25T08:00:00.000Z',
    updated_at: '2026-11-25T09:00:00.000Z',
    current_stage_started_at: '2026-11-25T09:00:00.000Z',
    stage_history: [
      { stage: 'planning', entered_at: '2026-11-25T08:00:00.000Z', exited_at: '2026-11-25T08:30:00.000Z', status: 'passed' },
      { stage: 'approved', entered_at: '2026-11-25T08:30:00.000Z', exited_at: '2026-11-25T09:00:00.000Z', status: 'passed', approval: 'user_confirmed', approved_at: '2026-11-25T09:00:00.000Z' },
    ],
    metadata: {},
  });
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'labels at executing');
  git(root, 'worktree', 'add', '-q', '-b', 'feature/2026-11-25-labels', WORKTREE);
  return join(root, WORKTREE);
}

/** What a subagent answers, from its conversation: an implementer writes its task's two files, then reports; reviews pass. */
function reply(role: SubagentRole, messages: readonly ChatMessage[]): { text: string; toolCalls?: { name: string; input: unknown }[] } {
  if (role !== 'implementer') return { text: role === 'test-reporter' ? '## Summary\nAll behaviors are tested.\n\nverdict: PASS' : 'The change matches the task.\n\nverdict: PASS' };
  const prompt = (messages.find((m) => m.role === 'user') as { content: string }).content;
  const n = TASKS.findIndex((t) => prompt.includes(`task ${t} (`)) + 1;
  if (n === 0) throw new Error('an implementer prompt names no task of the bench');
  if (!messages.some((m) => m.role === 'tool'))
    return {
      text: 'Writing the files.',
      toolCalls: [
        { name: TOOL_NAMES.writeFile, input: { path: `src/label${n}.js`, content: `exports.label${n} = (task) => ({ ...task, kind: ${n} });\n` } },
        { name: TOOL_NAMES.writeFile, input: { path: `tests/label${n}.test.js`, content: `require('node:test')('${behavior(n)} carries label kind ${n}', () => {});\n` } },
      ],
    };
  return { text: `## Summary\nT${n} implemented.\n\n## Tests\n- ${behavior(n)}: tests/label${n}.test.js#${behavior(n)} carries label kind ${n}\n\nSTATUS: DONE` };
}

/** The scripted model: each reply after DELAY_MS; `onReporter` hears the test reporter's dispatch. */
function models(onReporter: () => void) {
  let calls = 0;
  const model = (role: SubagentRole): ChatModel => ({
    id: `bench-${role}`,
    vendor: 'bench',
    family: 'scripted',
    maxInputTokens: 200_000,
    countTokens: async (text) => Math.ceil(text.length / 4),
    async *sendRequest(messages, options): AsyncIterable<ChatResponsePart> {
      if (role === 'test-reporter') onReporter();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, DELAY_MS);
        options.signal.addEventListener('abort', () => (clearTimeout(timer), reject(options.signal.reason)), { once: true });
      });
      const { text, toolCalls = [] } = reply(role, messages);
      yield { type: 'text', value: text };
      for (const call of toolCalls) yield { type: 'toolCall', callId: `call-${++calls}`, name: call.name, input: call.input };
    },
  });
  return { select: async (role: SubagentRole) => model(role) };
}

const noQuestions: UserPrompts = {
  askForContext: async (task) => Promise.reject(new Error(`${task} asked for context in the bench`)),
  chooseBreakerAction: async (report) => Promise.reject(new Error(`the breaker opened on ${report.task} in the bench`)),
  confirmSkip: async () => false,
  waitForManualFix: async (task) => Promise.reject(new Error(`${task} waits for a manual fix in the bench`)),
};

/** Runs the four tasks in a fresh repository; the milliseconds from the run's start to the test reporter's dispatch. */
async function batchMs(parallel: boolean): Promise<number> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'loom-bench-batch-')));
  try {
    const worktree = repository(root);
    const spec = new LoomRepository(root).load().get(SPEC)!;
    let ended = 0;
    const start = performance.now();
    const answer = await request(
      spec,
      {
        type: 'runTasks',
        run: {
          worktree,
          models: models(() => (ended ||= performance.now())),
          prompts: noQuestions,
          transcripts: new MemoryTranscriptStore(),
          testRunner: new NodeTestRunner(),
          // BENCH_VERBOSE=1: each event of the run on stderr, with its second.
          onEvent: process.env.BENCH_VERBOSE
            ? (e) => console.error(`${parallel ? 'parallel' : 'serial'} ${((performance.now() - start) / 1000).toFixed(1)}s ${e.type} ${'task' in e ? e.task : ''}`)
            : undefined,
          settings: { trusted: true, testCommand: 'node --test tests/', parallel },
          signal: new AbortController().signal,
        },
      },
      { confirm: true },
    );
    if (answer.kind !== 'changed') throw new Error(`Run Tasks did not run: ${JSON.stringify(answer)}`);
    const result = answer.result;
    if (result.outcome !== 'completed' || result.finished.length !== TASKS.length) throw new Error(`the ${parallel ? 'parallel' : 'serial'} run ended ${result.outcome}: ${result.message}`);
    if (!ended) throw new Error('the test reporter was never dispatched');
    return ended - start;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function benchParallelBatch(): Promise<string> {
  const serial = await batchMs(false);
  const parallel = await batchMs(true);
  return `bench: parallel-batch ratio=${(parallel / serial).toFixed(2)} tasks=${TASKS.length} parallelMs=${parallel.toFixed(0)} serialMs=${serial.toFixed(0)} replyDelayMs=${DELAY_MS}`;
}

if (require.main === module) {
  benchParallelBatch().then(
    (line) => console.log(line),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
