/**
 * `bench: status-scan ratio=<ours ÷ floor>`: `loom-vscode status --json` over a generated
 * repository with its cache filled, each run in a fresh process (bench/statusScan.cjs), against the
 * floor of merely reading every file of the spec directories and JSON-parsing the JSON ones.
 *
 * `bench: status-cold ratio=<cold ÷ floor> loomRatio=<cold ÷ loom's status>`: the first run on an
 * empty cache folder (a clone, every CI run: no status kept, no code cache of the CLI's bundle),
 * timed as a user waits for it, from the process's start to its exit, against the floor's process
 * and loom's own `status --json` (the CLI `LOOM_CLI` names, run with this Node in the repository)
 * timed the same way. Without LOOM_CLI the line has no loomRatio. `cpuMs=<cold>/<floor>/<loom>`: the
 * CPU time each used (every thread), medians: on two cores, what bounds the wall time from below.
 *
 * Run alone with `node --import tsx bench/statusScanBench.ts` (BENCH_SPECS=1000 by default).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { generateRepository } from './generateRepository';
import { median } from './median';

const BIN = resolve(__dirname, '..', 'bin', 'loom-vscode.js');

/** What statusScan.cjs prints: wall time, CPU time (user + system, steadier on a busy machine) and peak memory. */
interface ChildResult {
  ms: number;
  cpuMs: number;
  peakMB: number;
}

function child(mode: 'floor' | 'status', root: string, cacheDir?: string): ChildResult {
  const env = { ...process.env, ...(cacheDir ? { LOOM_VSCODE_CACHE_DIR: cacheDir } : {}) };
  const r = spawnSync(process.execPath, [join(__dirname, 'statusScan.cjs'), mode, root], { encoding: 'utf8', maxBuffer: 1 << 26, env });
  if (r.status !== 0) throw new Error(`${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

/**
 * Medians of seven runs each, alternating, so that a noisy neighbour hurts both sides alike.
 * `status --json` keeps its statuses in `cacheDir`: the first run fills it, the others reuse
 * what did not change (everything).
 */
export function benchStatusScan(root: string, cacheDir: string, specs: number, tasks: number): string {
  child('floor', root); // warm the page cache
  child('status', root, cacheDir); // fill the cache (and the CLI's code cache)
  const floors: number[] = [];
  const statuses: number[] = [];
  let peakMB = 0;
  for (let i = 0; i < 7; i++) {
    floors.push(child('floor', root).ms);
    const s = child('status', root, cacheDir);
    statuses.push(s.ms);
    peakMB = Math.max(peakMB, s.peakMB);
  }
  const floor = median(floors);
  const status = median(statuses);
  return `bench: status-scan ratio=${(status / floor).toFixed(2)} peakMB=${peakMB.toFixed(0)} statusMs=${status.toFixed(0)} floorMs=${floor.toFixed(0)} specs=${specs} tasks=${tasks}`;
}

/**
 * How long `node <args>` takes from its start to its exit, its output thrown away (ms), and the CPU
 * it used (cpuAtExit.cjs): on two cores a run's wall time cannot go much below half its CPU.
 */
function processMs(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): { ms: number; cpuMs: number } {
  const cpuOut = join(mkdtempSync(join(tmpdir(), 'loom-bench-cpu-')), 'cpu');
  const env = { ...(options.env ?? process.env), LOOM_BENCH_CPU_OUT: cpuOut };
  try {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['--require', join(__dirname, 'cpuAtExit.cjs'), ...args], { cwd: options.cwd, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return { ms, cpuMs: Number(readFileSync(cpuOut, 'utf8')) };
  } finally {
    rmSync(dirname(cpuOut), { recursive: true, force: true });
  }
}

/**
 * Medians of `runs` rounds, each the floor, a cold run (a new, empty cache folder), a warm run on
 * what it left (`warmMs`), and loom's status when `loomCli` names it, one after the other.
 */
export function benchStatusCold(root: string, work: string, specs: number, tasks: number, loomCli = process.env.LOOM_CLI, runs = Number(process.env.BENCH_COLD_RUNS ?? 5)): string {
  if (loomCli && !existsSync(loomCli)) throw new Error(`LOOM_CLI=${loomCli}: no such file (loom's bin/loom.js)`);
  const floors: { ms: number; cpuMs: number }[] = [];
  const colds: { ms: number; cpuMs: number }[] = [];
  const warms: { ms: number; cpuMs: number }[] = [];
  const looms: { ms: number; cpuMs: number }[] = [];
  processMs([join(__dirname, 'statusScan.cjs'), 'floor', root]); // warm the page cache
  for (let i = 0; i < runs; i++) {
    floors.push(processMs([join(__dirname, 'statusScan.cjs'), 'floor', root]));
    const cache = mkdtempSync(join(work, 'cold-cache-'));
    const env = { ...process.env, LOOM_VSCODE_CACHE: '', LOOM_VSCODE_CACHE_DIR: cache };
    try {
      colds.push(processMs([BIN, 'status', '--json', '--cwd', root], { env }));
      warms.push(processMs([BIN, 'status', '--json', '--cwd', root], { env }));
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
    if (loomCli) looms.push(processMs([loomCli, 'status', '--json'], { cwd: root }));
  }
  const ms = (runs: { ms: number }[]) => median(runs.map((r) => r.ms));
  const cpu = (runs: { cpuMs: number }[]) => median(runs.map((r) => r.cpuMs)).toFixed(0);
  const floor = ms(floors);
  const cold = ms(colds);
  const loom = loomCli ? ` loomRatio=${(cold / ms(looms)).toFixed(2)}` : '';
  const loomMs = loomCli ? ` loomMs=${ms(looms).toFixed(0)}` : '';
  // The CPU each used, in the same order (cold/floor/loom): what two cores can share out.
  const cpuMs = ` cpuMs=${[colds, floors, ...(loomCli ? [looms] : [])].map(cpu).join('/')}`;
  return `bench: status-cold ratio=${(cold / floor).toFixed(2)}${loom} coldMs=${cold.toFixed(0)} floorMs=${floor.toFixed(0)}${loomMs} warmMs=${ms(warms).toFixed(0)}${cpuMs} specs=${specs} tasks=${tasks} runs=${runs}`;
}

if (require.main === module) {
  const specs = Number(process.env.BENCH_SPECS ?? 1000);
  const work = mkdtempSync(join(tmpdir(), 'loom-bench-'));
  try {
    generateRepository(join(work, 'large'), specs, 20);
    console.log(benchStatusScan(join(work, 'large'), join(work, 'cache'), specs, 20));
    console.log(benchStatusCold(join(work, 'large'), work, specs, 20));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
