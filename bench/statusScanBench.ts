/**
 * The status lines of `npm run bench`, each process timed as a user waits for it, from its start to
 * its exit, medians of alternating rounds so that a noisy neighbour hurts every side alike:
 *
 * `bench: status-floor reads=…`: what the floor reads (bench/statusScan.cjs): the files
 * `loom-vscode status --json` needs for its answer on the generated repository, and nothing else.
 *
 * `bench: status-scan ratio=<warm ÷ floor> loomRatio=<warm ÷ loom>`: `status --json` with its cache
 * filled by an earlier run (the statuses it keeps), against the floor's process and loom's own
 * `status --json` (the CLI `LOOM_CLI` names, run with this Node in the repository). Without
 * LOOM_CLI the line has no loomRatio.
 *
 * `bench: status-cold ratio=<cold ÷ floor> loomRatio=<cold ÷ loom>`: the first run on an empty cache
 * folder (a clone, every CI run), against the same two. `cpuMs=<cold>/<floor>/<loom>`: the CPU time
 * each used (every thread), medians.
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
const FLOOR = join(__dirname, 'statusScan.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the floor's own list, plain JavaScript
const { FLOOR_READS } = require('./statusScan.cjs') as { FLOOR_READS: string };

/** One process's run: its wall time, and the CPU (every thread) and peak memory it wrote at its exit (cpuAtExit.cjs). */
interface ProcessRun {
  ms: number;
  cpuMs: number;
  peakMB: number;
}

/**
 * How long `node <args>` takes from its start to its exit, its output thrown away (ms), with the
 * CPU it used and its peak memory: on two cores a run's wall time cannot go much below half its CPU.
 */
function processMs(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): ProcessRun {
  const out = join(mkdtempSync(join(tmpdir(), 'loom-bench-cpu-')), 'cpu');
  const env = { ...(options.env ?? process.env), LOOM_BENCH_CPU_OUT: out };
  try {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['--require', join(__dirname, 'cpuAtExit.cjs'), ...args], { cwd: options.cwd, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return { ms, ...(JSON.parse(readFileSync(out, 'utf8')) as { cpuMs: number; peakMB: number }) };
  } finally {
    rmSync(dirname(out), { recursive: true, force: true });
  }
}

const ms = (runs: readonly ProcessRun[]) => median(runs.map((r) => r.ms));
const cpu = (runs: readonly ProcessRun[]) => median(runs.map((r) => r.cpuMs)).toFixed(0);

function checkLoom(loomCli: string | undefined): void {
  if (loomCli && !existsSync(loomCli)) throw new Error(`LOOM_CLI=${loomCli}: no such file (loom's bin/loom.js)`);
}

const ours = (root: string, cacheDir: string) => processMs([BIN, 'status', '--json', '--cwd', root], { env: { ...process.env, LOOM_VSCODE_CACHE: '', LOOM_VSCODE_CACHE_DIR: cacheDir } });
const floorOf = (root: string) => processMs([FLOOR, root]);
const loomOf = (root: string, loomCli: string) => processMs([loomCli, 'status', '--json'], { cwd: root });

/** `bench: status-floor reads=…`: what the floor of the two status lines reads. */
export const statusFloorLine = () => `bench: status-floor reads=${FLOOR_READS}`;

/**
 * Medians of `runs` rounds of the floor, `status --json` on the cache an earlier run filled, and
 * loom's status when `loomCli` names it, one after the other.
 */
export function benchStatusScan(root: string, cacheDir: string, specs: number, tasks: number, loomCli = process.env.LOOM_CLI, runs = Number(process.env.BENCH_SCAN_RUNS ?? 7)): string {
  checkLoom(loomCli);
  floorOf(root); // warm the page cache
  ours(root, cacheDir); // fill the cache (and the CLI's code cache)
  const floors: ProcessRun[] = [];
  const warms: ProcessRun[] = [];
  const looms: ProcessRun[] = [];
  for (let i = 0; i < runs; i++) {
    floors.push(floorOf(root));
    warms.push(ours(root, cacheDir));
    if (loomCli) looms.push(loomOf(root, loomCli));
  }
  const warm = ms(warms);
  const loom = loomCli ? ` loomRatio=${(warm / ms(looms)).toFixed(2)}` : '';
  const loomMs = loomCli ? ` loomMs=${ms(looms).toFixed(0)}` : '';
  const peakMB = Math.max(...warms.map((r) => r.peakMB));
  return `bench: status-scan ratio=${(warm / ms(floors)).toFixed(2)}${loom} statusMs=${warm.toFixed(0)} floorMs=${ms(floors).toFixed(0)}${loomMs} cpuMs=${[warms, floors, ...(loomCli ? [looms] : [])].map(cpu).join('/')} peakMB=${peakMB.toFixed(0)} specs=${specs} tasks=${tasks} runs=${runs}`;
}

/**
 * Medians of `runs` rounds, each the floor, a cold run (a new, empty cache folder), a warm run on
 * what it left (`warmMs`), and loom's status when `loomCli` names it, one after the other.
 */
export function benchStatusCold(root: string, work: string, specs: number, tasks: number, loomCli = process.env.LOOM_CLI, runs = Number(process.env.BENCH_COLD_RUNS ?? 5)): string {
  checkLoom(loomCli);
  const floors: ProcessRun[] = [];
  const colds: ProcessRun[] = [];
  const warms: ProcessRun[] = [];
  const looms: ProcessRun[] = [];
  floorOf(root); // warm the page cache
  for (let i = 0; i < runs; i++) {
    floors.push(floorOf(root));
    const cache = mkdtempSync(join(work, 'cold-cache-'));
    try {
      colds.push(ours(root, cache));
      warms.push(ours(root, cache));
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
    if (loomCli) looms.push(loomOf(root, loomCli));
  }
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
    console.log(statusFloorLine());
    console.log(benchStatusScan(join(work, 'large'), join(work, 'cache'), specs, 20));
    console.log(benchStatusCold(join(work, 'large'), work, specs, 20));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
