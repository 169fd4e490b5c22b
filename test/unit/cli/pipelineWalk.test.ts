/**
 * The pipeline walk: one new feature spec, in a fresh git repository, from brainstorming to
 * synced with nothing but this project's code. Every stage change goes through the built
 * `loom-vscode` launcher as a real process, with no `loom` on PATH; the executing stage, for
 * which the CLI has no command (it needs a language model), sends Run Tasks to the spec's actor with
 * scripted models, exactly as the extension drives it. At each stage the test writes what that
 * stage's author (a user, or the chat participant) writes, from test/fixtures/pipeline-walk/.
 *
 * Detours on the way: detail expansion left with a behavior that still requires clarification,
 * planning advanced before traceability.json exists, and a convergence round that finds a
 * behavior whose test went missing, appends T3 and sends the spec back to executing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import type { ExecutingResult } from '../../../src/core/executing/machine/runTypes';
import type { Changed } from '../../../src/core/port/answer';
import { request } from '../../../src/core/port/request';
import { TOOL_NAMES } from '../../../src/core/executing/tools/workspaceTools';
import { MemoryTranscriptStore } from '../../../src/core/executing/transcripts/transcriptStore';
import { PipelineStateSchema } from '../../../src/core/files/pipelineState';
import { RequirementsFileSchema } from '../../../src/core/files/requirements';
import { TaskStateSchema } from '../../../src/core/files/taskState';
import { TraceabilityFileSchema } from '../../../src/core/files/traceability';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { validate, type JsonSchema } from '../../support/jsonSchemaSubset';
import { FakePrompts } from '../executing/helpers/fakes';
import { ScriptedModels, type ScriptedReply } from '../executing/helpers/scriptedChatModel';

const PROJECT = resolve(__dirname, '../../..');
const FIXTURE = join(PROJECT, 'test/fixtures/pipeline-walk');
const AUTHORED = join(FIXTURE, 'authored');
const BIN = join(PROJECT, 'bin/loom-vscode.js');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// ---- the environment: a PATH without loom ----------------------------------------------------

const isExecutable = (p: string) => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
const LOOM_NAMES = process.platform === 'win32' ? ['loom.exe', 'loom.cmd', 'loom.ps1', 'loom'] : ['loom'];
const holdsLoom = (dir: string) => LOOM_NAMES.some((n) => isExecutable(join(dir, n)));
const which = (name: string, path: string) =>
  path
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, name))
    .find(isExecutable);

/**
 * PATH without any folder that holds a `loom` executable. git is still needed (the worktree);
 * should it share a folder with loom, a folder with only git stands in for it.
 */
function pathWithoutLoom(shims: string): string {
  const original = process.env.PATH ?? '';
  const kept = original.split(delimiter).filter((d) => d && !holdsLoom(d));
  const git = which('git', original);
  if (git && !which('git', kept.join(delimiter))) {
    mkdirSync(shims, { recursive: true });
    symlinkSync(git, join(shims, 'git'));
    kept.push(shims);
  }
  return kept.join(delimiter);
}

// ---- the repository under test ---------------------------------------------------------------

let work: string;
let repo: string;
let spec: string; // specs/<date>+due-dates
let specAbs: string;
let worktree: string;
let env: NodeJS.ProcessEnv;

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/**
 * The built launcher, as a CI script runs it: its own process, the repository given by --cwd.
 * The timeout only catches a hang: `worktree` (git worktree add, a checkout) took over 20 s on a
 * machine at load 25, and was killed mid-way.
 */
function cli(...argv: string[]): Run {
  const r = spawnSync(process.execPath, [BIN, ...argv, '--cwd', repo], { cwd: work, env, encoding: 'utf8', timeout: 90_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function ok(run: Run): Run {
  assert.equal(run.code, 0, `exit ${run.code}\nstdout: ${run.out}\nstderr: ${run.err}`);
  return run;
}

const json = (run: Run) => JSON.parse(run.out);
const advance = (...extra: string[]) => json(ok(cli('advance', '--spec-dir', spec, '--json', ...extra)));
/** loom's run --approve: the person at the terminal passes the gate. */
const approve = (...extra: string[]) => json(ok(cli('approve', '--spec-dir', spec, '--json', ...extra)));
const status = () => json(ok(cli('status', '--spec-dir', spec, '--json')));

const specPath = (p: string) => join(specAbs, p);
const read = (p: string) => readFileSync(specPath(p), 'utf8');
const readJson = (p: string) => JSON.parse(read(p));
const write = (p: string, content: string | object) => {
  mkdirSync(dirname(specPath(p)), { recursive: true });
  writeFileSync(specPath(p), typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
};
const authored = (p: string) => readFileSync(join(AUTHORED, p), 'utf8');
const sha256 = (abs: string) => createHash('sha256').update(readFileSync(abs)).digest('hex');
const state = () => readJson('pipeline.state.json');
const history = () => state().stage_history as Record<string, unknown>[];

/** The stage a history entry left, and how: `planning:passed`. */
const trail = () => history().map((h) => `${h.stage}:${h.status}`);

/** A stage handoff as its author writes it, with the fingerprints of what it was based on. */
function handoff(stage: string, summary: string, artifacts: string[], basis: string[]): object {
  return {
    status: 'done',
    stage,
    summary,
    artifacts,
    written_at: new Date().toISOString(),
    // Loom resolves a spec file it does not know (review-feedback.md) from the repository root, so such a basis is named from there.
    basis_fingerprints: Object.fromEntries(basis.map((p) => [p, sha256(p.startsWith('specs/') ? join(repo, p) : specPath(p))])),
  };
}

/** progress.md's pipeline table row `| Stage | \`x\` |`. */
function progressStage(): string | undefined {
  return /\|\s*Stage\s*\|\s*`([^`]+)`\s*\|/.exec(read('progress.md'))?.[1];
}

// ---- requirements, as brainstorming and detail expansion write them ----------------------------

const testPlan = (strategy: string, inputs: string[], expected: string[]) => ({ strategy, inputs, expected, coverage_target: 'every listed input' });

function requirementsAtBrainstorming() {
  return {
    requirements: [
      {
        id: 'REQ-001',
        status: 'failing',
        types: ['functional', 'input'],
        required_categories: ['happy-path', 'invalid-input'],
        acceptance: ['YYYY-MM-DD is parsed to a Date at local midnight', 'anything else is rejected naming the format'],
        behaviors: [
          {
            id: 'REQ-001-B01',
            category: 'happy-path',
            description: 'parseDueDate("2026-12-24") returns 24 December 2026 at local midnight',
            status: 'failing',
            acceptance: ['the Date has year 2026, month 11, day 24, hours 0'],
          },
        ],
      },
      {
        id: 'REQ-002',
        status: 'failing',
        types: ['functional'],
        required_categories: ['happy-path'],
        acceptance: ['a todo with a due date renders as "Buy milk (due 24 Dec)"'],
        behaviors: [
          {
            id: 'REQ-002-B01',
            category: 'happy-path',
            description: 'formatTodo shows the due date after the title as "(due 24 Dec)"',
            status: 'failing',
            acceptance: ['formatTodo({title: "Buy milk", due}) is "Buy milk (due 24 Dec)"'],
          },
        ],
      },
    ],
  };
}

/** Detail expansion: every required category gets a behavior with a test plan and its applicability settled. */
function requirementsExpanded(concurrency: 'requires-clarification' | 'applicable') {
  const reqs = requirementsAtBrainstorming();
  const [r1, r2] = reqs.requirements as any[];
  r1.required_categories = ['happy-path', 'invalid-input', 'boundary'];
  r1.behaviors[0].test_plan = testPlan('unit', ['"2026-12-24"'], ['new Date(2026, 11, 24)']);
  r1.behaviors[0].applicability = 'applicable';
  r1.behaviors.push(
    {
      id: 'REQ-001-B02',
      category: 'invalid-input',
      description: 'a month 13, 30 February or the word "tomorrow" is rejected with an error naming YYYY-MM-DD',
      status: 'failing',
      acceptance: ['parseDueDate("2026-13-01") throws a RangeError whose message contains YYYY-MM-DD'],
      applicability: 'applicable',
      test_plan: testPlan('unit', ['"2026-13-01"', '"2026-02-30"', '"tomorrow"'], ['RangeError mentioning YYYY-MM-DD']),
    },
    {
      id: 'REQ-001-B03',
      category: 'boundary',
      description: '29 February is accepted in leap years only',
      status: 'failing',
      acceptance: ['2028-02-29 is accepted', '2027-02-29 is rejected'],
      applicability: 'applicable',
      test_plan: testPlan('unit', ['"2028-02-29"', '"2027-02-29"'], ['a Date', 'RangeError']),
    },
  );
  r2.required_categories = ['happy-path', 'concurrency'];
  r2.behaviors[0].test_plan = testPlan('unit', ['{title: "Buy milk", due: 2026-12-24}', '{title: "Buy milk"}'], ['"Buy milk (due 24 Dec)"', '"Buy milk"']);
  r2.behaviors[0].applicability = 'applicable';
  r2.behaviors.push({
    id: 'REQ-002-B02',
    category: 'concurrency',
    description: 'formatTodo shares no state between calls, so concurrent rendering cannot interfere',
    status: 'failing',
    acceptance: ['formatTodo is a pure function of its argument'],
    applicability: concurrency,
    test_plan: testPlan('unit', ['two todos rendered in interleaved calls'], ['each output depends only on its own todo']),
  });
  return reqs;
}

const TRACEABILITY = {
  requirements: {
    'REQ-001': {
      tasks: ['T1'],
      tests: [],
      evidence: [],
      behaviors: { 'REQ-001-B01': { tasks: ['T1'], tests: [], evidence: [] }, 'REQ-001-B02': { tasks: ['T1'], tests: [], evidence: [] }, 'REQ-001-B03': { tasks: ['T1'], tests: [], evidence: [] } },
    },
    'REQ-002': {
      tasks: ['T2'],
      tests: [],
      evidence: [],
      behaviors: { 'REQ-002-B01': { tasks: ['T2'], tests: [], evidence: [] }, 'REQ-002-B02': { tasks: ['T2'], tests: [], evidence: [] } },
    },
  },
};

// ---- the executing stage's scripted models ---------------------------------------------------

const FILES = {
  'src/due.js': `'use strict';

const FORMAT = /^(\\d{4})-(\\d{2})-(\\d{2})$/;

/** YYYY-MM-DD to a Date at local midnight; anything else is a RangeError naming the format. */
exports.parseDueDate = (text) => {
  const m = FORMAT.exec(String(text).trim());
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const date = new Date(y, mo - 1, d);
    if (date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d) return date;
  }
  throw new RangeError(\`"\${text}" is not a due date: use YYYY-MM-DD\`);
};
`,
  'tests/due.test.js': `'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { parseDueDate } = require('../src/due');

test('REQ-001-B01 parses YYYY-MM-DD at local midnight', () => {
  assert.deepEqual(parseDueDate('2026-12-24'), new Date(2026, 11, 24));
});

test('REQ-001-B02 rejects an invalid date naming the format', () => {
  for (const bad of ['2026-13-01', '2026-02-30', 'tomorrow']) assert.throws(() => parseDueDate(bad), /YYYY-MM-DD/);
});

test('REQ-001-B03 accepts 29 February in leap years only', () => {
  assert.deepEqual(parseDueDate('2028-02-29'), new Date(2028, 1, 29));
  assert.throws(() => parseDueDate('2027-02-29'), RangeError);
});
`,
  'src/format.js': `'use strict';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The title, then "(due 24 Dec)" when the todo has a due date. */
exports.formatTodo = (todo) => (todo.due ? \`\${todo.title} (due \${todo.due.getDate()} \${MONTHS[todo.due.getMonth()]})\` : todo.title);
`,
  'tests/format.test.js': `'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { formatTodo } = require('../src/format');

test('REQ-002-B01 shows the due date after the title', () => {
  assert.equal(formatTodo({ title: 'Buy milk', due: new Date(2026, 11, 24) }), 'Buy milk (due 24 Dec)');
  assert.equal(formatTodo({ title: 'Buy milk' }), 'Buy milk');
});

test('REQ-002-B02 shares no state between calls', async () => {
  const render = (title, day) => Promise.resolve().then(() => formatTodo({ title, due: new Date(2026, 0, day) }));
  assert.deepEqual(await Promise.all([render('a', 1), render('b', 2)]), ['a (due 1 Jan)', 'b (due 2 Jan)']);
});
`,
} as const;

const FORMAT_TESTS = ['REQ-002-B01: tests/format.test.js#REQ-002-B01 shows the due date after the title', 'REQ-002-B02: tests/format.test.js#REQ-002-B02 shares no state between calls'];

const writeFile = (path: keyof typeof FILES) => ({ name: TOOL_NAMES.writeFile, input: { path, content: FILES[path] } });

function implementer(task: string, paths: (keyof typeof FILES)[], tests: string[], exported: string): ScriptedReply[] {
  return [
    { text: 'Writing the files.', toolCalls: paths.map(writeFile) },
    { text: `## Summary\n${task} implemented.\n\n## Tests\n${tests.map((t) => `- ${t}`).join('\n')}\n\n## Exported interfaces\n- ${exported}\n\nSTATUS: DONE` },
  ];
}

const REVIEW_PASS: ScriptedReply = { text: 'Spec compliance and code quality: the change does what the task asks, with a test per behavior.\n\nverdict: PASS' };
const reporterPass = (round: string): ScriptedReply => ({
  text: `## Summary\n${round}: REQ-001 (parsing) and REQ-002 (rendering) are implemented; each behavior has a unit test named after its id.\n\n## Results\nThe whole suite passes.\n\nverdict: PASS`,
});

async function runExecuting(models: ScriptedModels): Promise<ExecutingResult> {
  // Run Tasks as the extension sends it: the intent to the spec's actor, with the person's word.
  const target = new LoomRepository(repo).load().get(spec)!;
  let t = Date.now();
  const answer = await request(
    target,
    {
      type: 'runTasks',
      run: {
        models,
        prompts: new FakePrompts(),
        transcripts: new MemoryTranscriptStore(),
        clock: { now: () => new Date((t += 1000)), setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) },
        // The project's test command, as `loom.executing.testCommand` names it; it really runs, in the worktree.
        settings: { trusted: true, testCommand: 'node --test tests/' },
        signal: new AbortController().signal,
      },
    },
    { confirm: true },
  );
  assert.equal(answer.kind, 'changed', JSON.stringify(answer));
  const result = (answer as Changed<'runTasks'>).result;
  for (const role of ['implementer', 'reviewer', 'test-reporter'] as const) assert.equal(models.left(role), 0, `${role} replies left unused`);
  return result;
}

// ---- schemas the final files must satisfy -----------------------------------------------------

const schema = (file: string) => JSON.parse(readFileSync(join(PROJECT, file), 'utf8')) as JsonSchema;

// ---- the walk --------------------------------------------------------------------------------

describe('pipeline walk: one feature from brainstorming to synced, without loom', () => {
  before(() => {
    assert.ok(existsSync(join(PROJECT, 'dist/cli.js')), 'dist/cli.js is missing: run "npm run build" first (npm test does)');
    work = mkdtempSync(join(tmpdir(), 'loom-walk-'));
    repo = join(work, 'todo-lite');
    cpSync(join(FIXTURE, 'repo'), repo, { recursive: true });
    // node:test marks its children with NODE_TEST_CONTEXT; a `node --test` run by the walk must not inherit it.
    delete process.env.NODE_TEST_CONTEXT;
    env = {
      ...process.env,
      PATH: pathWithoutLoom(join(work, 'bin')),
      GIT_AUTHOR_NAME: 'Walk',
      GIT_AUTHOR_EMAIL: 'walk@example.com',
      GIT_COMMITTER_NAME: 'Walk',
      GIT_COMMITTER_EMAIL: 'walk@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: work,
    };
    // The in-process executing stage (and the test command it runs) sees the same PATH.
    process.env.PATH = env.PATH;
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'todo-lite 1.4.0');
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('runs with no loom binary on PATH', () => {
    assert.equal(which('loom', env.PATH!), undefined, 'loom is resolvable on the stripped PATH');
    const probe = spawnSync(process.platform === 'win32' ? 'where' : 'sh', process.platform === 'win32' ? ['loom'] : ['-c', 'command -v loom'], { env, encoding: 'utf8' });
    assert.notEqual(probe.status, 0, `the shell finds loom: ${probe.stdout}`);
    assert.equal(ok(cli('--version')).out.trim(), '0.1.0');
  });

  it('brainstorming: `new` starts the spec; the author writes spec.md and requirements.json; approval records fingerprints', () => {
    const created = json(ok(cli('new', '--name', 'Due dates', '--json')));
    assert.match(created.spec_dir, /^specs\/\d{4}-\d{2}-\d{2}\+due-dates$/);
    assert.equal(created.stage, 'brainstorming');
    spec = created.spec_dir;
    specAbs = join(repo, spec);
    assert.equal(state().current_stage, 'brainstorming');
    assert.equal(state().loom_version, '1.4.0', "loom_version is the repository's package.json version, as loom writes it");
    assert.equal(progressStage(), 'brainstorming');

    const s0 = status();
    assert.equal(s0.stage, 'brainstorming');
    assert.deepEqual(
      s0.next.map((n: { to: string }) => n.to),
      ['detail-expansion'],
    );
    assert.equal(s0.next[0].ready, false, 'spec.md and requirements.json are not written yet');

    write('spec.md', authored('spec.md'));
    write('requirements.json', requirementsAtBrainstorming());

    // Advance never passes a human-approval gate, even with the person's word up front: loom's
    // run --advance refuses it ("Use: loom run --approve", PipelineEngine.advance), and so does advance.
    const atGate = cli('advance', '--spec-dir', spec, '--confirm', '--json');
    assert.equal(atGate.code, 1);
    assert.deepEqual(json(atGate).codes, ['human-approval-gate']);
    assert.match(atGate.err, new RegExp(`loom-vscode approve --spec-dir ${spec.replace('+', '\\+')}`));
    assert.equal(state().current_stage, 'brainstorming', 'nothing was written');

    assert.deepEqual(approve(), { spec_dir: spec, from: 'brainstorming', to: 'detail-expansion' });
    const entry = history()[0];
    assert.equal(entry.stage, 'brainstorming');
    assert.equal(entry.status, 'passed');
    assert.equal(entry.approval, 'user_confirmed');
    assert.match(entry.approved_at as string, ISO);
    assert.deepEqual(entry.approval_fingerprints, { 'spec.md': sha256(specPath('spec.md')), 'requirements.json': sha256(specPath('requirements.json')) });
  });

  it('detail-expansion: refused while a behavior still requires clarification, then expanded over the required categories', () => {
    write('requirements.json', requirementsExpanded('requires-clarification'));
    write('handoffs/detail-expansion.json', handoff('detail-expansion', 'REQ-001 and REQ-002 expanded into 5 behaviors with test plans', ['requirements.json'], ['spec.md']));

    const refused = cli('advance', '--spec-dir', spec, '--confirm');
    assert.equal(refused.code, 1, refused.err);
    assert.match(refused.err, /detail-expansion-pass: REQ-002-B02 still requires clarification/);
    assert.equal(state().current_stage, 'detail-expansion', 'nothing was written');

    // The clarification: rendering may run concurrently (a worker pool), so the behavior applies.
    write('requirements.json', requirementsExpanded('applicable'));
    // Brainstorming's gate fingerprinted requirements.json, which the expansion rewrote: loom 3's
    // checkApprovalFreshness calls that approval stale, and so do we. The user approves it again.
    const stale = cli('advance', '--spec-dir', spec, '--confirm');
    assert.equal(stale.code, 1);
    assert.match(stale.err, /the approval of brainstorming is stale: requirements\.json changed/);
    ok(cli('reapprove', '--spec-dir', spec, '--stage', 'brainstorming', '--reason', 'the expanded behaviors were reviewed'));
    assert.equal((history()[0].approval_fingerprints as Record<string, string>)['requirements.json'], sha256(specPath('requirements.json')));
    // loom 3's advance refuses until the caller confirms it compressed the closed stage's context
    // (_requiresStageCompression: the step's outputs include handoffs/detail-expansion.json).
    const uncompressed = cli('advance', '--spec-dir', spec, '--confirm', '--json');
    assert.equal(uncompressed.code, 1);
    assert.deepEqual([json(uncompressed).code, json(uncompressed).compression_required, json(uncompressed).required_action], ['compression-required', true, 'compress_closed_stage_context']);
    assert.match(uncompressed.err, /detail-expansion requires context compression before moving on/);
    assert.equal(state().current_stage, 'detail-expansion', 'nothing was written');
    assert.deepEqual(advance('--confirm', '--compression-confirmed'), { spec_dir: spec, from: 'detail-expansion', to: 'planning' });
    assert.deepEqual(trail(), ['brainstorming:passed', 'detail-expansion:passed']);
  });

  it('planning: advancing before traceability.json exists is refused with exit 1, naming the file', () => {
    write('plan.md', authored('plan.md'));
    write('tasks/T1.md', authored('tasks/T1.md'));
    write('tasks/T2.md', authored('tasks/T2.md'));

    const before = read('pipeline.state.json');
    const refused = cli('approve', '--spec-dir', spec);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /cannot move from planning to analyze-artifacts/);
    assert.match(refused.err, /traceability\.json does not exist/);
    assert.match(refused.err, /handoffs\/planning\.json does not exist/);
    assert.equal(read('pipeline.state.json'), before, 'a refused approval writes nothing');

    const blocked = status().next[0];
    assert.equal(blocked.ready, false);
    assert.ok(
      blocked.unmet.some((u: string) => /traceability\.json/.test(u)),
      blocked.unmet.join('; '),
    );

    write('traceability.json', TRACEABILITY);
    const planning = handoff('planning', 'Two tasks: parsing (T1), then rendering (T2)', ['plan.md', 'tasks/T1.md', 'tasks/T2.md', 'traceability.json'], ['spec.md', 'requirements.json']);
    write('handoffs/planning.json', {
      ...planning,
      artifact_fingerprints: { 'plan.md': sha256(specPath('plan.md')), 'tasks/T1.md': sha256(specPath('tasks/T1.md')), 'tasks/T2.md': sha256(specPath('tasks/T2.md')) },
    });
    // T2 reads src/due.js, which T1 (its prerequisite) owns: batched one after the other, but loom 3's
    // tasks --validate (detectConflicts) rejects every overlapping pair, depends_on or not, and exits 1.
    const validated = cli('tasks', '--spec-dir', spec, '--validate');
    assert.equal(validated.code, 1, validated.err);
    assert.match(validated.err, /T2 and T1 overlap on src\/due\.js: depends_on makes them run one after the other/);
    assert.match(ok(cli('tasks', '--spec-dir', spec)).out, /Batch 1: T1\nBatch 2: T2/);

    assert.deepEqual(approve(), { spec_dir: spec, from: 'planning', to: 'analyze-artifacts' });
    const approval = history().at(-1)!;
    assert.equal(approval.approval, 'user_confirmed');
    const prints = approval.approval_fingerprints as Record<string, string>;
    assert.equal(prints['plan.md'], sha256(specPath('plan.md')));
    assert.ok(prints['tasks/'], 'the tasks folder is fingerprinted');
    assert.equal(Object.hasOwn(prints, 'traceability.json'), false, 'traceability.json is never fingerprinted');
  });

  it('analyze-artifacts: `analyze` writes artifact-analysis.json with full coverage; advancing reaches approved', () => {
    const report = json(ok(cli('analyze', '--spec-dir', spec, '--json')));
    assert.equal(report.status, 'pass');
    assert.equal(report.blocker_count, 0);
    assert.deepEqual(report.findings, []);
    assert.deepEqual(report.coverage, {
      requirement_coverage: '100%',
      behavior_coverage: '100%',
      required_category_coverage: '100%',
      traceability_req_coverage: '100%',
      traceability_behavior_coverage: '100%',
    });
    assert.deepEqual(readJson('artifact-analysis.json').coverage, report.coverage);

    write('handoffs/analyze-artifacts.json', handoff('analyze-artifacts', 'No blocker, no error; every behavior has a task', ['artifact-analysis.json'], ['plan.md', 'requirements.json']));
    assert.deepEqual(advance('--confirm', '--compression-confirmed'), { spec_dir: spec, from: 'analyze-artifacts', to: 'approved' });
    assert.equal(status().stage, 'approved');
  });

  it('approved → git-worktree: `worktree` makes the feature branch and records it; executing is entered without a confirmation', () => {
    assert.deepEqual(advance(), { spec_dir: spec, from: 'approved', to: 'git-worktree' });

    const made = json(ok(cli('worktree', '--spec-dir', spec, '--json')));
    const date = spec.slice('specs/'.length, 'specs/'.length + 10);
    assert.equal(made.branch, `feature/${date}-due-dates`);
    assert.equal(made.created, true);
    assert.equal(made.path, join(repo, '.worktree', `${date}-due-dates`), "loom's .worktree/<date>-<name>");
    worktree = made.path;
    assert.equal(state().metadata.worktree_path, worktree);
    assert.equal(git(worktree, 'rev-parse', '--abbrev-ref', 'HEAD'), made.branch);
    assert.ok(existsSync(join(worktree, 'src/todos.js')));

    // Running it again reuses the worktree.
    assert.equal(json(ok(cli('worktree', '--spec-dir', spec, '--json'))).created, false);

    const next = status().next[0];
    assert.deepEqual(next, { to: 'executing', interactive: false, ready: true, unmet: [] });
    assert.deepEqual(advance(), { spec_dir: spec, from: 'git-worktree', to: 'executing' });
  });

  it('executing: Run Tasks runs T1 and T2 with scripted models; the real test command is the evidence', async () => {
    const models = new ScriptedModels()
      .script(
        'implementer',
        ...implementer(
          'T1',
          ['src/due.js', 'tests/due.test.js'],
          [
            'REQ-001-B01: tests/due.test.js#REQ-001-B01 parses YYYY-MM-DD at local midnight',
            'REQ-001-B02: tests/due.test.js#REQ-001-B02 rejects an invalid date naming the format',
            'REQ-001-B03: tests/due.test.js#REQ-001-B03 accepts 29 February in leap years only',
          ],
          'parseDueDate | src/due.js | (text: string) => Date',
        ),
        ...implementer('T2', ['src/format.js', 'tests/format.test.js'], FORMAT_TESTS, 'formatTodo | src/format.js | (todo) => string'),
      )
      .script('reviewer', REVIEW_PASS, REVIEW_PASS)
      .script('test-reporter', reporterPass('Round 1'));
    const result = await runExecuting(models);
    assert.equal(result.outcome, 'completed', result.message);
    assert.deepEqual(result.finished, ['T1', 'T2']);
    assert.ok(existsSync(join(worktree, 'src/due.js')), 'the implementer wrote into the worktree');
    assert.equal(existsSync(join(repo, 'src/due.js')), false, 'never into the main checkout');

    const s = status();
    assert.deepEqual(s.tasks, [
      { id: 'T1', status: 'done', retry_count: 0 },
      { id: 'T2', status: 'done', retry_count: 0 },
    ]);
    for (const id of ['T1', 'T2']) assert.equal(TaskStateSchema().safeParse(readJson(`task-states/${id}.state.json`)).success, true);
    const report = read('test-report.md');
    assert.match(report, /^verdict: PASS$/m);
    assert.match(report, /evidence-command: `node --test tests\/`/);
    assert.match(report, /evidence-exit-code: 0/);
    const evidence = /evidence-file: (\S+)/.exec(report)![1];
    assert.equal(/evidence-sha256: (\w+)/.exec(report)![1], sha256(specPath(evidence)));
    assert.match(read(evidence), /REQ-001-B03 accepts 29 February/, 'the log is the real test run');
    assert.equal(readJson('handoffs/executing.json').status, 'done');
    assert.match(read('progress.md'), /`T2` \| ✅ done/);

    assert.deepEqual(advance('--confirm', '--compression-confirmed'), { spec_dir: spec, from: 'executing', to: 'converge' });
  });

  it("converge, round 1: a test file lost in the worktree makes REQ-002's behaviors partial; T3 is appended and the spec goes back to executing", () => {
    // Someone cleans the worktree and takes the (still uncommitted) test of T2 with it.
    unlinkSync(join(worktree, 'tests/format.test.js'));

    const round1 = cli('converge', '--spec-dir', spec, '--json');
    assert.equal(round1.code, 1, round1.err);
    const report = json(round1);
    assert.equal(report.round, 1);
    assert.equal(report.status, 'needs_another_round');
    assert.deepEqual(report.classification, { 'REQ-001-B01': 'covered', 'REQ-001-B02': 'covered', 'REQ-001-B03': 'covered', 'REQ-002-B01': 'partial', 'REQ-002-B02': 'partial' });
    assert.equal(report.blocker_count, 2);
    assert.match(report.findings[0].message, /REQ-002-B01 is partial: .*tests\/format\.test\.js.* not found/);
    assert.deepEqual(readJson('convergence-report.json').classification, report.classification);

    const t3 = read('tasks/T3.md');
    assert.match(t3, /^owns: \[src\/format\.js, tests\/format\.test\.js\]$/m);
    assert.match(t3, /^depends_on: \[T2\]$/m);
    assert.match(t3, /^behavior_ids: \[REQ-002-B01, REQ-002-B02\]$/m);
    assert.match(read('plan.md'), /## Convergence round 1\n\n- \[T3\]\(tasks\/T3\.md\)/);
    assert.deepEqual(readJson('traceability.json').requirements['REQ-002'].behaviors['REQ-002-B01'].tasks, ['T2', 'T3']);

    // T3 went into plan.md and tasks/, which planning's gate approved: loom 3 calls that approval
    // stale (checkApprovalFreshness checks every entry), so the user reviews T3 and approves again.
    assert.match(cli('advance', '--spec-dir', spec, '--confirm').err, /the approval of planning is stale: plan\.md, tasks\/ changed/);

    // loom 3's advance checks handoffs before the validator: the planning handoffs recorded
    // plan.md, which the round appended to (findStaleHandoffs).
    const blocked = cli('advance', '--spec-dir', spec, '--confirm');
    assert.equal(blocked.code, 1);
    assert.match(blocked.err, /handoffs\/planning\.json is stale: plan\.md changed/);
    // The lost test file was in the worktree: loom compares the repository's files, so T2's handoff stays fresh.
    assert.doesNotMatch(blocked.err, /handoffs\/T2\.json is stale/);
    assert.match(blocked.err, /handoffs\/converge\.json does not exist/);
    for (const stage of ['planning', 'analyze-artifacts']) ok(cli('handoff', '--spec-dir', spec, '--stage', stage, '--refresh'));
    // The converge handoff names the report, which loom leaves out of its fingerprints (it is rewritten on every check).
    ok(cli('handoff', '--spec-dir', spec, '--stage', 'converge', '--status', 'partial', '--summary', 'Round 1: REQ-002-B01 and B02 partial, T3 appended', '--artifacts', 'convergence-report.json'));
    assert.equal(Object.hasOwn(readJson('handoffs/converge.json').artifact_fingerprints, 'convergence-report.json'), false);
    // planning's gate fingerprinted its outputs, handoffs/planning.json among them (approvalArtifactPaths):
    // approved again last, once the handoff is refreshed.
    ok(cli('reapprove', '--spec-dir', spec, '--stage', 'planning', '--reason', 'T3 reviewed'));

    // Plain advance goes back by itself while rounds are left, as loom's run --advance does at converge.
    assert.deepEqual(advance('--confirm', '--compression-confirmed'), { spec_dir: spec, from: 'converge', to: 'executing' });
    const back = history().at(-1)!;
    assert.equal(back.status, 'retry');
    assert.equal(back.retry_from, 'converge');
    assert.equal(back.validator, 'convergence-pass');
    assert.match(back.reason as string, /convergence-pass: .*REQ-002-B01/);
    assert.equal(state().metadata.convergence_round, 1);
    assert.deepEqual(
      status().tasks.map((t: { id: string; status: string }) => `${t.id}:${t.status}`),
      ['T1:done', 'T2:done', 'T3:pending'],
    );
  });

  it('executing, round 2: only T3 runs; the test report is written again', async () => {
    const models = new ScriptedModels()
      .script('implementer', ...implementer('T3', ['tests/format.test.js'], FORMAT_TESTS, 'none'))
      .script('reviewer', REVIEW_PASS)
      .script('test-reporter', reporterPass('Round 2'));
    const result = await runExecuting(models);
    assert.equal(result.outcome, 'completed', result.message);
    assert.deepEqual(result.finished, ['T1', 'T2', 'T3']);
    assert.match(read('test-report.md'), /Round 2/);
    assert.deepEqual(advance('--confirm', '--compression-confirmed'), { spec_dir: spec, from: 'executing', to: 'converge' });
  });

  it('converge, round 2: every behavior is covered; leaving converge clears the round', () => {
    const report = json(ok(cli('converge', '--spec-dir', spec, '--json')));
    assert.equal(report.round, 2);
    assert.equal(report.status, 'converged');
    assert.equal(report.coverage.behavior_coverage, '100%');
    assert.equal(Object.values(report.classification).filter((c) => c === 'covered').length, 5);

    write('handoffs/converge.json', handoff('converge', 'Round 2 converged: 5 of 5 behaviors covered', ['convergence-report.json'], ['requirements.json', 'test-report.md']));
    assert.deepEqual(advance('--confirm', '--compression-confirmed'), { spec_dir: spec, from: 'converge', to: 'verification' });
    assert.equal(Object.hasOwn(state().metadata, 'convergence_round'), false);
  });

  it('verification: the verifier runs the suite again and writes verify-report.md with its receipt; `verify` passes', () => {
    const missing = cli('verify', '--spec-dir', spec, '--json');
    assert.equal(missing.code, 1);
    assert.ok(json(missing).findings.some((f: { message: string }) => f.message === 'verify-report.md does not exist'));

    const run = spawnSync('node', ['--test', 'tests/'], { cwd: worktree, env, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const log = 'evidence/verify.log';
    write(log, `$ node --test tests/\n${run.stdout}`);
    write(
      'verify-report.md',
      [
        '# Verify report: Due dates',
        '',
        '- Prior outputs: spec.md, requirements.json, plan.md, tasks T1..T3, test-report.md, convergence-report.json all present.',
        '- REQ-001 (parse due dates): REQ-001-B01..B03 covered by tests/due.test.js.',
        '- REQ-002 (show due dates): REQ-002-B01 and REQ-002-B02 covered by tests/format.test.js.',
        '- No placeholder left in the reports, spec.md or plan.md.',
        '',
        '- evidence-command: `node --test tests/`',
        '- evidence-exit-code: 0',
        `- evidence-file: ${log}`,
        `- evidence-sha256: ${sha256(specPath(log))}`,
        '',
        'verdict: PASS',
        '',
      ].join('\n'),
    );
    write('handoffs/verification.json', handoff('verification', 'Verification passed', ['verify-report.md'], ['test-report.md', 'convergence-report.json']));

    const verified = json(ok(cli('verify', '--spec-dir', spec, '--json')));
    assert.deepEqual({ passed: verified.passed, findings: verified.findings }, { passed: true, findings: [] });
    assert.deepEqual(advance('--confirm', '--compression-confirmed'), { spec_dir: spec, from: 'verification', to: 'code-review-request' });
  });

  it('code review: request, the review gate approved once the feedback passes, response', () => {
    write('review-request.md', authored('review-request.md'));
    write('handoffs/code-review-request.json', handoff('code-review-request', 'Review requested', ['review-request.md'], ['verify-report.md']));
    assert.deepEqual(advance('--confirm', '--compression-confirmed'), { spec_dir: spec, from: 'code-review-request', to: 'review-gate' });

    const waiting = cli('advance', '--spec-dir', spec, '--confirm');
    assert.equal(waiting.code, 1);
    assert.match(waiting.err, /review-feedback\.md does not exist/);

    write('review-feedback.md', authored('review-feedback.md'));
    assert.deepEqual(approve(), { spec_dir: spec, from: 'review-gate', to: 'code-review-response' });
    const gate = history().at(-1)!;
    assert.equal(gate.approval, 'user_confirmed');
    const gatePrints = gate.approval_fingerprints as Record<string, string>;
    assert.equal(gatePrints['review-request.md'], sha256(specPath('review-request.md')));
    // As loom's fingerprints.js: review-feedback.md is not one of its spec-local files, so it is
    // looked for at the repository root and not recorded; reviewFeedbackPasses guards it instead.
    assert.equal(Object.hasOwn(gatePrints, 'review-feedback.md'), false);

    const early = cli('advance', '--spec-dir', spec, '--confirm');
    assert.equal(early.code, 1);
    assert.match(early.err, /review-response\.md does not exist/);

    write('review-response.md', authored('review-response.md'));
    write('handoffs/code-review-response.json', handoff('code-review-response', 'Feedback handled: one suggestion declined, one nit declined', ['review-response.md'], [`${spec}/review-feedback.md`]));
    assert.deepEqual(advance('--confirm', '--compression-confirmed'), { spec_dir: spec, from: 'code-review-response', to: 'synced' });
  });

  it('synced: advancing once more completes the pipeline; a second time changes nothing', () => {
    assert.deepEqual(advance(), { spec_dir: spec, from: 'synced', to: 'synced' });
    const completed = read('pipeline.state.json');
    const done = state();
    assert.equal(done.current_stage, 'synced');
    assert.equal(done.metadata.completed, true);
    assert.equal(done.metadata.completed_stage, 'synced');
    assert.equal(history().at(-1)!.terminal, true);
    advance();
    assert.equal(read('pipeline.state.json'), completed);

    assert.deepEqual(trail(), [
      'brainstorming:passed',
      'detail-expansion:passed',
      'planning:passed',
      'analyze-artifacts:passed',
      'approved:passed',
      'git-worktree:passed',
      'executing:passed',
      'converge:retry',
      'executing:passed',
      'converge:passed',
      'verification:passed',
      'code-review-request:passed',
      'review-gate:passed',
      'code-review-response:passed',
      'synced:passed',
    ]);
    for (const [i, h] of history().entries()) {
      assert.match(h.entered_at as string, ISO, `entry ${i}`);
      assert.match(h.exited_at as string, ISO, `entry ${i}`);
      assert.ok((h.entered_at as string) <= (h.exited_at as string), `entry ${i} exits before it enters`);
      if (i > 0) assert.equal(h.entered_at, history()[i - 1].exited_at, `entry ${i} does not start where ${i - 1} ended`);
    }

    const s = status();
    assert.deepEqual({ stage: s.stage, next: s.next }, { stage: 'synced', next: [] });
    assert.deepEqual(s.diagnostics, []);
    assert.equal(progressStage(), 'synced');
    ok(cli('validate', '--spec-dir', spec));
  });

  it("the final files read back in loom: the core's zod schemas and the JSON Schemas (ours and loom's published ones)", () => {
    const finalState = state();
    assert.equal(PipelineStateSchema().safeParse(finalState).success, true);
    assert.deepEqual(validate(schema('schemas/pipeline-state.schema.json'), finalState), []);
    assert.deepEqual(Object.keys(finalState).sort(), [
      'current_stage',
      'current_stage_started_at',
      'loom_version',
      'metadata',
      'pipeline_type',
      'spec_dir',
      'stage_history',
      'started_at',
      'updated_at',
    ]);
    // Absolute, as loom 3's PipelineStateStore.init writes it.
    assert.equal(finalState.spec_dir, resolve(repo, spec));
    assert.equal(finalState.pipeline_type, 'feature');

    const requirements = readJson('requirements.json');
    assert.equal(RequirementsFileSchema().safeParse(requirements).success, true);
    assert.deepEqual(validate(schema('schemas/requirements.schema.json'), requirements), []);

    const trace = readJson('traceability.json');
    assert.equal(TraceabilityFileSchema().safeParse(trace).success, true);
    assert.deepEqual(validate(schema('test/fixtures/reference/traceability.schema.json'), trace), []);

    const finding = schema('test/fixtures/reference/finding.schema.json');
    for (const file of ['artifact-analysis.json', 'convergence-report.json']) {
      const report = readJson(file);
      assert.deepEqual(validate(schema(`schemas/${file.replace('.json', '.schema.json')}`), report), [], file);
      for (const f of report.findings) assert.deepEqual(validate(finding, f), [], `${file} finding ${f.id}`);
    }
    for (const name of readdirSync(specPath('task-states'))) assert.deepEqual(validate(schema('schemas/task-state.schema.json'), readJson(`task-states/${name}`)), [], name);
    for (const name of readdirSync(specPath('handoffs'))) assert.deepEqual(validate(schema('schemas/handoff.schema.json'), readJson(`handoffs/${name}`)), [], name);

    const progress = read('progress.md');
    assert.match(progress, /^> Auto-generated by loom/m);
    assert.match(progress, /> Last updated: \d{4}-\d{2}-\d{2}T/);
    assert.match(progress, /`T3` \| ✅ done/);
  });
});
