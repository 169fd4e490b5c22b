import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceLimits, TransferListItem, Worker } from 'node:worker_threads';
import { workerThreads } from '../nodeModules';

/**
 * A worker thread running one of the bundle's worker entries. Bundled, dist/extension.js and
 * dist/cli.js have `<name>.js` beside them (scripts/build.mjs); run from source (the unit tests,
 * under tsx), the worker loads `<name>.ts` from `sourceDir` through tsx.
 */
export function startBundledWorker(name: string, sourceDir: string, workerData: unknown, resourceLimits: ResourceLimits, transferList: TransferListItem[] = []): Worker {
  const bundled = join(__dirname, `${name}.js`);
  if (existsSync(bundled)) return new (workerThreads().Worker)(bundled, { workerData, resourceLimits, transferList });
  const source = join(sourceDir, `${name}.ts`);
  return new (workerThreads().Worker)(`require('tsx/cjs/api').register(); require(${JSON.stringify(source)});`, { eval: true, workerData, resourceLimits, transferList });
}
