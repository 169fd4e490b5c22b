import { parentPort, workerData } from 'node:worker_threads';
import { SpecFileTooLargeError } from '../errors';
import { setDisplayLanguage } from '../messages';
import { lowerThreadPriority } from '../threads/backgroundPriority';
import { EvaluationCache } from '../specdir/evaluationCache';
import { cacheCounts, directoryCacheStore, SpecCache } from '../specdir/specCache';
import { LoomRepository } from './loomRepository';
import type { SpecLookMessage, SpecLookRequest } from './specLookProtocol';
import { isSpecEvaluation } from './specEvaluation';
import { lookAtSpec } from './specLook';

// The look's worker entry point, bundled as dist/specLookWorker.js (scripts/build.mjs): the specs
// of one repository looked at one after another, each result posted as soon as it is known.
const port = parentPort;

/**
 * The largest file the worker parses. Its heap is small (specLooks.ts), and V8 cannot stop a
 * worker in the middle of one JSON.parse: a file this size parses well inside it, and a spec with
 * a larger one (no spec of loom's has one) is left to the extension host's thread.
 */
const MAX_FILE_BYTES = 2 ** 20;
if (port) {
  // Background work: the editor's threads come first, the look takes the CPU left over.
  lowerThreadPriority();
  const post = (m: SpecLookMessage) => port.postMessage(m);
  const request = workerData as SpecLookRequest;
  setDisplayLanguage(request.language);
  const store = request.cache && directoryCacheStore(request.cache.dir);
  // Written at once: nothing here waits on the first rows of a tree.
  const parses = store && new SpecCache(store, request.cache!.version, { remember: false });
  const evaluations = store && new EvaluationCache(store, request.cache!.version, isSpecEvaluation);
  // The host never waits for another process's run lock: it reports the holder.
  const repository = new LoomRepository(request.root, { specRoots: request.specRoots, pipeline: { lockWaitMs: 0 }, cache: parses });
  for (const dir of request.dirs) {
    try {
      const evaluation = lookAtSpec(
        repository,
        dir,
        request.language,
        evaluations,
        (specDir, part, e) => post({ kind: 'failed', specDir, part, message: e instanceof Error ? e.message : String(e), ...(e instanceof Error && e.stack ? { stack: e.stack } : {}) }),
        { maxFileBytes: MAX_FILE_BYTES },
      );
      post({ kind: 'look', dir, evaluation });
    } catch (e) {
      if (e instanceof SpecFileTooLargeError) post({ kind: 'tooLarge', dir, file: e.file ?? dir, bytes: e.bytes });
      else post({ kind: 'unreadable', dir, message: (e as Error).message });
    }
  }
  post({ kind: 'done', parses: parses && cacheCounts(parses), evaluations: evaluations && cacheCounts(evaluations) });
}
