import { startBundledWorker } from '../threads/bundledWorker';
import type { SpecLookMessage, SpecLookRequest } from './specLookProtocol';

/**
 * The worker's heap is kept small: a look holds one spec at a time, and a small heap is collected
 * often, where the extension host's own heap would let the garbage of 47,000 parsed files grow
 * to hundreds of MB before collecting it (a look at 1,000 specs: +58 MB of the process's memory
 * with these limits, +107 MB without). The worker parses no file over 2 MB (specLookWorker.ts);
 * should it stop all the same, the caller looks at the rest itself.
 */
const LOOK_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 4 };

export interface SpecLookRun {
  /** Settles when the worker has looked at every spec (`completed`), or stopped early (its error, or `stop()`). */
  readonly finished: Promise<{ completed: boolean; error?: Error }>;
  stop(): void;
}

/**
 * Looks at the specs of one repository in a worker thread, so that the extension host's thread
 * stays free for the views while a thousand specs are read, and their garbage stays out of its
 * heap. Each result is handed to `receive` as it comes.
 */
export function lookInWorker(request: SpecLookRequest, receive: (m: SpecLookMessage) => void): SpecLookRun {
  const worker = startBundledWorker('specLookWorker', __dirname, request, LOOK_LIMITS);
  let settle!: (r: { completed: boolean; error?: Error }) => void;
  const finished = new Promise<{ completed: boolean; error?: Error }>((resolve) => (settle = resolve));
  let done = false;
  const end = (r: { completed: boolean; error?: Error }) => {
    if (done) return;
    done = true;
    settle(r);
    void worker.terminate();
  };
  worker.on('message', (m: SpecLookMessage) => {
    if (done) return;
    receive(m);
    if (m.kind === 'done') end({ completed: true });
  });
  worker.on('error', (error) => end({ completed: false, error }));
  worker.on('exit', (code) => end({ completed: false, error: new Error(`the look's worker stopped (exit code ${code})`) }));
  return { finished, stop: () => end({ completed: false }) };
}
