import type { Worker } from 'node:worker_threads';
import { startBundledWorker } from '../threads/bundledWorker';
import type { SpecLookMessage, SpecLookRequest } from './specLookProtocol';

/**
 * The worker's heap is kept small: a look holds one spec at a time, and a small heap is collected
 * often, where the extension host's own heap would let the garbage of 47,000 parsed files grow
 * to hundreds of MB before collecting it (a look at 1,000 specs: +107 MB of the process's memory
 * without limits, +58 MB at 48/4 MB; the editor's bench: peakMB 160–165 at 32/2 MB against
 * 168–173 at 48/4, for the same time). The worker parses no file over 1 MB (specLookWorker.ts);
 * a spec it runs out of memory on all the same is left to the caller, and a new worker goes on.
 */
const LOOK_LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 2 };

export interface SpecLookRun {
  /** Settles when the worker has looked at every spec (`completed`), or stopped early (its error, or `stop()`). */
  readonly finished: Promise<{ completed: boolean; error?: Error }>;
  stop(): void;
}

/** How many times a worker that stopped at a spec is replaced by a new one for the specs after it. */
const LOOK_RESTARTS = 3;

/**
 * Looks at the specs of one repository in a worker thread, so that the extension host's thread
 * stays free for the views while a thousand specs are read, and their garbage stays out of its
 * heap. Each result is handed to `receive` as it comes. A worker that stops at a spec (its heap
 * full, say) costs that spec alone: it is reported `abandoned`, left to the caller, and a new
 * worker looks at the specs after it, up to `restarts` times; then the run ends with the error.
 * (`limits`: the workers' heap, smaller in the tests.)
 * The cache counts of `done` are the last worker's.
 */
export function lookInWorker(
  request: SpecLookRequest,
  receive: (m: SpecLookMessage) => void,
  { restarts = LOOK_RESTARTS, limits = LOOK_LIMITS }: { restarts?: number; limits?: typeof LOOK_LIMITS } = {},
): SpecLookRun {
  let settle!: (r: { completed: boolean; error?: Error }) => void;
  const finished = new Promise<{ completed: boolean; error?: Error }>((resolve) => (settle = resolve));
  let done = false;
  let worker: Worker;
  /** Specs a worker has told of, in the order it looks at them (the request's). */
  const told = new Set<string>();
  const end = (r: { completed: boolean; error?: Error }) => {
    if (done) return;
    done = true;
    settle(r);
    void worker.terminate();
  };
  const start = (dirs: readonly string[]) => {
    const current = startBundledWorker('specLookWorker', __dirname, { ...request, dirs }, limits);
    worker = current;
    let over = false;
    const stopped = (error: Error) => {
      if (over || done) return;
      over = true;
      const left = dirs.filter((d) => !told.has(d));
      if (restarts-- <= 0 || left.length === 0) return end({ completed: false, error });
      void current.terminate();
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
    current.on('exit', (code) => stopped(new Error(`the look's worker stopped (exit code ${code})`)));
  };
  start(request.dirs);
  return { finished, stop: () => end({ completed: false }) };
}
