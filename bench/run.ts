/**
 * `npm run bench`: each benchmark measures a ratio within one run and prints one line
 * `bench: <name> ratio=<r> ...`. Settings, from the environment: BENCH_SPECS (1,000 specs of 20
 * tasks), LOOM_CLI (loom's bin/loom.js, to time loom's own `status --json` beside ours),
 * BENCH_SCAN_RUNS (7), BENCH_DRIFT_SPECS (1000), BENCH_DRIFT_COMMITS (10000), BENCH_DRIFT_RUNS (5), BENCH_COLD_RUNS (5), BENCH_MATRIX_RUNS (5), BENCH_VSCODE_ROUNDS (5), BENCH_VERBOSE=1 (every
 * window's figures on stderr), BENCH_CPUPROFILE / BENCH_HEAPPROFILE / BENCH_HEAPSNAPSHOT (a folder).
 */
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoomRepository } from '../src/core/repository/loomRepository';
import { generateRepository } from './generateRepository';
import { benchFixModeTokens } from './fixModeTokens';
import { benchPipelineRun } from './pipelineRun';
import { benchMatrixRender } from './matrixRender';
import { benchStatusCold, benchStatusScan, statusFloorLine } from './statusScanBench';
import { benchEditor } from './vscodeBench';
import { benchParallelBatch } from './parallelBatch';
import { benchDriftScan } from './driftScanBench';

const SPECS = Number(process.env.BENCH_SPECS ?? 1000);
const TASKS = 20;

/** Median time to apply one changed task file and re-read the status of its spec. */
function timeOneChange(root: string, specs: number): number {
  const repo = new LoomRepository(root).load();
  const dirs = repo.all().map((s) => s.snapshot.dir);
  const samples: number[] = [];
  for (let i = 0; i < 60; i++) {
    const dir = dirs[(i * 7) % dirs.length];
    const file = join(dir, 'tasks', 'T5.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/complexity: \w+/, `complexity: ${i % 2 ? 'low' : 'medium'}`));
    const start = process.hrtime.bigint();
    const changed = repo.specDirOf(file)!;
    repo.reload(changed)!.status();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  if (repo.all().length !== specs) throw new Error('the repository lost specs');
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

function incremental(large: string, small: string): void {
  timeOneChange(small, 10); // warm up the JIT
  const smallMs = timeOneChange(small, 10);
  const largeMs = timeOneChange(large, SPECS);
  console.log(`bench: incremental ratio=${(largeMs / smallMs).toFixed(2)} largeMs=${largeMs.toFixed(2)} smallMs=${smallMs.toFixed(2)} specs=${SPECS}/10`);
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'loom-bench-'));
  try {
    const large = join(work, 'large');
    const small = join(work, 'small');
    generateRepository(large, SPECS, TASKS);
    generateRepository(small, 10, TASKS);
    console.log(statusFloorLine());
    console.log(benchStatusScan(large, join(work, 'cache'), SPECS, TASKS));
    console.log(benchStatusCold(large, work, SPECS, TASKS));
    incremental(large, small);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(await benchMatrixRender());
  console.log(await benchFixModeTokens());
  console.log(await benchPipelineRun());
  for (const line of await benchEditor(SPECS)) console.log(line);
  console.log(await benchParallelBatch());
  console.log(await benchDriftScan());
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
