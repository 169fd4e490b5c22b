/**
 * `bench: drift-scan ratio=<drift ÷ git log>`: the drift answer of every synced spec
 * (`loom-vscode drift --json`, a process as CI runs it: reading the 1,000 specs' states, tasks and
 * traces, then one `git log --name-status -M` pass) against a bare `git log --name-status` over
 * the same range (HEAD back to the oldest baseline), medians of alternating rounds. Target ≤ 1.5.
 * `inProcessMs`: the core's answer alone (repositoryDrift), without Node's start. `load`: the load
 * average when the rounds ended (on a shared two-core machine the ratio moves with it).
 *
 * Run alone with `node --import tsx bench/driftScanBench.ts` (BENCH_DRIFT_SPECS=1000,
 * BENCH_DRIFT_COMMITS=10000, BENCH_DRIFT_RUNS=5).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LoomRepository } from '../src/core/repository/loomRepository';
import { repositoryDrift } from '../src/core/drift/repositoryDrift';
import { generateDriftRepository } from './driftRepository';
import { median } from './median';

const BIN = resolve(__dirname, '..', 'bin', 'loom-vscode.js');

function timed(run: () => { status: number | null; stderr: string }, ok: (status: number | null) => boolean): number {
  const start = process.hrtime.bigint();
  const r = run();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (!ok(r.status)) throw new Error(`exited ${r.status}: ${r.stderr}`);
  return ms;
}

export async function benchDriftScan(
  specs = Number(process.env.BENCH_DRIFT_SPECS ?? 1000),
  commits = Number(process.env.BENCH_DRIFT_COMMITS ?? 10000),
  runs = Number(process.env.BENCH_DRIFT_RUNS ?? 5),
): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'loom-bench-drift-'));
  try {
    const generatedAt = process.hrtime.bigint();
    const { base } = generateDriftRepository(root, specs, commits);
    const generateMs = Number(process.hrtime.bigint() - generatedAt) / 1e6;
    const bare = () =>
      timed(
        () => spawnSync('git', ['log', '--name-status', 'HEAD', '--not', base], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' }),
        (s) => s === 0,
      );
    // Exit 1: specs drifted, which they do here.
    const drift = () =>
      timed(
        () => spawnSync(process.execPath, [BIN, 'drift', '--json', '--cwd', root], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' }),
        (s) => s === 1,
      );
    bare();
    drift(); // warm the page cache and the CLI's code cache
    const bares: number[] = [];
    const drifts: number[] = [];
    for (let i = 0; i < runs; i++) {
      bares.push(bare());
      drifts.push(drift());
    }
    const inStart = process.hrtime.bigint();
    const report = await repositoryDrift(new LoomRepository(root));
    const inProcessMs = Number(process.hrtime.bigint() - inStart) / 1e6;
    const drifted = report.specs.filter((d) => d.status === 'drifted').length;
    if (report.specs.length !== specs) throw new Error(`drift read ${report.specs.length} synced specs, not ${specs}`);
    const d = median(drifts);
    const b = median(bares);
    return `bench: drift-scan ratio=${(d / b).toFixed(2)} driftMs=${d.toFixed(0)} gitLogMs=${b.toFixed(0)} inProcessMs=${inProcessMs.toFixed(0)} drifted=${drifted}/${specs} commits=${commits} runs=${runs} generateMs=${generateMs.toFixed(0)} load=${loadavg()[0].toFixed(1)}`;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchDriftScan().then(
    (line) => console.log(line),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
