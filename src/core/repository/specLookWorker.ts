import { SpecFileTooLargeError } from '../errors';
import { setDisplayLanguage } from '../messages';
import { lowerProcessPriority } from '../threads/backgroundPriority';
import { EvaluationCache } from '../specdir/evaluationCache';
import { cacheCounts, directoryCacheStore, SpecCache } from '../specdir/specCache';
import { LoomRepository } from './loomRepository';
import type { SpecLookMessage, SpecLookRequest, SpecLookSkip } from './specLookProtocol';
import type { SpecEvaluation } from './specEvaluation';
import { lookAtSpec } from './specLook';

// The look's worker process (specLooks.ts), bundled as dist/specLookWorker.js (scripts/build.mjs):
// the specs of one repository, asked in its first message, looked at one after another, each
// result sent as soon as it is known.

/**
 * The largest file the worker parses. Its heap is small (specLooks.ts), and V8 cannot stop in
 * the middle of one JSON.parse: a file this size parses well inside it, and a spec with a larger
 * one (no spec of loom's has one) is left to the extension host.
 */
const MAX_FILE_BYTES = 2 ** 20;
/** The loop gives the event loop a turn this often: the messages go out, and a parent that is gone is noticed. */
const SLICE_MS = 20;
const nextTurn = () => new Promise<void>((r) => setImmediate(r));
/** Specs the host has looked at meanwhile (SpecLookSkip): passed over. */
const skipped = new Set<string>();

/** `background`: whether the process runs at the lowest priority (for the benchmarks). */
async function look(request: SpecLookRequest, send: (m: SpecLookMessage) => void, background: boolean): Promise<void> {
  setDisplayLanguage(request.language);
  const store = request.cache && directoryCacheStore(request.cache.dir);
  // Written at once: nothing here waits on the first rows of a tree.
  const parses = store && new SpecCache(store, request.cache!.version, { remember: false });
  const evaluations = store && new EvaluationCache<SpecEvaluation>(store, request.cache!.version);
  // The host never waits for another process's run lock: it reports the holder.
  const repository = new LoomRepository(request.root, { specRoots: request.specRoots, pipeline: { lockWaitMs: 0 }, cache: parses });
  // A turn first: what the host sent right after the request (specs to pass over) is read before the loop.
  await nextTurn();
  let sliceStarted = performance.now();
  for (const dir of request.dirs) {
    if (skipped.has(dir)) continue;
    try {
      const evaluation = lookAtSpec(
        repository,
        dir,
        request.language,
        evaluations,
        (specDir, part, e) => send({ kind: 'failed', specDir, part, message: e instanceof Error ? e.message : String(e), ...(e instanceof Error && e.stack ? { stack: e.stack } : {}) }),
        { maxFileBytes: MAX_FILE_BYTES },
      );
      send({ kind: 'look', dir, evaluation });
    } catch (e) {
      if (e instanceof SpecFileTooLargeError) send({ kind: 'tooLarge', dir, file: e.file ?? dir, bytes: e.bytes });
      else send({ kind: 'unreadable', dir, message: (e as Error).message });
    }
    if (performance.now() - sliceStarted >= SLICE_MS) {
      await nextTurn();
      sliceStarted = performance.now();
    }
  }
  // maxRSS is in KB, the CPU times in µs: the process's, for the benchmarks (they are not the extension host's).
  const usage = process.resourceUsage();
  send({
    kind: 'done',
    parses: parses && cacheCounts(parses),
    evaluations: evaluations && cacheCounts(evaluations),
    pid: process.pid,
    peakMB: usage.maxRSS / 1024,
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    background,
  });
}

if (process.send) {
  // Background work: the editor's processes come first, the look takes the CPU left over. (Given
  // the usual priority for its first second of CPU time, a reload's look was no shorter in the
  // benchmark: warm-start 0.41 in three rounds, against 0.36.)
  const background = lowerProcessPriority();
  const send = (m: SpecLookMessage) => process.send?.(m);
  // The extension host stopped the look, or is gone: nothing is left to do.
  process.once('disconnect', () => process.exit(0));
  process.once('message', (request: SpecLookRequest) => {
    // What follows the request: specs looked at meanwhile by the host, from the evaluation cache.
    process.on('message', (m: SpecLookSkip) => {
      if (m.kind === 'skip') for (const dir of m.dirs) skipped.add(dir);
    });
    look(request, send, background).catch((e: unknown) => {
      process.stderr.write(`the look failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    });
  });
}
