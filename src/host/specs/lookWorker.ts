import { type LookFailure, type SpecLookRequest, lookInWorker, type SpecLookRun } from '../../core/port/looks';
import type { CacheCounts } from '../../core/port/specCache';
import type { ComponentLog } from '../log';
import type { FoundLooks } from './foundLooks';

/**
 * When the look's worker began (and how long starting its process kept the host's thread), sent
 * its first result and was done, and when this thread had taken the kept looks (performance.now());
 * its process: its id, peak memory in MB, the CPU time it used in ms and its priority at the end.
 */
export interface LookTimings {
  begunAt?: number;
  startMs?: number;
  firstAt?: number;
  doneAt?: number;
  keptAt?: number;
  pid?: number;
  peakMB?: number;
  cpuMs?: number;
  /** Whether it ran at the lowest priority. */
  background?: boolean;
}

/** How the look's worker ended. */
export type LookOutcome = Awaited<SpecLookRun['finished']>;

/**
 * The worker process that looks at specs for the extension host (specLooks.ts): what it finds goes
 * to `found`, unless this thread took that spec's look from the evaluation cache first; its
 * timings and process go to `timings`. Throws when it cannot start.
 */
export class LookWorker {
  private readonly run: SpecLookRun;
  /** Specs it looked at (the log and the tests tell from it where the look ran). */
  looked = 0;
  /** What it counted of its caches (the extension's own counts do not see its reads). */
  counts: { parses?: CacheCounts; evaluations?: CacheCounts } = {};
  /** Whether it has ended (done, stopped or failed). */
  done = false;

  constructor(request: SpecLookRequest, found: FoundLooks, timings: LookTimings, log: ComponentLog, lookFailed: LookFailure, codeCacheDir?: string) {
    const starting = performance.now();
    this.run = lookInWorker(
      request,
      (m) => {
        if (m.kind === 'look') {
          timings.firstAt ??= performance.now();
          // Taken from the evaluation cache here before the worker was told to pass over it.
          if (found.looked.has(m.dir)) return;
          this.looked++;
          found.add(m.dir, m.evaluation);
        } else if (m.kind === 'unreadable') {
          found.unreadable(m.dir);
          log.warn(`${m.dir}: could not be read (${m.message})`);
        } else if (m.kind === 'failed') {
          lookFailed(m.specDir, m.part, Object.assign(new Error(m.message), { stack: m.stack }));
        } else if (m.kind === 'abandoned') {
          // Not among `looked` either: this thread looks at it; a new worker goes on with the rest.
          log.warn(`${m.dir}: the look's worker stopped on it (${m.message}): it is looked at here`);
        } else if (m.kind === 'tooLarge') {
          // Not among `looked`: this thread looks at it once the worker is done.
          log.info(`${m.file} is ${(m.bytes / 2 ** 20).toFixed(1)} MB: its spec is looked at here, not by the look's worker`);
        } else {
          this.counts = { parses: m.parses, evaluations: m.evaluations };
          Object.assign(timings, { pid: m.pid, peakMB: m.peakMB, cpuMs: m.cpuMs, background: m.background });
        }
      },
      { codeCacheDir },
    );
    timings.begunAt = performance.now();
    timings.startMs = timings.begunAt - starting;
    void this.run.finished.then(() => {
      this.done = true;
      timings.doneAt = performance.now();
    });
  }

  /** Resolves with how it ended. */
  get finished(): Promise<LookOutcome> {
    return this.run.finished;
  }

  /** Pass over these specs: this thread took their looks. */
  skip(dirs: readonly string[]): void {
    this.run.skip(dirs);
  }

  dispose(): void {
    this.run.stop();
  }
}
