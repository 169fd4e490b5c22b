/**
 * loom 3's validator tools (tools.js loom_detail_expansion_check, loom_validate_plan,
 * loom_analyze_artifacts, loom_converge, loom_verify_artifacts) and ours (loom_trace,
 * loom_tasks, loom_validate, loom_check_stage) on the core the CLI uses: the same answers as
 * `loom-vscode trace|tasks|validate --json`, the same reports written, unreadable inputs refused.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArtifactAnalysisSchema, ConvergenceReportSchema, FindingsFileSchema } from '../../../src/core/files/findings';
import { assertBuilt, BIN, connect, PROJECT, type LoomClient } from './helpers';

const LOGIN = 'specs/2026-11-29+login';
const PROFILE = 'specs/2026-11-28+profile';
const BROKEN = 'specs/2026-11-26+broken';
const GRAPH = 'specs/2026-11-24+task-graph';
const EXPORT = 'specs/2026-12-01+export';

const cliJson = (root: string, ...args: string[]) => JSON.parse(spawnSync(process.execPath, [BIN, ...args, '--cwd', root, '--json'], { encoding: 'utf8' }).stdout);

describe('loom-vscode mcp: validators and views', () => {
  let dir: string;
  let basic: string;
  let clean: string;
  let c: LoomClient;
  let d: LoomClient;
  before(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'loom-mcp-validators-'));
    basic = join(dir, 'basic');
    clean = join(dir, 'clean');
    cpSync(join(PROJECT, 'test/fixtures/cli/basic'), basic, { recursive: true });
    cpSync(join(PROJECT, 'test/fixtures/cli/clean'), clean, { recursive: true });
    [c, d] = await Promise.all([connect(basic), connect(clean)]);
  });
  after(async () => {
    await Promise.all([c.close(), d.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('loom_trace answers what `trace --json` prints, and refuses unreadable ledgers by name', async () => {
    const r = await c.call('loom_trace', { spec_dir: LOGIN });
    const { spec_dir, ...matrix } = r;
    assert.equal(spec_dir, LOGIN);
    assert.deepEqual(matrix, cliJson(basic, 'trace', '--spec-dir', LOGIN));
    const broken = await c.call('loom_trace', { spec_dir: BROKEN });
    assert.match(broken.error, /requirements\.json cannot be read/);
    assert.deepEqual(
      broken.diagnostics.map((x: { line: number }) => x.line),
      [8],
    );
  });

  it('loom_tasks gives batches, conflicts and cycles, as `tasks --json`', async () => {
    const r = await c.call('loom_tasks', { spec_dir: GRAPH });
    assert.equal(r.ok, false);
    const cli = cliJson(basic, 'tasks', '--spec-dir', GRAPH);
    for (const key of ['tasks', 'conflicts', 'batches', 'cycle', 'unknown_dependencies']) assert.deepEqual(r[key], cli[key], key);
    assert.ok(r.cycle.length > 0);
    assert.ok(r.problems.some((p: { severity: string }) => p.severity === 'error'));
    assert.match((await c.call('loom_tasks', { spec_dir: BROKEN })).error, /tasks\/T1\.md cannot be read/);
  });

  it('loom_validate gives every diagnostic with file and line', async () => {
    const r = await c.call('loom_validate', { spec_dir: BROKEN });
    assert.equal(r.ok, false);
    assert.deepEqual(r.diagnostics, cliJson(basic, 'validate', '--spec-dir', BROKEN).diagnostics);
    assert.deepEqual(
      r.diagnostics.map((x: { file: string; line: number }) => `${x.file}:${x.line}`),
      [`${BROKEN}/requirements.json:8`, `${BROKEN}/tasks/T1.md:3`],
    );
    const all = await d.call('loom_validate');
    assert.deepEqual([all.ok, all.diagnostics], [true, []]);
  });

  it('loom_check_stage runs the current stage’s validators and writes the stage’s report', async () => {
    const executing = await c.call('loom_check_stage', { spec_dir: LOGIN });
    assert.equal(executing.ok, false);
    assert.deepEqual(executing.validators.find((v: { name: string }) => v.name === 'task-state-closure').problems, ['T3 is executing, not done']);
    const converge = await d.call('loom_check_stage', { spec_dir: EXPORT });
    assert.deepEqual([converge.ok, converge.stage, converge.handoff], [true, 'converge', 'handoffs/converge.json']);
  });

  it('loom_detail_expansion_check, loom_validate_plan and loom_verify_artifacts answer ok and errors', async () => {
    const detail = await c.call('loom_detail_expansion_check', { spec_dir: LOGIN });
    assert.deepEqual([detail.ok, detail.errors], [false, ['REQ-002 has no security behavior (add one, or one marked applicability: not-applicable)']]);
    const plan = await c.call('loom_validate_plan', { spec_dir: PROFILE });
    assert.equal(plan.ok, false);
    assert.ok(plan.errors.includes('traceability.json does not exist'));
    assert.equal(plan.plan_path, `${PROFILE}/plan.md`);
    // loom 3 validate-plan.mjs fails once plan.md links some task files as tasks/TN.md but not all of them.
    const planPath = join(basic, LOGIN, 'plan.md');
    const kept = readFileSync(planPath, 'utf8');
    writeFileSync(planPath, kept.replace('[T3](tasks/T3.md)', 'T3'));
    const partial = await c.call('loom_validate_plan', { spec_dir: LOGIN });
    writeFileSync(planPath, kept);
    assert.equal(partial.ok, false);
    assert.ok(partial.errors.includes('plan.md names other task files as tasks/TN.md but not tasks/T3.md'));
    assert.ok(!partial.warnings.includes('plan.md names other task files as tasks/TN.md but not tasks/T3.md'));
    const whole = await c.call('loom_validate_plan', { spec_dir: LOGIN });
    assert.ok(!whole.errors.some((e: string) => e.includes('tasks/TN.md')));
    // The rest of validate-plan.mjs (checkTaskFile): these task files are not written from loom's template.
    assert.equal(whole.ok, false);
    assert.ok(whole.errors.includes('tasks/T1.md missing acceptance mapping'), whole.errors.join('\n'));
    assert.ok(whole.warnings.includes('plan.md should describe task dependencies'));
    const verify = await c.call('loom_verify_artifacts', { spec_dir: LOGIN });
    assert.equal(verify.ok, false);
    assert.ok(verify.errors.includes('verify-report.md does not exist'));
  });

  it('loom_analyze_artifacts writes artifact-analysis.json, which the core’s schema reads', async () => {
    const r = await c.call('loom_analyze_artifacts', { spec_dir: PROFILE });
    assert.equal(r.ok, false);
    assert.equal(r.report.status, 'blocked');
    assert.ok(r.errors.some((e: string) => e.includes('plan.md does not exist')));
    const file = ArtifactAnalysisSchema().parse(JSON.parse(readFileSync(join(basic, PROFILE, 'artifact-analysis.json'), 'utf8')));
    assert.equal(file.status, 'blocked');
  });

  it('loom_converge writes convergence-report.json for the next round, refusing another round number', async () => {
    const wrong = await d.call('loom_converge', { spec_dir: EXPORT, round: 3 });
    assert.match(wrong.error, /round 3 is not the next convergence round of .*: that is round 1; nothing was written/);
    const r = await d.call('loom_converge', { spec_dir: EXPORT, round: 1 });
    assert.deepEqual([r.ok, r.report.round, r.report.status, r.appended_tasks], [true, 1, 'converged', []]);
    const file = ConvergenceReportSchema().parse(JSON.parse(readFileSync(join(clean, EXPORT, 'convergence-report.json'), 'utf8')));
    assert.equal(file.status, 'converged');
  });
});

describe('loom-vscode mcp: the omission hunt', () => {
  let dir: string;
  let c: LoomClient;
  before(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'loom-mcp-omission-'));
    cpSync(join(PROJECT, 'test/fixtures/cli/basic'), dir, { recursive: true });
    c = await connect(dir);
  });
  after(async () => {
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes findings/omission-hunter.json: missing tests and evidence block, what a person must judge is flagged', async () => {
    const r = await c.call('loom_omission_hunt', { spec_dir: LOGIN });
    const cli = cliJson(dir, 'trace', '--spec-dir', LOGIN);
    const missingTests = cli.rows.flatMap((row: { behavior: string; tests: { ref: string; exists: boolean }[] }) =>
      row.tests.filter((t) => !t.exists).map((t) => `${row.behavior} test reference not found: ${t.ref}`),
    );
    assert.ok(missingTests.length > 0, 'the fixture has a test that does not exist');
    for (const m of missingTests)
      assert.ok(
        r.report.findings.some((f: { message: string; severity: string }) => f.message === m && f.severity === 'blocker'),
        m,
      );
    assert.equal(r.ok, false);
    assert.equal(r.report.checked_behaviors, cli.rows.length);
    const file = FindingsFileSchema().parse(JSON.parse(readFileSync(join(dir, LOGIN, 'findings/omission-hunter.json'), 'utf8')));
    assert.equal(file.findings.length, r.report.findings.length);
    const validate = await c.call('loom_validate', { spec_dir: LOGIN });
    assert.ok(!validate.diagnostics.some((d: { file: string }) => d.file.endsWith('omission-hunter.json')), 'the report reads as loom findings');
  });

  it('refuses without a readable requirements.json, writing nothing', async () => {
    const r = await c.call('loom_omission_hunt', { spec_dir: 'specs/2026-11-26+broken' });
    assert.match(r.error, /requirements\.json cannot be read: the omission hunt needs it; nothing was written/);
    assert.equal(existsSync(join(dir, 'specs/2026-11-26+broken/findings/omission-hunter.json')), false);
  });
});
