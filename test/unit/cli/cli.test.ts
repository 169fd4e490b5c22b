/**
 * End-to-end tests of the `loom-vscode` CLI over the fixture repositories in test/fixtures/cli/.
 * Most call `main(argv, io)` in-process; the last suite runs the built launcher
 * (bin/loom-vscode.js) from another directory, as a user would.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { main } from '../../../src/cli/main';

const PROJECT = resolve(__dirname, '../../..');
const FIXTURES = join(PROJECT, 'test/fixtures/cli');
const BIN = join(PROJECT, 'bin/loom-vscode.js');

const LOGIN = 'specs/2026-11-29+login';
const PROFILE = 'specs/2026-11-28+profile';
const BROKEN = 'specs/2026-11-26+broken';
const BAD_STATE = 'specs/2026-11-25+bad-state';
const GRAPH = 'specs/2026-11-24+task-graph';
const CONFLICT = 'specs/2026-11-23+conflict';
const SMOKE = 'qa/2026-11-30+smoke';
const EXPORT = 'specs/2026-12-01+export';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A private copy of a fixture repository: advance, fail and recover write into it. */
function copyFixture(name: 'basic' | 'clean'): string {
  const dir = mkdtempSync(join(tmpdir(), `loom-cli-${name}-`));
  temps.push(dir);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

interface Run {
  code: number;
  out: string;
  err: string;
}

/** Runs the CLI in-process, capturing what it prints exactly as the real streams would receive it. */
async function cli(...argv: string[]): Promise<Run> {
  let out = '';
  let err = '';
  const line = (t: string) => (t.endsWith('\n') ? t : `${t}\n`);
  const code = await main(argv, { out: (t) => (out += line(t)), err: (t) => (err += line(t)) });
  return { code, out, err };
}

/** `--json` must print one JSON document and nothing else on stdout: the whole of stdout parses. */
function parsed(run: Run): any {
  assert.ok(run.out.length > 0, `nothing on stdout; stderr: ${run.err}`);
  return JSON.parse(run.out);
}

const read = (repo: string, path: string) => readFileSync(join(repo, path), 'utf8');
const readJson = (repo: string, path: string) => JSON.parse(read(repo, path));
const keys = (o: object) => Object.keys(o);

/**
 * progress.md read the way a person reads it: the text under one heading, and its table rows with
 * cells trimmed and code quotes dropped (`| \`T1\` | ✅ done |` → ['T1', '✅ done']). Tests check
 * the facts loom's format carries, not the spacing of its cells.
 */
function progressSection(md: string, heading: string): string {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  assert.ok(start >= 0, `progress.md has no "${heading}"`);
  const end = lines.findIndex((l, i) => i > start && /^#{1,3} /.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

function tableRow(section: string, first: string): string[] | undefined {
  return section
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('|') && l.endsWith('|') && !/^\|[\s|:-]+\|$/.test(l))
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim().replace(/^`(.*)`$/, '$1')),
    )
    .find((cells) => cells[0] === first);
}

/**
 * Loom leaves executing only when every task state is done (task-state-closure runs there,
 * declared or not); the login fixture stops with T3 still executing, so moves on finish it first.
 */
function finishT3(repo: string): void {
  const path = join(repo, LOGIN, 'task-states', 'T3.state.json');
  writeFileSync(path, `${JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), status: 'done' }, null, 2)}\n`);
}

/** Every file of a directory tree with its content, to prove a refused command wrote nothing. */
function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(p.slice(dir.length), readFileSync(p, 'latin1'));
    }
  };
  walk(dir);
  return out;
}

describe('status', () => {
  let repo: string;
  before(() => {
    repo = copyFixture('basic');
  });

  test('without --spec-dir prints an array with one entry per spec, qa/ and specs/ alike', async () => {
    const run = await cli('status', '--cwd', repo, '--json');
    // The fixture holds a spec whose pipeline.state.json is corrupt: every spec is still listed, and the exit says unreadable input.
    assert.equal(run.code, 2, run.err);
    assert.equal(run.err, `loom-vscode: ${BAD_STATE}/pipeline.state.json is corrupt, so the stage of ${BAD_STATE} is unknown\n`);
    const all = parsed(run);
    assert.ok(Array.isArray(all));
    assert.deepEqual(
      all.map((s: any) => s.spec_dir),
      [SMOKE, CONFLICT, GRAPH, BAD_STATE, BROKEN, PROFILE, LOGIN],
    );
  });

  test('each entry has exactly the documented keys, down to tasks and next', async () => {
    const all = parsed(await cli('status', '--cwd', repo, '--json'));
    for (const s of all) {
      assert.deepEqual(keys(s), ['spec_dir', 'pipeline_type', 'stage', 'tasks', 'next', 'diagnostics'], s.spec_dir);
      for (const t of s.tasks) assert.deepEqual(keys(t), ['id', 'status', 'retry_count'], s.spec_dir);
      for (const n of s.next) {
        assert.deepEqual(keys(n), ['to', 'interactive', 'ready', 'unmet'], s.spec_dir);
        assert.ok(n.unmet.every((u: unknown) => typeof u === 'string'));
      }
      for (const d of s.diagnostics) {
        for (const k of ['file', 'line', 'column', 'severity', 'message']) assert.ok(Object.hasOwn(d, k), `${s.spec_dir}: diagnostic lacks ${k}`);
      }
    }
  });

  test('spec_dir is relative to the repository, with forward slashes', async () => {
    for (const s of parsed(await cli('status', '--cwd', repo, '--json'))) {
      assert.match(s.spec_dir, /^(specs|qa)\/[^/\\]+$/);
      assert.ok(!s.spec_dir.includes(repo));
    }
  });

  test('with --spec-dir prints one object, not an array', async () => {
    const run = await cli('status', '--cwd', repo, '--spec-dir', LOGIN, '--json');
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(parsed(run), {
      spec_dir: LOGIN,
      pipeline_type: 'feature',
      stage: 'executing',
      tasks: [
        { id: 'T1', status: 'done', retry_count: 0 },
        { id: 'T2', status: 'done', retry_count: 1 },
        { id: 'T3', status: 'executing', retry_count: 2 },
      ],
      next: [{ to: 'converge', interactive: true, ready: false, unmet: ['task-state-closure: T3 is executing, not done'] }],
      diagnostics: [],
    });
  });

  test('--spec-dir may be absolute or end in a slash', async () => {
    for (const dir of [join(repo, LOGIN), `${LOGIN}/`, `./${LOGIN}`]) {
      const run = await cli('status', '--cwd', repo, '--spec-dir', dir, '--json');
      assert.equal(run.code, 0, run.err);
      assert.equal(parsed(run).spec_dir, LOGIN, dir);
    }
  });

  test('tasks come in task-number order (T10 after T6), pending when they have no state', async () => {
    const s = parsed(await cli('status', '--cwd', repo, '--spec-dir', GRAPH, '--json'));
    assert.deepEqual(
      s.tasks.map((t: any) => t.id),
      ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T10'],
    );
    assert.ok(s.tasks.every((t: any) => t.status === 'pending' && t.retry_count === 0));
  });

  test('next names what blocks the move first, as loom’s advance checks it; --detail full every unmet precondition', async () => {
    const s = parsed(await cli('status', '--cwd', repo, '--spec-dir', PROFILE, '--json'));
    assert.equal(s.stage, 'planning');
    // The stage's outputs, all of them, as loom's checkStageOutputs names them together; the next stage's requires come later.
    assert.deepEqual(s.next, [{ to: 'analyze-artifacts', interactive: true, ready: false, unmet: ['plan.md does not exist', 'tasks/ does not exist', 'traceability.json does not exist'] }]);
    const full = parsed(await cli('status', '--cwd', repo, '--spec-dir', PROFILE, '--json', '--detail', 'full'));
    assert.deepEqual(full.next, [
      {
        to: 'analyze-artifacts',
        interactive: true,
        ready: false,
        unmet: ['plan.md does not exist', 'tasks/ does not exist', 'traceability.json does not exist', 'requirements.json does not exist'],
      },
    ]);
  });

  test('a qa/ spec keeps its pipeline type', async () => {
    const s = parsed(await cli('status', '--cwd', repo, '--spec-dir', SMOKE, '--json'));
    assert.equal(s.pipeline_type, 'qa');
    assert.equal(s.stage, 'brainstorming');
    assert.deepEqual(s.next, [{ to: 'detail-expansion', interactive: true, ready: true, unmet: [] }]);
  });

  test('a corrupt pipeline.state.json gives stage null and a diagnostic with its line, and exits 2 (unreadable input)', async () => {
    const run = await cli('status', '--cwd', repo, '--spec-dir', BAD_STATE, '--json');
    assert.equal(run.code, 2, run.err);
    assert.match(run.err, /^loom-vscode: specs\/2026-11-25\+bad-state\/pipeline\.state\.json is corrupt, so the stage of specs\/2026-11-25\+bad-state is unknown$/m);
    const s = parsed(run);
    assert.equal(s.stage, null);
    assert.deepEqual(s.next, []);
    assert.equal(s.diagnostics.length, 1);
    assert.equal(s.diagnostics[0].file, `${BAD_STATE}/pipeline.state.json`);
    assert.equal(s.diagnostics[0].line, 5);
    assert.equal(s.diagnostics[0].severity, 'error');
  });

  test('the human form says where each spec stands and what blocks it', async () => {
    const run = await cli('status', '--cwd', repo);
    assert.equal(run.code, 2, 'the corrupt bad-state spec makes it unreadable input');
    assert.throws(() => JSON.parse(run.out));
    assert.match(run.out, /^specs\/2026-11-29\+login {2}\[feature\] {2}stage: executing$/m);
    assert.match(run.out, /^ {2}tasks: 2\/3 done, T3 executing \(retry 2\)$/m);
    assert.match(run.out, /^ {2}→ converge \(forward\): blocked\n {6}- task-state-closure: T3 is executing, not done$/m);
    assert.match(run.out, /^specs\/2026-11-28\+profile {2}\[feature\] {2}stage: planning$/m);
    assert.match(run.out, /^ {2}→ analyze-artifacts \(forward\): blocked\n {6}- plan\.md does not exist$/m);
    assert.match(run.out, /^specs\/2026-11-25\+bad-state .*stage: unknown \(pipeline\.state\.json is corrupt\)$/m);
    assert.match(run.out, /specs\/2026-11-25\+bad-state\/pipeline\.state\.json:5:1: error: /);
    // Each diagnostic line names its file once, in front.
    for (const line of run.out.split('\n').filter((l) => /: error: /.test(l))) {
      const file = line.trim().split(':')[0];
      assert.equal(line.split(file).length - 1, 1, line);
    }
    assert.match(run.out, /bad-state\/pipeline\.state\.json:5:1: error: pipeline\.state\.json is not valid JSON/);
  });

  test('a clean repository exits 0 with nothing on stderr', async () => {
    const clean = copyFixture('basic');
    rmSync(join(clean, BAD_STATE), { recursive: true });
    const run = await cli('status', '--cwd', clean);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.err, '');
  });

  test('a repository without specs prints an empty array', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'loom-cli-empty-'));
    temps.push(empty);
    const run = await cli('status', '--cwd', empty, '--json');
    assert.equal(run.code, 0);
    assert.deepEqual(parsed(run), []);
    const human = await cli('status', '--cwd', empty);
    assert.match(human.out, /No spec directories/);
  });

  test('reading never writes: the repository is unchanged after every read-only command', async () => {
    const before = tree(repo);
    await cli('status', '--cwd', repo, '--json');
    await cli('tasks', '--cwd', repo, '--spec-dir', GRAPH, '--validate');
    await cli('trace', '--cwd', repo, '--spec-dir', LOGIN);
    await cli('validate', '--cwd', repo);
    assert.deepEqual(tree(repo), before);
  });
});

describe('advance', () => {
  test('an interactive stage without --confirm exits 1, gives the reason on stderr and writes nothing', async () => {
    const repo = copyFixture('basic');
    const before = tree(repo);
    const run = await cli('advance', '--cwd', repo, '--spec-dir', SMOKE);
    assert.equal(run.code, 1);
    assert.equal(run.out, '');
    assert.match(run.err, /qa\/2026-11-30\+smoke cannot move from brainstorming to detail-expansion/);
    assert.match(run.err, /^ {2}- brainstorming is left only once you confirm it is done$/m);
    assert.deepEqual(tree(repo), before, 'no file written, no lock or temp file left');
  });

  test('a refusal with --json prints the reasons as one JSON document', async () => {
    const repo = copyFixture('basic');
    const run = await cli('advance', '--cwd', repo, '--spec-dir', SMOKE, '--json');
    assert.equal(run.code, 1);
    assert.deepEqual(parsed(run), {
      error: 'qa/2026-11-30+smoke cannot move from brainstorming to detail-expansion',
      code: 'transition-refused',
      // Only the person's word is missing: scripts can tell that from a precondition that does not hold.
      codes: ['confirmation-required'],
      reasons: ['brainstorming is left only once you confirm it is done'],
    });
  });

  test('with --confirm moves on and writes pipeline.state.json and progress.md in loom format', async () => {
    const repo = copyFixture('basic');
    const original = readJson(repo, `${SMOKE}/pipeline.state.json`);
    const run = await cli('advance', '--cwd', repo, '--spec-dir', SMOKE, '--confirm');
    assert.equal(run.code, 0, run.err);
    assert.equal(run.out, 'qa/2026-11-30+smoke: brainstorming → detail-expansion\n');

    const text = read(repo, `${SMOKE}/pipeline.state.json`);
    assert.ok(text.endsWith('}\n') && text.includes('\n  "current_stage": "detail-expansion",\n'), 'two-space JSON with a final newline');
    const state = JSON.parse(text);
    assert.deepEqual(keys(state), ['spec_dir', 'pipeline_type', 'current_stage', 'loom_version', 'started_at', 'updated_at', 'current_stage_started_at', 'stage_history', 'metadata']);
    assert.equal(state.spec_dir, SMOKE);
    assert.equal(state.pipeline_type, 'qa');
    assert.equal(state.loom_version, original.loom_version);
    assert.equal(state.started_at, original.started_at);
    assert.match(state.updated_at, ISO);
    assert.equal(state.current_stage_started_at, state.updated_at);
    assert.deepEqual(state.stage_history, [
      {
        stage: 'brainstorming',
        entered_at: original.current_stage_started_at,
        exited_at: state.updated_at,
        status: 'passed',
        approval: 'user_confirmed',
        approved_at: state.updated_at,
        // Run with no terminal attached: the word is recorded as not a person's own (loom.approvals.requirePerson).
        approved_by: { by: 'agent', through: 'cli' },
      },
    ]);
    assert.deepEqual(state.metadata, {});

    const progress = read(repo, `${SMOKE}/progress.md`);
    const header = progress.slice(0, progress.indexOf('## Pipeline'));
    assert.match(header, /Auto-generated by loom/);
    assert.match(header, new RegExp(`^> Last updated: ${state.updated_at.replace(/\./g, '\\.')}$`, 'm'));
    const pipeline = progressSection(progress, '## Pipeline');
    assert.equal(tableRow(pipeline, 'Stage')?.[1], 'detail-expansion');
    assert.equal(tableRow(pipeline, 'Type')?.[1], 'qa');
    assert.match(tableRow(pipeline, 'Updated')?.[1] ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    assert.equal(tableRow(pipeline, 'Failure'), undefined);
    assert.match(tableRow(progressSection(progress, '### Stage History'), 'brainstorming')?.[1] ?? '', /^✅ passed$/);
    assert.deepEqual(
      readdirSync(join(repo, SMOKE)).filter((f) => f.endsWith('.tmp') || f === '.loom-run.lock'),
      [],
    );

    const after = parsed(await cli('status', '--cwd', repo, '--spec-dir', SMOKE, '--json'));
    assert.equal(after.stage, 'detail-expansion');
  });

  test('--json prints the move; progress.md keeps the tasks, their icons, retries and handoffs', async () => {
    const repo = copyFixture('basic');
    finishT3(repo);
    const run = await cli('advance', '--cwd', repo, '--spec-dir', LOGIN, '--confirm', '--json', '--reason', '实现完成，进入收敛');
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(parsed(run), { spec_dir: LOGIN, from: 'executing', to: 'converge' });
    const state = readJson(repo, `${LOGIN}/pipeline.state.json`);
    assert.equal(state.current_stage, 'converge');
    assert.equal(state.stage_history.length, 7);
    const last = state.stage_history.at(-1);
    assert.deepEqual([last.stage, last.status, last.reason, last.approval, last.entered_at], ['executing', 'passed', '实现完成，进入收敛', 'user_confirmed', '2026-11-30T09:00:00.000Z']);
    assert.equal(state.metadata.worktree_path, '.worktrees/login', 'metadata survives');
    const progress = read(repo, `${LOGIN}/progress.md`);
    assert.equal(tableRow(progressSection(progress, '## Pipeline'), 'Stage')?.[1], 'converge');
    const tasks = progressSection(progress, '## Tasks');
    assert.deepEqual(tableRow(tasks, 'T1')?.slice(1), ['✅ done', '0', '2026-11-30 09:40']);
    assert.deepEqual(tableRow(tasks, 'T2')?.slice(1), ['✅ done', '1', '2026-11-30 10:20']);
    assert.deepEqual(tableRow(tasks, 'T3')?.slice(1), ['✅ done', '2', '2026-11-30 11:05']);
    assert.match(progressSection(progress, '## Handoffs'), /T1.*done.*POST \/api\/login 已实现/);
    assert.match(tableRow(progressSection(progress, '### Stage History'), 'executing')?.[1] ?? '', /^✅ passed$/);
  });

  test('--to goes back from converge to executing, counting the convergence round', async () => {
    const repo = copyFixture('basic');
    finishT3(repo);
    assert.equal((await cli('advance', '--cwd', repo, '--spec-dir', LOGIN, '--confirm')).code, 0);
    const status = parsed(await cli('status', '--cwd', repo, '--spec-dir', LOGIN, '--json'));
    assert.deepEqual(
      status.next.map((n: any) => n.to),
      ['verification', 'executing'],
    );
    assert.equal(status.next[1].ready, true);

    const refused = await cli('advance', '--cwd', repo, '--spec-dir', LOGIN, '--to', 'executing');
    assert.equal(refused.code, 1);
    assert.match(refused.err, /converge is left only once you confirm it is done/);

    const run = await cli('advance', '--cwd', repo, '--spec-dir', LOGIN, '--to', 'executing', '--confirm');
    assert.equal(run.code, 0, run.err);
    assert.equal(run.out, `${LOGIN}: converge → executing\n`);
    const state = readJson(repo, `${LOGIN}/pipeline.state.json`);
    assert.equal(state.current_stage, 'executing');
    assert.equal(state.stage_history.at(-1).stage, 'converge');
    assert.equal(state.stage_history.at(-1).status, 'retry');
    assert.equal(state.metadata.convergence_round, 1);
  });

  test('forward from converge is blocked here: every unmet precondition is listed', async () => {
    const repo = copyFixture('basic');
    finishT3(repo);
    assert.equal((await cli('advance', '--cwd', repo, '--spec-dir', LOGIN, '--confirm')).code, 0);
    const run = await cli('advance', '--cwd', repo, '--spec-dir', LOGIN, '--confirm');
    assert.equal(run.code, 1);
    assert.match(run.err, /cannot move from converge to verification/);
    assert.match(run.err, /^ {2}- handoffs\/converge\.json does not exist$/m);
    assert.match(run.err, /^ {2}- REQ-002-B01 is not closed \(its test files do not exist, no evidence\)$/m);
    assert.match(run.err, /^ {2}- convergence-report\.json does not exist/m);
    assert.match(run.err, /^ {2}- T3: the reviewer's last result is 不通过：锁定计数没有持久化$/m);
  });

  test('--to a stage the current one cannot reach exits 1 and names the allowed ones', async () => {
    const repo = copyFixture('basic');
    const run = await cli('advance', '--cwd', repo, '--spec-dir', LOGIN, '--to', 'synced', '--confirm');
    assert.equal(run.code, 1);
    assert.match(run.err, /executing cannot move to synced; allowed: converge/);
    assert.equal(readJson(repo, `${LOGIN}/pipeline.state.json`).current_stage, 'executing');
  });

  test('unmet preconditions exit 1 even with --confirm, one line per reason, nothing written', async () => {
    const repo = copyFixture('basic');
    const before = tree(repo);
    const run = await cli('advance', '--cwd', repo, '--spec-dir', PROFILE, '--confirm');
    assert.equal(run.code, 1);
    const reasons = run.err.split('\n').filter((l) => l.startsWith('  - '));
    assert.deepEqual(reasons, ['  - plan.md does not exist', '  - tasks/ does not exist', '  - traceability.json does not exist', '  - requirements.json does not exist']);
    assert.deepEqual(tree(repo), before);
  });

  test('a spec whose preconditions all hold advances (converge → verification)', async () => {
    const repo = copyFixture('clean');
    const run = await cli('advance', '--cwd', repo, '--spec-dir', EXPORT, '--confirm', '--json');
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(parsed(run), { spec_dir: EXPORT, from: 'converge', to: 'verification' });
    assert.equal(readJson(repo, `${EXPORT}/pipeline.state.json`).current_stage, 'verification');
  });

  test('without pipeline.state.json the stage is inferred from the artifacts; the first change creates the file', async () => {
    const repo = copyFixture('basic');
    unlinkSync(join(repo, PROFILE, 'pipeline.state.json'));
    let s = parsed(await cli('status', '--cwd', repo, '--spec-dir', PROFILE, '--json'));
    // Loom's inferStageFromArtifacts: spec.md alone means detail-expansion.
    assert.equal(s.stage, 'detail-expansion', 'spec.md alone');
    assert.deepEqual(s.next, [{ to: 'planning', interactive: true, ready: false, unmet: ['requirements.json does not exist', 'handoffs/detail-expansion.json does not exist'] }]);
    const refused = await cli('advance', '--cwd', repo, '--spec-dir', PROFILE, '--confirm');
    assert.equal(refused.code, 1);
    assert.equal(existsSync(join(repo, PROFILE, 'pipeline.state.json')), false);

    cpSync(join(repo, SMOKE, 'requirements.json'), join(repo, PROFILE, 'requirements.json'));
    s = parsed(await cli('status', '--cwd', repo, '--spec-dir', PROFILE, '--json'));
    assert.equal(s.stage, 'detail-expansion', 'still no handoffs/detail-expansion.json');

    const run = await cli('fail', '--cwd', repo, '--spec-dir', PROFILE, '--reason', '需求不清楚');
    assert.equal(run.code, 0, run.err);
    const state = readJson(repo, `${PROFILE}/pipeline.state.json`);
    for (const k of ['spec_dir', 'pipeline_type', 'current_stage', 'loom_version', 'started_at', 'updated_at', 'stage_history', 'metadata', 'failure_reason']) {
      assert.ok(Object.hasOwn(state, k), `a new pipeline.state.json has ${k}`);
    }
    assert.equal(state.spec_dir, PROFILE);
    assert.equal(state.pipeline_type, 'feature');
    assert.equal(state.current_stage, 'failed');
    assert.equal(state.failure_reason, '需求不清楚');
    for (const k of ['started_at', 'updated_at']) assert.match(state[k], ISO, k);
    assert.deepEqual(
      state.stage_history.map((h: any) => [h.stage, h.status, h.reason]),
      [['detail-expansion', 'failed', '需求不清楚']],
    );
    assert.equal(tableRow(progressSection(read(repo, `${PROFILE}/progress.md`), '## Pipeline'), 'Stage')?.[1], 'failed');
  });

  test('a corrupt pipeline.state.json exits 2, names the file and line, and is left untouched', async () => {
    const repo = copyFixture('basic');
    const before = read(repo, `${BAD_STATE}/pipeline.state.json`);
    for (const argv of [
      ['advance', '--confirm'],
      ['fail', '--reason', 'x'],
      ['recover', '--to', 'executing'],
    ]) {
      const run = await cli(argv[0], '--cwd', repo, '--spec-dir', BAD_STATE, ...argv.slice(1));
      assert.equal(run.code, 2, argv[0]);
      assert.equal(run.out, '');
      assert.match(run.err, /specs\/2026-11-25\+bad-state\/pipeline\.state\.json:5:1: error: .*not valid JSON/, argv[0]);
    }
    assert.equal(read(repo, `${BAD_STATE}/pipeline.state.json`), before);
    assert.equal(existsSync(join(repo, BAD_STATE, 'progress.md')), false);
  });

  test('a current_stage the pipeline does not have exits 2 naming the state file, for every change', async () => {
    const repo = copyFixture('basic');
    const path = join(repo, SMOKE, 'pipeline.state.json');
    writeFileSync(path, read(repo, `${SMOKE}/pipeline.state.json`).replace('"brainstorming"', '"qa-analysis"'));
    const before = tree(repo);
    for (const argv of [
      ['advance', '--confirm'],
      ['fail', '--reason', 'x'],
      ['recover', '--to', 'executing'],
    ]) {
      const run = await cli(argv[0], '--cwd', repo, '--spec-dir', SMOKE, ...argv.slice(1));
      assert.equal(run.code, 2, argv[0]);
      assert.match(run.err, /qa\/2026-11-30\+smoke\/pipeline\.state\.json names a stage the qa pipeline does not have/, argv[0]);
      assert.match(run.err, /pipeline\.state\.json:1:1: error: current_stage "qa-analysis" is not a stage of the qa pipeline/, argv[0]);
    }
    assert.deepEqual(tree(repo), before);
  });

  test('a live lock held by another process exits 1, names the lock, writes nothing', async () => {
    const repo = copyFixture('basic');
    writeFileSync(join(repo, SMOKE, '.loom-run.lock'), `${process.ppid}\n2026-11-30T07:00:00.000Z\ntoken\n`);
    const before = tree(repo);
    const run = await cli('advance', '--cwd', repo, '--spec-dir', SMOKE, '--confirm');
    assert.equal(run.code, 1);
    assert.match(run.err, /qa\/2026-11-30\+smoke\/\.loom-run\.lock/);
    assert.match(run.err, new RegExp(`pid ${process.ppid}`));
    assert.deepEqual(tree(repo), before);
  });
});

describe('reapprove', () => {
  test('renews a stale approval of a gate already passed; the spec stays where it is and may advance again', async () => {
    const repo = copyFixture('basic');
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const state = readJson(repo, `${LOGIN}/pipeline.state.json`);
    const approvedText = read(repo, `${LOGIN}/plan.md`);
    state.stage_history.push({
      stage: 'approved',
      entered_at: '2026-11-30T08:00:00.000Z',
      exited_at: '2026-11-30T08:30:00.000Z',
      status: 'passed',
      approval: 'user_confirmed',
      approval_fingerprints: { 'plan.md': sha(approvedText) },
      approved_at: '2026-11-30T08:30:00.000Z',
    });
    writeFileSync(join(repo, LOGIN, 'pipeline.state.json'), JSON.stringify(state, null, 2));
    const staleReason = 'the approval of approved is stale: plan.md changed since; approve it again';
    const unmet = async () => parsed(await cli('status', '--cwd', repo, '--spec-dir', LOGIN, '--json')).next.flatMap((n: any) => n.unmet);

    const nothing = await cli('reapprove', '--cwd', repo, '--spec-dir', LOGIN);
    assert.equal(nothing.code, 1);
    assert.equal(nothing.err, `loom-vscode: ${LOGIN} has no stale approval to renew\n`);

    writeFileSync(join(repo, LOGIN, 'plan.md'), `${approvedText}\nA late change.\n`);
    assert.ok((await unmet()).includes(staleReason));
    const run = await cli('reapprove', '--cwd', repo, '--spec-dir', LOGIN, '--json');
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(parsed(run), { spec_dir: LOGIN, stage: 'approved', changed: ['plan.md'], current_stage: 'executing' });
    const entry = readJson(repo, `${LOGIN}/pipeline.state.json`).stage_history.at(-1);
    assert.deepEqual([entry.stage, entry.status, entry.approval], ['approved', 'passed', 'user_confirmed']);
    assert.equal(entry.approval_fingerprints['plan.md'], sha(read(repo, `${LOGIN}/plan.md`)));
    assert.equal(readJson(repo, `${LOGIN}/pipeline.state.json`).current_stage, 'executing');
    assert.ok(!(await unmet()).includes(staleReason));

    const text = await cli('reapprove', '--cwd', repo, '--spec-dir', LOGIN, '--stage', 'approved');
    assert.equal(text.code, 1, text.err);
    assert.match(text.err, /has no stale approval to renew/);
  });
});

describe('fail and recover', () => {
  test('fail --reason records the failure; recover --to returns to a stage the pipeline allows', async () => {
    const repo = copyFixture('basic');
    const failed = await cli('fail', '--cwd', repo, '--spec-dir', LOGIN, '--reason', '测试环境不可用');
    assert.equal(failed.code, 0, failed.err);
    assert.equal(failed.out, `${LOGIN}: executing → failed (测试环境不可用)\n`);
    let state = readJson(repo, `${LOGIN}/pipeline.state.json`);
    assert.equal(state.current_stage, 'failed');
    assert.equal(state.failure_reason, '测试环境不可用');
    assert.deepEqual((({ stage, status, reason, entered_at }) => ({ stage, status, reason, entered_at }))(state.stage_history.at(-1)), {
      stage: 'executing',
      status: 'failed',
      reason: '测试环境不可用',
      entered_at: '2026-11-30T09:00:00.000Z',
    });
    let pipeline = progressSection(read(repo, `${LOGIN}/progress.md`), '## Pipeline');
    assert.equal(tableRow(pipeline, 'Stage')?.[1], 'failed');
    assert.equal(tableRow(pipeline, 'Failure')?.[1], '测试环境不可用');
    assert.match(tableRow(progressSection(read(repo, `${LOGIN}/progress.md`), '### Stage History'), 'executing')?.[1] ?? '', /^❌ failed$/);

    const status = parsed(await cli('status', '--cwd', repo, '--spec-dir', LOGIN, '--json'));
    assert.equal(status.stage, 'failed');
    assert.deepEqual(
      status.next.map((n: any) => n.to),
      ['brainstorming', 'executing', 'verification'],
    );

    const recovered = await cli('recover', '--cwd', repo, '--spec-dir', LOGIN, '--to', 'executing', '--json');
    assert.equal(recovered.code, 0, recovered.err);
    assert.deepEqual(parsed(recovered), { spec_dir: LOGIN, from: 'failed', to: 'executing' });
    state = readJson(repo, `${LOGIN}/pipeline.state.json`);
    assert.equal(state.current_stage, 'executing');
    assert.deepEqual((({ stage, status }) => ({ stage, status }))(state.stage_history.at(-1)), { stage: 'failed', status: 'passed' });
    assert.ok(Object.hasOwn(state.stage_history.at(-1), 'recovery_from'));
    pipeline = progressSection(read(repo, `${LOGIN}/progress.md`), '## Pipeline');
    assert.equal(tableRow(pipeline, 'Stage')?.[1], 'executing');
  });

  test('fail --json prints the move', async () => {
    const repo = copyFixture('basic');
    const run = await cli('fail', '--cwd', repo, '--spec-dir', SMOKE, '--reason', 'no staging environment', '--json');
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(parsed(run), { spec_dir: SMOKE, from: 'brainstorming', to: 'failed' });
  });

  test('recover to a stage failed may not go to exits 1 and names the allowed ones', async () => {
    const repo = copyFixture('basic');
    assert.equal((await cli('fail', '--cwd', repo, '--spec-dir', LOGIN, '--reason', 'boom')).code, 0);
    const before = tree(repo);
    const run = await cli('recover', '--cwd', repo, '--spec-dir', LOGIN, '--to', 'planning');
    assert.equal(run.code, 1);
    assert.match(run.err, /can recover to brainstorming, executing, verification, not planning/);
    assert.deepEqual(tree(repo), before);
  });

  test('recover to an allowed stage whose preconditions fail exits 1 with them', async () => {
    const repo = copyFixture('basic');
    assert.equal((await cli('fail', '--cwd', repo, '--spec-dir', LOGIN, '--reason', 'boom')).code, 0);
    const run = await cli('recover', '--cwd', repo, '--spec-dir', LOGIN, '--to', 'verification');
    assert.equal(run.code, 1);
    assert.match(run.err, /cannot recover to verification/);
    assert.match(run.err, /^ {2}- convergence-report\.json does not exist/m);
  });

  test('the wrong order is refused: recover before failing, fail twice, advance while failed', async () => {
    const repo = copyFixture('basic');
    const early = await cli('recover', '--cwd', repo, '--spec-dir', LOGIN, '--to', 'executing');
    assert.equal(early.code, 1);
    assert.match(early.err, /has not failed \(it is at executing\)/);
    assert.equal((await cli('fail', '--cwd', repo, '--spec-dir', LOGIN, '--reason', 'boom')).code, 0);
    const twice = await cli('fail', '--cwd', repo, '--spec-dir', LOGIN, '--reason', 'again');
    assert.equal(twice.code, 1);
    assert.match(twice.err, /has already failed/);
    const advance = await cli('advance', '--cwd', repo, '--spec-dir', LOGIN, '--confirm');
    assert.equal(advance.code, 1);
    assert.match(advance.err, /has failed; recover it to a stage first/);
  });

  test('the human status of a failed spec shows how to leave it', async () => {
    const repo = copyFixture('basic');
    assert.equal((await cli('fail', '--cwd', repo, '--spec-dir', LOGIN, '--reason', 'boom')).code, 0);
    const run = await cli('status', '--cwd', repo, '--spec-dir', LOGIN);
    assert.match(run.out, /stage: failed$/m);
    assert.match(run.out, /^ {2}→ executing \(recover\): ready, via recover --to executing$/m);
    assert.match(run.out, /^ {2}→ verification \(recover\): blocked$/m);
  });

  test('fail needs a non-blank --reason and recover needs --to (exit 2)', async () => {
    const repo = copyFixture('basic');
    const fail = await cli('fail', '--cwd', repo, '--spec-dir', LOGIN);
    assert.equal(fail.code, 2);
    assert.match(fail.err, /fail needs --reason/);
    const blank = await cli('fail', '--cwd', repo, '--spec-dir', LOGIN, '--reason', '  ');
    assert.equal(blank.code, 2);
    assert.match(blank.err, /fail needs a --reason that says what went wrong/);
    const recover = await cli('recover', '--cwd', repo, '--spec-dir', LOGIN);
    assert.equal(recover.code, 2);
    assert.match(recover.err, /recover needs --to/);
    assert.equal(readJson(repo, `${LOGIN}/pipeline.state.json`).current_stage, 'executing');
  });
});

describe('tasks', () => {
  let repo: string;
  before(() => {
    repo = copyFixture('basic');
  });

  test('--json prints tasks, conflicts, batches, cycle and unknown dependencies', async () => {
    const run = await cli('tasks', '--cwd', repo, '--spec-dir', LOGIN, '--json');
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(parsed(run), {
      tasks: [
        { id: 'T1', owns: ['src/auth/login.ts', 'src/auth/session/'], reads: ['src/db/users.ts'], depends_on: [] },
        { id: 'T2', owns: ['src/auth/validate.ts'], reads: ['src/db/users.ts'], depends_on: ['T1'] },
        { id: 'T3', owns: ['src/auth/lockout.ts'], reads: ['src/db/users.ts'], depends_on: ['T1'] },
      ],
      conflicts: [],
      batches: [
        { type: 'parallel', tasks: ['T1'] },
        { type: 'parallel', tasks: ['T2', 'T3'] },
      ],
      cycle: null,
      unknown_dependencies: [],
    });
  });

  test('conflicts, cycles and unknown dependencies, with exactly the documented keys', async () => {
    const run = await cli('tasks', '--cwd', repo, '--spec-dir', GRAPH, '--json');
    assert.equal(run.code, 0, 'without --validate the plan is only reported');
    const plan = parsed(run);
    assert.deepEqual(keys(plan), ['tasks', 'conflicts', 'batches', 'cycle', 'unknown_dependencies']);
    for (const t of plan.tasks) assert.deepEqual(keys(t), ['id', 'owns', 'reads', 'depends_on']);
    assert.deepEqual(
      plan.tasks.map((t: any) => t.id),
      ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T10'],
    );
    assert.deepEqual(plan.tasks[1].depends_on, ['T1'], 'T1.md is folded to T1');
    assert.deepEqual(plan.conflicts, [
      { a: 'T1', b: 'T6', paths: ['src/a.ts'] },
      { a: 'T4', b: 'T5', paths: ['src/shared/util.ts'] },
    ]);
    // As loom's buildBatches: both tasks of a conflict run serially, after the rest of their round.
    assert.deepEqual(plan.batches, [
      { type: 'parallel', tasks: ['T6'] },
      { type: 'serial', tasks: ['T4', 'T5'] },
      { type: 'parallel', tasks: ['T10'] },
    ]);
    assert.deepEqual(plan.cycle, ['T1', 'T2']);
    assert.deepEqual(plan.unknown_dependencies, [{ task: 'T3', depends_on: 'T9' }]);
  });

  test('--validate exits 1 on an owns conflict alone, naming both task files', async () => {
    const run = await cli('tasks', '--cwd', repo, '--spec-dir', CONFLICT, '--validate', '--json');
    assert.equal(run.code, 1);
    const plan = parsed(run);
    assert.deepEqual(keys(plan), ['tasks', 'conflicts', 'batches', 'cycle', 'unknown_dependencies']);
    assert.deepEqual(plan.conflicts, [{ a: 'T1', b: 'T2', paths: ['src/api/routes.ts'] }]);
    assert.match(run.err, /^specs\/2026-11-23\+conflict\/tasks\/T1\.md:2:1: error: T1 and T2 overlap on src\/api\/routes\.ts/m);
    assert.match(run.err, /^specs\/2026-11-23\+conflict\/tasks\/T2\.md:2:1: error: T2 and T1 overlap/m);
  });

  test('--validate exits 1 on cycles and unknown dependencies, on their depends_on lines', async () => {
    const run = await cli('tasks', '--cwd', repo, '--spec-dir', GRAPH, '--validate');
    assert.equal(run.code, 1);
    assert.match(run.err, /^specs\/2026-11-24\+task-graph\/tasks\/T3\.md:4:1: error: T3 depends on T9/m);
    assert.match(run.err, /^specs\/2026-11-24\+task-graph\/tasks\/T1\.md:4:1: error: T1 is on a dependency cycle/m);
  });

  test('--validate exits 1 when a task owns nothing', async () => {
    const copy = copyFixture('basic');
    writeFileSync(join(copy, LOGIN, 'tasks/T3.md'), '---\nowns: []\nreads: [src/db/users.ts]\ndepends_on: [T1]\n---\n# T3: 失败锁定\n');
    const run = await cli('tasks', '--cwd', copy, '--spec-dir', LOGIN, '--validate');
    assert.equal(run.code, 1);
    assert.match(run.err, /tasks\/T3\.md:2:1: error: T3 owns no paths/);
  });

  test('--validate passes a clean plan with exit 0, nothing on stderr, and says so', async () => {
    const run = await cli('tasks', '--cwd', repo, '--spec-dir', LOGIN, '--validate');
    assert.equal(run.code, 0, run.err);
    assert.equal(run.err, '');
    assert.match(run.out, /^specs\/2026-11-29\+login: 3 tasks valid: each owns its paths, no conflicts, no unknown dependencies, no cycle$/m);
    const asJson = await cli('tasks', '--cwd', repo, '--spec-dir', LOGIN, '--validate', '--json');
    assert.equal(asJson.code, 0, asJson.err);
    assert.ok(parsed(asJson).batches, 'with --json stdout stays one JSON document');
  });

  test('without --validate it checks nothing, so it does not claim the plan is valid', async () => {
    const run = await cli('tasks', '--cwd', repo, '--spec-dir', LOGIN);
    assert.doesNotMatch(run.out, /valid/);
  });

  test('a task file whose frontmatter does not parse is unreadable input: exit 2 naming file and line', async () => {
    const run = await cli('tasks', '--cwd', repo, '--spec-dir', BROKEN, '--json');
    assert.equal(run.code, 2);
    assert.equal(run.out, '');
    assert.match(run.err, /specs\/2026-11-26\+broken\/tasks\/T1\.md:3:1: error: .*frontmatter does not parse/);
  });

  test('the human form lists batches, the cycle, unknown dependencies and conflicts', async () => {
    const run = await cli('tasks', '--cwd', repo, '--spec-dir', GRAPH);
    assert.equal(run.code, 0);
    assert.equal(
      run.out,
      [
        // A batch of one task is neither parallel nor serial (issue 37).
        'Batch 1: T6',
        'Batch 2 (serial): T4, T5',
        'Batch 3: T10',
        'Dependency cycle: T1 → T2',
        'T3 depends on unknown task T9',
        'Conflict: T1 and T6 both touch src/a.ts',
        'Conflict: T4 and T5 both touch src/shared/util.ts',
        '',
      ].join('\n'),
    );
  });

  test('a spec without tasks says so', async () => {
    const run = await cli('tasks', '--cwd', repo, '--spec-dir', PROFILE);
    assert.equal(run.code, 0);
    assert.equal(run.out, 'No tasks.\n');
    assert.deepEqual(parsed(await cli('tasks', '--cwd', repo, '--spec-dir', PROFILE, '--json')), { tasks: [], conflicts: [], batches: [], cycle: null, unknown_dependencies: [] });
  });
});

describe('trace', () => {
  let repo: string;
  before(() => {
    repo = copyFixture('basic');
  });

  test('--json prints rows, requirement coverage, orphans and a summary', async () => {
    const run = await cli('trace', '--cwd', repo, '--spec-dir', LOGIN, '--json');
    assert.equal(run.code, 0, run.err);
    const m = parsed(run);
    assert.deepEqual(keys(m), ['rows', 'requirements', 'orphans', 'summary']);
    for (const r of m.rows) assert.deepEqual(keys(r), ['requirement', 'behavior', 'category', 'status', 'tasks', 'tests', 'evidence', 'closed']);
    assert.deepEqual(m.rows, [
      {
        requirement: 'REQ-001',
        behavior: 'REQ-001-B01',
        category: 'happy-path',
        status: 'passing',
        tasks: ['T1'],
        tests: [{ ref: 'tests/auth/login.test.js#登录成功', exists: true }],
        evidence: [{ ref: 'evidence/test.log', exists: true }],
        closed: true,
      },
      {
        requirement: 'REQ-001',
        behavior: 'REQ-001-B02',
        category: 'invalid-input',
        status: 'passing',
        tasks: ['T2'],
        tests: [{ ref: 'tests/auth/test_password.py::test_bad_email', exists: true }],
        evidence: [{ ref: 'evidence/test.log', exists: true }],
        closed: true,
      },
      {
        requirement: 'REQ-002',
        behavior: 'REQ-002-B01',
        category: 'state-transition',
        status: 'candidate_implemented',
        tasks: ['T3'],
        tests: [{ ref: 'tests/auth/lockout.test.js#第 6 次返回 423', exists: false, reason: 'missing' }],
        evidence: [],
        closed: false,
      },
    ]);
    assert.deepEqual(m.requirements, [
      { id: 'REQ-001', required_categories: ['happy-path', 'invalid-input'], covered_categories: ['happy-path', 'invalid-input'], missing_categories: [] },
      { id: 'REQ-002', required_categories: ['security', 'state-transition'], covered_categories: ['state-transition'], missing_categories: ['security'] },
    ]);
    assert.deepEqual(m.orphans, {
      task_behaviors_unknown: [],
      trace_behaviors_unknown: [],
      trace_requirements_unknown: [],
      behaviors_without_task: [],
      trace_tasks_unknown: [],
    });
    assert.deepEqual(m.summary, { behaviors: 3, closed: 2 });
  });

  test('evidence that disappears opens the behavior again', async () => {
    const copy = copyFixture('basic');
    unlinkSync(join(copy, LOGIN, 'evidence/test.log'));
    const m = parsed(await cli('trace', '--cwd', copy, '--spec-dir', LOGIN, '--json'));
    assert.deepEqual(m.rows[0].evidence, [{ ref: 'evidence/test.log', exists: false, reason: 'missing' }]);
    assert.equal(m.rows[0].closed, false);
    assert.deepEqual(m.summary, { behaviors: 3, closed: 0 });
  });

  test('the human form marks each behavior and sums up', async () => {
    const run = await cli('trace', '--cwd', repo, '--spec-dir', LOGIN);
    assert.equal(run.code, 0);
    assert.equal(
      run.out,
      [
        '✅ REQ-001-B01 [happy-path] tasks: T1; tests: 1/1; evidence: 1/1',
        '✅ REQ-001-B02 [invalid-input] tasks: T2; tests: 1/1; evidence: 1/1',
        // No evidence named is "none", not "0/0", which reads as all of nothing (issue 37).
        '❌ REQ-002-B01 [state-transition] tasks: T3; tests: 0/1; evidence: none',
        'REQ-002 lacks behaviors for: security',
        '2/3 behaviors closed',
        '',
      ].join('\n'),
    );
  });

  test('an unreadable requirements.json exits 2 naming file, line and column', async () => {
    const run = await cli('trace', '--cwd', repo, '--spec-dir', BROKEN, '--json');
    assert.equal(run.code, 2);
    assert.equal(run.out, '');
    assert.match(run.err, /specs\/2026-11-26\+broken\/requirements\.json:8:5: error: .*not valid JSON/);
  });
});

describe('validate', () => {
  let repo: string;
  before(() => {
    repo = copyFixture('basic');
  });

  test('--json lists every diagnostic and exits 1 when one is an error', async () => {
    const run = await cli('validate', '--cwd', repo, '--json');
    assert.equal(run.code, 1);
    const { diagnostics, ...rest } = parsed(run);
    assert.deepEqual(rest, {});
    const at = (file: string, code: string) => diagnostics.find((d: any) => d.file === file && d.code === code);
    assert.deepEqual((({ line, column, severity }) => ({ line, column, severity }))(at(`${BROKEN}/requirements.json`, 'json-syntax')), { line: 8, column: 5, severity: 'error' });
    assert.equal(at(`${BROKEN}/tasks/T1.md`, 'frontmatter-syntax').line, 3);
    assert.equal(at(`${BAD_STATE}/pipeline.state.json`, 'json-syntax').line, 5);
    assert.ok(at(`${CONFLICT}/tasks/T1.md`, 'owns-conflict'));
    assert.ok(at(`${GRAPH}/tasks/T2.md`, 'dependency-cycle'));
    for (const d of diagnostics) {
      assert.match(d.file, /^(specs|qa|\.loom)\/[^\\]+$/, 'repository-relative, forward slashes');
      assert.ok(Number.isInteger(d.line) && d.line >= 1 && Number.isInteger(d.column) && d.column >= 1);
      assert.ok(['error', 'warning', 'info'].includes(d.severity));
    }
  });

  test('the human form is one file:line:column line per problem', async () => {
    const run = await cli('validate', '--cwd', repo);
    assert.equal(run.code, 1);
    assert.match(run.out, /^specs\/2026-11-26\+broken\/requirements\.json:8:5: error: requirements\.json is not valid JSON/m, 'the path is named once, in front');
    assert.match(run.out, /^specs\/2026-11-26\+broken\/tasks\/T1\.md:3:1: error: .*the YAML frontmatter does not parse/m);
    for (const line of run.out.trimEnd().split('\n')) assert.match(line, /^[^:]+:\d+:\d+: (error|warning|info): /);
  });

  test('--spec-dir limits it to one spec: exit 0 for a clean one', async () => {
    const run = await cli('validate', '--cwd', repo, '--spec-dir', LOGIN);
    assert.equal(run.code, 0, run.out);
    // What the Problems panel lists too: the executing stage's task-state-closure finding, as information.
    assert.equal(run.out, 'specs/2026-11-29+login/task-states/T3.state.json:4:1: info: T3 is executing, not done (TS-1)\n');
    const broken = await cli('validate', '--cwd', repo, '--spec-dir', BROKEN, '--json');
    assert.equal(broken.code, 1);
    assert.ok(parsed(broken).diagnostics.every((d: any) => d.file.startsWith(`${BROKEN}/`)));
  });

  test('warnings alone do not fail', async () => {
    const run = await cli('validate', '--cwd', repo, '--spec-dir', SMOKE, '--json');
    assert.equal(run.code, 0);
    const { diagnostics } = parsed(run);
    assert.ok(diagnostics.length > 0 && diagnostics.every((d: any) => d.severity === 'warning'));
  });

  test('a clean repository exits 0 with no diagnostics', async () => {
    const clean = copyFixture('clean');
    const run = await cli('validate', '--cwd', clean, '--json');
    assert.equal(run.code, 0, run.out);
    assert.deepEqual(parsed(run), { diagnostics: [] });
  });

  // loom 3's getSteps finds no steps for a type workflow.yaml lacks, and its run --advance then marks
  // the spec complete unchecked; an empty workflow.yaml makes its loadWorkflow throw. Neither drives a spec here.
  test('a workflow.yaml without the spec’s type, or an empty one, leaves the spec unreadable (exit 2), naming the file and the type', async () => {
    const clean = copyFixture('clean');
    mkdirSync(join(clean, '.loom'), { recursive: true });
    writeFileSync(join(clean, '.loom/workflow.yaml'), 'pipelines:\n  bugfix:\n    - id: executing\n');
    const spec = 'specs/2026-12-01+export';
    const before = readFileSync(join(clean, spec, 'pipeline.state.json'), 'utf8');
    const status = await cli('status', '--cwd', clean, '--spec-dir', spec);
    assert.equal(status.code, 2);
    assert.match(status.err, /\.loom\/workflow\.yaml has no "feature" pipeline \(it has bugfix\)/);
    const advance = await cli('advance', '--cwd', clean, '--spec-dir', spec, '--confirm', '--compression-confirmed');
    assert.equal(advance.code, 2);
    assert.match(advance.err, /\.loom\/workflow\.yaml has no "feature" pipeline \(it has bugfix\), so the stages of a spec of that type are unknown/);
    writeFileSync(join(clean, '.loom/workflow.yaml'), '# nothing yet\n');
    const empty = await cli('advance', '--cwd', clean, '--spec-dir', spec, '--confirm');
    assert.equal(empty.code, 2);
    assert.match(empty.err, /\.loom\/workflow\.yaml:1:1: error: the file is empty \(or only comments\), and loom run refuses it \("Failed to parse workflow"\)/);
    assert.equal(readFileSync(join(clean, spec, 'pipeline.state.json'), 'utf8'), before, 'nothing written');
  });

  test('a workflow.yaml that does not parse is reported with its line', async () => {
    const clean = copyFixture('clean');
    mkdirSync(join(clean, '.loom'), { recursive: true });
    writeFileSync(join(clean, '.loom/workflow.yaml'), 'defaults:\n  pipeline_type: feature\n  max_retries: [3\n');
    const run = await cli('validate', '--cwd', clean);
    assert.equal(run.code, 1);
    assert.match(run.out, /^\.loom\/workflow\.yaml:\d+:\d+: error: /m);
  });
});

describe('usage errors', () => {
  let repo: string;
  before(() => {
    repo = copyFixture('basic');
  });

  const usage = async (...argv: string[]) => {
    const run = await cli(...argv);
    assert.equal(run.code, 2, `${argv.join(' ')} → ${run.code}: ${run.err}`);
    assert.equal(run.out, '', 'nothing on stdout');
    return run.err;
  };

  test('an unknown command', async () => {
    assert.match(await usage('frobnicate', '--cwd', repo), /^loom-vscode: unknown command frobnicate$/m);
  });

  test('an unknown flag, and a flag the command does not take', async () => {
    assert.match(await usage('status', '--cwd', repo, '--verbose'), /unknown option --verbose/);
    assert.match(await usage('status', '--cwd', repo, '--confirm'), /status does not take --confirm/);
    assert.match(await usage('trace', '--cwd', repo, '--spec-dir', LOGIN, '--validate'), /trace does not take --validate/);
    assert.match(await usage('status', '--cwd', repo, 'extra'), /unexpected argument extra/);
    assert.match(await usage('status', '--cwd', repo, '--json=yes'), /--json takes no value/);
  });

  test('a missing --spec-dir, and --spec-dir without a value', async () => {
    for (const command of ['advance', 'fail', 'recover', 'tasks', 'trace']) {
      assert.match(await usage(command, '--cwd', repo), new RegExp(`${command} needs --spec-dir`));
    }
    assert.match(await usage('status', '--cwd', repo, '--spec-dir', '--json'), /--spec-dir needs a value/);
    assert.match(await usage('status', '--cwd', repo, '--spec-dir'), /--spec-dir needs a value/);
  });

  test('--spec-dir naming something that is not a spec directory', async () => {
    for (const dir of ['.loom', 'specs', `${LOGIN}/tasks`, 'specs/2026-01-01+missing', '..', join(tmpdir(), 'elsewhere')]) {
      const err = await usage('status', '--cwd', repo, '--spec-dir', dir);
      assert.match(err, /is not a spec directory/, dir);
      assert.ok(err.includes(dir), `the message names ${dir}`);
    }
  });

  test('--spec-dir may name a spec by its folder or feature name; a near miss is answered with the ones it may mean', async () => {
    for (const dir of ['2026-11-29+login', 'login', 'login/', 'specs/2026-11-29+login']) {
      const run = await cli('status', '--cwd', repo, '--spec-dir', dir, '--json');
      assert.equal(parsed(run).spec_dir, LOGIN, dir);
    }
    assert.equal(parsed(await cli('status', '--cwd', repo, '--spec-dir', 'smoke', '--json')).spec_dir, SMOKE, 'under qa/ too');
    const near = await usage('status', '--cwd', repo, '--spec-dir', 'logn');
    assert.match(near, new RegExp(`--spec-dir logn is not a spec directory of .*; did you mean ${LOGIN.replace('+', '\\+')}\\?`));
    const prefix = await usage('tasks', '--cwd', repo, '--spec-dir', 'task');
    assert.match(prefix, /did you mean specs\/2026-11-24\+task-graph\?/);
  });

  test('--cwd that does not exist, or is a file', async () => {
    const missing = join(tmpdir(), 'loom-cli-no-such-dir', 'repo');
    assert.match(await usage('status', '--cwd', missing), /--cwd .*loom-cli-no-such-dir\/repo does not exist/);
    assert.match(await usage('status', '--cwd', join(repo, LOGIN, 'spec.md')), /is not a directory/);
  });

  test('no command prints the usage on stderr with exit 2', async () => {
    assert.match(await usage(), /^Usage: loom-vscode <command>/m);
  });

  test('--help prints the usage on stdout with exit 0, whatever the command', async () => {
    for (const argv of [['--help'], ['-h'], ['status', '--help'], ['advance', '--help', '--cwd', repo]]) {
      const run = await cli(...argv);
      assert.equal(run.code, 0);
      assert.equal(run.err, '');
      assert.match(run.out, /^Usage: loom-vscode <command>/m);
      assert.match(run.out, /Exit codes: 0 success, 1 a check failed, 2 bad usage or unreadable input/);
    }
    const version = await cli('--version');
    assert.equal(version.code, 0);
    assert.match(version.out, /^\d+\.\d+\.\d+\n$/);
  });
});

describe('--json prints exactly one JSON document on stdout', () => {
  test('for every command, success or check failure', async () => {
    const repo = copyFixture('basic');
    const runs: string[][] = [
      ['status'],
      ['status', '--spec-dir', LOGIN],
      ['tasks', '--spec-dir', GRAPH],
      ['tasks', '--spec-dir', CONFLICT, '--validate'],
      ['trace', '--spec-dir', LOGIN],
      ['validate'],
      ['validate', '--spec-dir', LOGIN],
      ['advance', '--spec-dir', PROFILE, '--confirm'],
      ['advance', '--spec-dir', SMOKE, '--confirm'],
      ['fail', '--spec-dir', LOGIN, '--reason', 'x'],
      ['recover', '--spec-dir', LOGIN, '--to', 'executing'],
    ];
    for (const argv of runs) {
      const run = await cli(...argv, '--cwd', repo, '--json');
      // The whole-repository status exits 2 for the corrupt bad-state spec, and still prints its document.
      assert.ok(run.code === 0 || run.code === 1 || (argv.length === 1 && argv[0] === 'status' && run.code === 2), `${argv.join(' ')}: ${run.err}`);
      assert.doesNotThrow(() => JSON.parse(run.out), argv.join(' '));
      assert.ok(run.out.endsWith('}\n') || run.out.endsWith(']\n'), argv.join(' '));
    }
  });
});

describe('the launcher bin/loom-vscode.js', () => {
  before(() => {
    // Always rebuild: a stale dist/cli.js would test yesterday's CLI.
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: PROJECT, encoding: 'utf8' });
    assert.equal(build.status, 0, `npm run build failed:\n${build.stdout}${build.stderr}`);
    assert.ok(existsSync(join(PROJECT, 'dist/cli.js')));
  });

  const launch = (args: string[], cwd = tmpdir()) => spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });

  test('works from another directory and prints JSON on stdout', () => {
    const repo = copyFixture('basic');
    const r = launch(['status', '--cwd', repo, '--json']);
    assert.equal(r.status, 2, 'the fixture holds a spec with a corrupt pipeline.state.json');
    assert.equal(r.stderr, `loom-vscode: ${BAD_STATE}/pipeline.state.json is corrupt, so the stage of ${BAD_STATE} is unknown\n`);
    const all = JSON.parse(r.stdout);
    assert.equal(all.length, 7);
    assert.equal(all.find((s: any) => s.spec_dir === LOGIN).stage, 'executing');
  });

  test('a relative --cwd resolves against the directory it is run from', () => {
    const repo = copyFixture('basic');
    const r = launch(['status', '--cwd', basename(repo), '--spec-dir', LOGIN, '--json'], dirname(repo));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).spec_dir, LOGIN);
  });

  test('without --cwd it reads the repository it is run in', () => {
    const repo = copyFixture('clean');
    const r = launch(['validate', '--json'], join(repo));
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { diagnostics: [] });
  });

  test('a reader that closes the pipe early (| head) does not crash it', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'loom-cli-many-'));
    temps.push(repo);
    for (let i = 1; i <= 150; i++) cpSync(join(FIXTURES, 'basic', GRAPH), join(repo, `specs/2026-01-01+graph-${i}`), { recursive: true });
    const child = spawn(process.execPath, [BIN, 'validate', '--cwd', repo, '--json'], { cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((done) => child.on('close', done));
    assert.doesNotMatch(stderr, /EPIPE|Unhandled/);
    assert.equal(code, 1, 'still the exit code of validate');
  });

  test('exit codes propagate: 1 for a refused advance, 0 once confirmed, 1 for validate errors, 2 for bad usage', () => {
    const repo = copyFixture('basic');
    const refused = launch(['advance', '--cwd', repo, '--spec-dir', SMOKE]);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /brainstorming is left only once you confirm it is done/);
    const confirmed = launch(['advance', '--cwd', repo, '--spec-dir', SMOKE, '--confirm']);
    assert.equal(confirmed.status, 0, confirmed.stderr);
    assert.equal(confirmed.stdout, 'qa/2026-11-30+smoke: brainstorming → detail-expansion\n');
    assert.equal(readJson(repo, `${SMOKE}/pipeline.state.json`).current_stage, 'detail-expansion');
    const invalid = launch(['validate', '--cwd', repo]);
    assert.equal(invalid.status, 1);
    assert.match(invalid.stdout, /specs\/2026-11-26\+broken\/requirements\.json:8:5: error/);
    const bad = launch(['frobnicate']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /unknown command frobnicate/);
    const unreadable = launch(['trace', '--cwd', repo, '--spec-dir', BROKEN]);
    assert.equal(unreadable.status, 2);
    assert.match(unreadable.stderr, /requirements\.json:8:5/);
  });
});

/* Core bugs first found through the CLI, kept as regression tests. */
describe('core bugs seen through the CLI', () => {
  test('advance without --to at the last stage of a workflow pipeline does not send the spec back', async () => {
    const repo = copyFixture('clean');
    mkdirSync(join(repo, '.loom'), { recursive: true });
    writeFileSync(
      join(repo, '.loom/workflow.yaml'),
      [
        'pipelines:',
        '  feature:',
        '    steps:',
        '      - id: executing',
        '        next: converge',
        '      - id: converge',
        '        next: verification',
        '      - id: verification',
        '        outputs: [verify-report.md]',
        '',
      ].join('\n'),
    );
    const statePath = join(repo, EXPORT, 'pipeline.state.json');
    const state = readJson(repo, `${EXPORT}/pipeline.state.json`);
    writeFileSync(statePath, `${JSON.stringify({ ...state, current_stage: 'verification', metadata: { worktree_path: 'wt' } }, null, 2)}\n`);
    cpSync(join(repo, 'tests'), join(repo, 'wt'), { recursive: true });
    const before = read(repo, `${EXPORT}/pipeline.state.json`);
    const run = await cli('advance', '--cwd', repo, '--spec-dir', EXPORT, '--confirm');
    assert.equal(run.code, 1, `verification is the last step; advance moved it: ${run.out}`);
    assert.equal(read(repo, `${EXPORT}/pipeline.state.json`), before);
  });

  test('a task whose frontmatter does not parse is not also reported as owning nothing', async () => {
    const repo = copyFixture('basic');
    const { diagnostics } = parsed(await cli('validate', '--cwd', repo, '--spec-dir', BROKEN, '--json'));
    const t1 = diagnostics.filter((d: any) => d.file === `${BROKEN}/tasks/T1.md`).map((d: any) => d.code);
    assert.deepEqual(t1, ['frontmatter-syntax']);
  });
});
