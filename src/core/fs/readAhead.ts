import type { MessagePort, Worker } from 'node:worker_threads';
import { workerThreads } from '../nodeModules';
import { startBundledWorker } from '../threads/bundledWorker';
import { ClaimQueue } from '../threads/claimQueue';
import { DONE, MAIN_AT, MAIN_THREAD, READ, SENT, type ReadAheadBatch, type ReadAheadRequest } from './readAheadProtocol';
import type { FileReadAhead, SpecReadAhead } from './readRecorder';

/** Files larger than this are read by the main thread when it needs them (loom's files are a few kilobytes). */
const MAX_FILE_BYTES = 256 * 1024;
/** Specs read ahead of the main thread, at most: about a megabyte of text at loom's sizes. */
const LEAD = 32;
/**
 * How long the main thread waits, at most, for a spec the thread is reading: about a millisecond
 * as a rule. Only a thread that stalled keeps it waiting that long; the main thread then reads the spec itself.
 */
const WAIT_MS = 250;

/**
 * A thread that reads the files of the spec directories the main thread is about to read, in the
 * same order, a few specs ahead of it: the system calls of a first status run (opening, stat-ing,
 * reading and closing fifty thousand files, half its time on one thread) then run beside the
 * parsing and the guards. Each spec is read by one thread only (a claim on it): one the thread
 * has not begun is read by the main thread as before, and the thread skips it; one the thread is
 * reading, the main thread waits for (it would otherwise read the same files a second time, both
 * threads in step, each spec twice, as they did before the claims). Used by the CLI, whose main
 * thread has nothing else to do meanwhile.
 */
export class ReadAhead {
  private readonly progress: Int32Array;
  private readonly batches = new Map<number, ReadAheadBatch>();

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    progress: SharedArrayBuffer,
    private readonly claims: ClaimQueue,
  ) {
    this.progress = new Int32Array(progress);
  }

  /** Starts reading `dirs` ahead (their own files and those of `folders` in each; `listedOnly` folders are listed, not read); undefined when no thread can be started. */
  static start(dirs: readonly string[], folders: readonly string[], listedOnly: readonly string[]): ReadAhead | undefined {
    const { MessageChannel } = workerThreads();
    const { port1, port2 } = new MessageChannel();
    const progress = new SharedArrayBuffer(16);
    Atomics.store(new Int32Array(progress), MAIN_AT, -1);
    Atomics.store(new Int32Array(progress), SENT, -1);
    const claims = ClaimQueue.create(dirs.length);
    const request: ReadAheadRequest = { dirs, folders, listedOnly, maxFileBytes: MAX_FILE_BYTES, lead: LEAD, progress, claims: claims.buffer, port: port2 };
    let worker: Worker;
    try {
      worker = startBundledWorker('readAheadWorker', __dirname, request, {}, [port2]);
    } catch {
      port1.close();
      return undefined;
    }
    // An error in the thread only means nothing more is read ahead.
    worker.on('error', () => undefined);
    worker.unref();
    port1.unref();
    return new ReadAhead(worker, port1, progress, claims);
  }

  /**
   * The files and folders of `dirs[k]` read ahead, as the main thread starts on that spec: undefined
   * when the thread had not begun it, which it then never reads (the main thread does). The thread
   * is told the main thread is there.
   */
  at(k: number): SpecReadAhead | undefined {
    Atomics.store(this.progress, MAIN_AT, k);
    Atomics.notify(this.progress, MAIN_AT);
    for (const j of this.batches.keys()) if (j < k) this.batches.delete(j);
    if (this.claims.claim(k, MAIN_THREAD)) return undefined;
    let found = this.batches.get(k);
    this.batches.delete(k);
    if (!found) this.waitUntilSent(k);
    // The batches come in order of k: the one for k is the next in the port.
    if (!found && this.sent >= k) {
      for (let m = workerThreads().receiveMessageOnPort(this.port); m; m = workerThreads().receiveMessageOnPort(this.port)) {
        const batch = m.message as ReadAheadBatch;
        if (batch.k === k) found = batch;
        else if (batch.k > k) this.batches.set(batch.k, batch);
        if (batch.k >= k) break;
      }
    }
    if (!found) return undefined;
    const files = new Map<string, FileReadAhead>();
    found.paths.forEach((path, i) => files.set(path, { text: found.texts[i], size: found.stamps[3 * i], mtimeMs: found.stamps[3 * i + 1], ctimeMs: found.stamps[3 * i + 2] }));
    return { files, folders: new Map(found.folders.map((f) => [f.path, f])) };
  }

  /** The last spec the thread has sent (-1 before the first). */
  get sent(): number {
    return Atomics.load(this.progress, SENT);
  }

  /** How many specs the thread has read. */
  get specsRead(): number {
    return Atomics.load(this.progress, READ);
  }

  private waitUntilSent(k: number): void {
    const deadline = performance.now() + WAIT_MS;
    for (let sent = this.sent; sent < k; sent = this.sent) {
      const left = deadline - performance.now();
      if (left <= 0 || Atomics.load(this.progress, DONE) !== 0) return;
      Atomics.wait(this.progress, SENT, sent, left);
    }
  }

  /** Nothing more is needed: the thread stops reading and ends. */
  stop(): void {
    Atomics.store(this.progress, DONE, 1);
    Atomics.notify(this.progress, MAIN_AT);
    this.port.close();
    void this.worker.terminate();
  }
}
