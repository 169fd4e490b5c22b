import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { workerThreads } from '../../nodeModules';
import type { TextSearchMessage, TextSearchRequest } from './textSearchScan';

/**
 * One `loom_search_text` call, run in a worker thread under a hard deadline: the extension
 * host's thread only waits, so its timers, the dispatch timeout and Stop Tasks keep working
 * whatever the model asks for. The worker is terminated at the deadline or when the dispatch
 * is aborted; the matches found by then are kept.
 */
export type TextSearchOutcome = { kind: 'done'; lines: string[] } | { kind: 'deadline'; lines: string[]; seconds: number } | { kind: 'refused'; message: string };

export interface TextSearchOptions {
  signal: AbortSignal;
  deadlineMs: number;
}

/** Enough for a search of a large worktree; the worker is stopped after it. */
export const SEARCH_DEADLINE_MS = 20_000;

export function runTextSearch(req: TextSearchRequest, options: TextSearchOptions): Promise<TextSearchOutcome> {
  const { signal, deadlineMs } = options;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<TextSearchOutcome>((resolve, reject) => {
    const lines: string[] = [];
    const worker = startWorker(req);
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      finish();
    };
    const onAbort = () => settle(() => reject(signal.reason));
    const timer = setTimeout(() => settle(() => resolve({ kind: 'deadline', lines, seconds: deadlineMs / 1000 })), deadlineMs);
    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: TextSearchMessage) => {
      if (m.kind === 'match') lines.push(m.line);
      else if (m.kind === 'done') settle(() => resolve({ kind: 'done', lines }));
      else settle(() => resolve({ kind: 'refused', message: m.message }));
    });
    worker.on('error', (e) => settle(() => resolve({ kind: 'refused', message: `the search failed: ${e.message}` })));
    worker.on('exit', (code) => settle(() => resolve({ kind: 'refused', message: `the search stopped unexpectedly (exit code ${code})` })));
  });
}

const WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

function startWorker(req: TextSearchRequest): Worker {
  const threads = workerThreads();
  // Bundled, dist/extension.js and dist/cli.js have the worker beside them (scripts/build.mjs).
  const bundled = join(__dirname, 'textSearchWorker.js');
  if (existsSync(bundled)) return new threads.Worker(bundled, { workerData: req, resourceLimits: WORKER_LIMITS });
  // Run from source (the unit tests, under tsx): the worker loads its TypeScript entry through tsx.
  const source = join(__dirname, 'textSearchWorker.ts');
  return new threads.Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(source)});`, { eval: true, workerData: req, resourceLimits: WORKER_LIMITS });
}
