/**
 * `bench: status-scan ratio=<ours ÷ floor>`: `loom-vscode status --json` over a generated
 * repository, each run in a fresh process (bench/statusScan.cjs), against the floor of merely
 * reading every file of the spec directories and JSON-parsing the JSON ones. Run alone with
 * `node --import tsx bench/statusScanBench.ts` (BENCH_SPECS=1000 by default).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRepository } from './generateRepository';

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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Medians of seven runs each, alternating, so that a noisy neighbour hurts both sides alike.
 * `status --json` keeps its per-spec cache in `cacheDir`: the first run (`cold`) parses
 * everything and writes the cache, the others reuse what did not change (everything).
 */
export function benchStatusScan(root: string, cacheDir: string, specs: number, tasks: number): string {
  child('floor', root); // warm the page cache
  const coldFloor = child('floor', root).ms;
  const cold = child('status', root, cacheDir).ms;
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
  return `bench: status-scan ratio=${(status / floor).toFixed(2)} peakMB=${peakMB.toFixed(0)} statusMs=${status.toFixed(0)} floorMs=${floor.toFixed(0)} coldRatio=${(cold / coldFloor).toFixed(2)} specs=${specs} tasks=${tasks}`;
}

if (require.main === module) {
  const specs = Number(process.env.BENCH_SPECS ?? 1000);
  const work = mkdtempSync(join(tmpdir(), 'loom-bench-'));
  try {
    generateRepository(join(work, 'large'), specs, 20);
    console.log(benchStatusScan(join(work, 'large'), join(work, 'cache'), specs, 20));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
