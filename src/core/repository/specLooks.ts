import type { ChildProcess } from 'node:child_process';
import { startBundledProcess, type ProcessHeap } from '../threads/bundledProcess';
import type { SpecLookMessage, SpecLookRequest, SpecLookSkip } from './specLookProtocol';

/**
 * The worker process's heap. A look holds one spec at a time, and a small heap is collected
 * often. The process is not the extension host: neither its heap nor the garbage of 47,000 parsed
 * files counts in the host's memory (a worker thread of 32 MB added about 50 MB to it while it ran).
 * The worker parses no file over 1 MB (specLookWorker.ts); a spec it runs out of memory on all
 * the same is left to the caller, and a new worker process goes on.
 */
const LOOK_HEAP: ProcessHeap = { oldSpaceMb: 48, semiSpaceMb: 2 };

export interface SpecLookRun {
  /** Settles when the worker has looked at every spec (`completed`), or stopped early (its error, or `stop()`). */
  readonly finished: Promise<{ completed: boolean; error?: Error }>;
  stop(): void;
  /** Specs the caller looked at meanwhile: the worker passes over those it has not reached. */
  skip(dirs: readonly string[]): void;
}

/** How many times a worker that stopped at a spec is replaced by a new one for the specs after it. */
const LOOK_RESTARTS = 3;
/** How long a worker that is done may take to exit before it is stopped. */
const EXIT_GRACE_MS = 5000;
/** How much of a worker's stderr is kept: the reason it died is in its last lines. */
const STDERR_KEPT = 4096;

/**
 * Looks at the specs of one repository in a worker process, so that the extension host's thread
 * stays free for the views while a thousand specs are read, and neither their garbage nor the
 * reader's heap is in the host's memory. Each result is handed to `receive` as it comes. A worker
 * that stops at a spec (its heap full, say) costs that spec alone: it is reported `abandoned`,
 * left to the caller, and a new worker looks at the specs after it, up to `restarts` times; then
 * the run ends with the error. (`heap`: the workers' heap, smaller in the tests; `codeCacheDir`:
 * where V8's code cache of the worker's bundle is kept.)
 * The cache counts of `done` are the last worker's.
 */
export function lookInWorker(
  request: SpecLookRequest,
  receive: (m: SpecLookMessage) => void,
  { restarts = LOOK_RESTARTS, heap = LOOK_HEAP, codeCacheDir }: { restarts?: number; heap?: ProcessHeap; codeCacheDir?: string } = {},
): SpecLookRun {
  let settle!: (r: { completed: boolean; error?: Error }) => void;
  const finished = new Promise<{ completed: boolean; error?: Error }>((resolve) => (settle = resolve));
  let done = false;
  let worker: ChildProcess;
  /** Specs a worker has told of, in the order it looks at them (the request's). */
  const told = new Set<string>();
  const end = (r: { completed: boolean; error?: Error }) => {
    if (done) return;
    done = true;
    settle(r);
    // A worker that is done is let go (it exits on its own, writing its CPU profile if asked); any other is stopped.
    if (r.completed && worker.connected) {
      worker.disconnect();
      setTimeout(() => worker.kill(), EXIT_GRACE_MS).unref();
    } else worker.kill();
  };
  const start = (dirs: readonly string[]) => {
    const current = startBundledProcess('specLookWorker', __dirname, heap, codeCacheDir);
    worker = current;
    let over = false;
    let stderr = '';
    current.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT)));
    const stopped = (error: Error) => {
      if (over || done) return;
      over = true;
      const left = dirs.filter((d) => !told.has(d));
      if (restarts-- <= 0 || left.length === 0) return end({ completed: false, error });
      current.kill();
      receive({ kind: 'abandoned', dir: left[0], message: error.message });
      if (left.length === 1) return end({ completed: true });
      try {
        start(left.slice(1));
      } catch (e) {
        end({ completed: false, error: e as Error });
      }
    };
    current.on('message', (m: SpecLookMessage) => {
      if (done || over) return;
      if (m.kind === 'look' || m.kind === 'unreadable' || m.kind === 'tooLarge') told.add(m.dir);
      receive(m);
      if (m.kind === 'done') {
        over = true;
        end({ completed: true });
      }
    });
    current.on('error', stopped);
    // Its stderr is read to the end first: the reason is in it.
    current.on('close', (code, signal) => stopped(new Error(whyStopped(code, signal, stderr))));
    current.send({ ...request, dirs }, (e) => e && stopped(e));
  };
  start(request.dirs);
  const skip = (dirs: readonly string[]) => {
    if (done || dirs.length === 0) return;
    // Told, as far as a restart goes: a new worker is not asked for them.
    for (const d of dirs) told.add(d);
    try {
      if (worker.connected) worker.send({ kind: 'skip', dirs } satisfies SpecLookSkip);
    } catch {
      // The worker is gone: its restart leaves these out, having been told.
    }
  };
  return { finished, stop: () => end({ completed: false }), skip };
}

/** Why a worker process ended before it was done, in a sentence for the log. */
function whyStopped(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  const how = signal ? `signal ${signal}` : `exit code ${code}`;
  if (/heap out of memory|Reached heap limit/i.test(stderr)) return `the look's worker process ran out of memory (${how})`;
  const last = stderr.trim().split('\n').pop()?.trim();
  return `the look's worker process stopped (${how})${last ? `: ${last}` : ''}`;
}
