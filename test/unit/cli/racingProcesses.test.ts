import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

const PROJECT = resolve(__dirname, '../../..');
const BIN = join(PROJECT, 'bin/loom-vscode.js');

interface Run {
  command: string;
  code: number | null;
  out: string;
  err: string;
}

function cli(args: string[], cwd: string): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args, '--cwd', cwd, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => done({ command: args[0], code, out, err }));
  });
}

/**
 * Four `advance` and four `fail` started together on one spec: reading the state, deciding and
 * writing are one step under the run lock, so every success a process reports is in the history,
 * no transition is reported twice, and the spec fails at most once.
 */
test('racing processes on one spec: exactly one succeeds per transition, every reported success is in the history', async () => {
  assert.ok(existsSync(join(PROJECT, 'dist/cli.js')), 'dist/cli.js is missing: run "npm run build" first (npm test does)');
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('approved'));
    plannedSpec(r);
    const runs = await Promise.all([
      ...[1, 2, 3, 4].map(() => cli(['advance', '--spec-dir', SPEC], r.root)),
      ...[1, 2, 3, 4].map((i) => cli(['fail', '--spec-dir', SPEC, '--reason', `racer ${i}`], r.root)),
    ]);
    for (const run of runs) assert.ok(run.code === 0 || run.code === 1, `${run.command} exited ${run.code}: ${run.err}`);
    const succeeded = runs.filter((x) => x.code === 0).map((x) => ({ command: x.command, ...(JSON.parse(x.out) as { from: string; to: string }) }));
    assert.ok(succeeded.length > 0, 'at least one process got through');

    const history = r.json<{ stage_history: { stage: string; status: string; reason?: string }[]; current_stage: string }>(`${SPEC}/pipeline.state.json`);
    const recorded = history.stage_history.map((h) => `${h.stage}:${h.status}`);
    const transitions = succeeded.map((s) => `${s.from}→${s.to}`);
    assert.equal(new Set(transitions).size, transitions.length, `a transition was reported twice: ${transitions.join(', ')}`);
    for (const s of succeeded) {
      const status = s.to === 'failed' ? 'failed' : 'passed';
      assert.ok(recorded.includes(`${s.from}:${status}`), `${s.command} reported ${s.from} → ${s.to}, but the history has ${recorded.join(', ')}`);
    }
    assert.equal(succeeded.length, history.stage_history.length, 'every history entry is a reported success, and the other way round');
    const fails = succeeded.filter((s) => s.command === 'fail');
    assert.ok(fails.length <= 1, `${fails.length} fail calls reported success`);
    if (fails.length === 1) {
      const reason = history.stage_history.find((h) => h.status === 'failed')!.reason;
      assert.match(reason ?? '', /^racer \d$/);
    }
    // The refused ones say why: already failed, or nothing left to advance to from where it stood.
    for (const run of runs.filter((x) => x.code === 1)) assert.match(run.err, /loom-vscode: /);
    assert.equal(existsSync(r.path(`${SPEC}/.loom-run.lock`)), false, 'no lock is left behind');
  } finally {
    r.dispose();
  }
});
