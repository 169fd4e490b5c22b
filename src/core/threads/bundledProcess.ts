import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { childProcess } from '../nodeModules';

/** A worker process's V8 heap, in MB: its old space, and each of the young generation's two semi-spaces. */
export interface ProcessHeap {
  oldSpaceMb: number;
  semiSpaceMb: number;
}

/**
 * A Node process running one of the bundle's worker entries, with an IPC channel that carries
 * structured-clone messages (Maps, Sets and undefined survive, as with a worker thread). Its
 * memory is its own, not the extension host's: a worker thread's heap, code and buffers count in
 * the host's memory for as long as it runs. Bundled, dist/extension.js has `<name>.js` beside it
 * (scripts/build.mjs); run from source (the unit tests, under tsx), the process loads `<name>.ts`
 * from `sourceDir` through tsx. In VS Code the host's `execPath` is Electron's binary, run as Node
 * (ELECTRON_RUN_AS_NODE), as the child is. stderr is piped: a process that dies says why there
 * (V8's "heap out of memory"). `codeCacheDir`: where V8's code cache of the bundle is kept, so
 * that a process started with every window does not compile it again each time.
 * LOOM_WORKER_CPUPROFILE=<folder> has each one write a CPU profile there.
 */
export function startBundledProcess(name: string, sourceDir: string, heap: ProcessHeap, codeCacheDir?: string): ChildProcess {
  const bundled = join(__dirname, `${name}.js`);
  const profile = process.env.LOOM_WORKER_CPUPROFILE;
  const execArgv = [`--max-old-space-size=${heap.oldSpaceMb}`, `--max-semi-space-size=${heap.semiSpaceMb}`, ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])];
  const fromSource = !existsSync(bundled);
  // The bundle is built `wrapped` (scripts/build.mjs): codeCacheLoader.ts runs it, with V8's code cache when there is a folder for it.
  const loader = join(__dirname, 'codeCacheLoader.js');
  const [entry, args] = fromSource ? [join(sourceDir, `${name}.ts`), []] : [loader, codeCacheDir ? [bundled, codeCacheDir] : [bundled]];
  return childProcess().fork(entry, args, {
    execArgv: fromSource ? [...execArgv, '--require', 'tsx/cjs'] : execArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
}
