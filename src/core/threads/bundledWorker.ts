import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { workerThreads } from '../nodeModules';

/**
 * A worker thread running one of the bundle's worker entries. Bundled, dist/extension.js and
 * dist/cli.js have `<name>.js` beside them (scripts/build.mjs); run from source (the unit tests,
 * under tsx), the worker loads `<name>.ts` from `sourceDir` through tsx.
 * LOOM_WORKER_CPUPROFILE=<folder> has each worker write a CPU profile there (the benchmarks:
 * the editor's window only profiles the extension host's own thread).
 */
export function startBundledWorker(name: string, sourceDir: string, workerData: unknown, resourceLimits: ResourceLimits): Worker {
  const bundled = join(__dirname, `${name}.js`);
  const profile = process.env.LOOM_WORKER_CPUPROFILE;
  const execArgv = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : undefined;
  if (existsSync(bundled)) return new (workerThreads().Worker)(bundled, { workerData, resourceLimits, execArgv });
  const source = join(sourceDir, `${name}.ts`);
  return new (workerThreads().Worker)(`require('tsx/cjs/api').register(); require(${JSON.stringify(source)});`, { eval: true, workerData, resourceLimits });
}
