import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { WORKFLOW_FILE } from '../files/workflow';
import { WORKSPACE_SETTINGS_FILE } from '../pipeline/teamRules';
import { displayLanguage } from '../messages';
import { ReadAhead } from '../fs/readAhead';
import { withReadAhead } from '../fs/readRecorder';
import { extraInputsAt, type EvaluationCache } from '../specdir/evaluationCache';
import { FOLDERS_LISTED, FOLDERS_READ, findSpecDirs } from '../specdir/loadSpec';
import { RUN_LOCK_FILE } from '../store/runLock';
import { startBundledWorker } from '../threads/bundledWorker';
import { ClaimQueue } from '../threads/claimQueue';
import type { LoomRepository } from './loomRepository';
import type { SpecStatus } from './specPipeline';
import type { StatusScanMessage, StatusScanRequest } from './statusScanProtocol';

/** The main thread's owner id in the claim queue; helpers are 2, 3, … */
const MAIN = 1;
/** Helper threads at most: past a few, the disk and the main thread's own share are the limit. */
const MAX_HELPERS = 3;
/**
 * Specs to evaluate per helper thread, at least: a helper's start (a thread, its bundle compiled
 * when no code cache is there yet) costs about what a hundred specs do on the main thread.
 */
const SPECS_PER_HELPER = 200;
/** Specs to read, at least, for a read-ahead thread: it starts in about the time ten specs take. */
const SPECS_TO_READ_AHEAD = 100;

export interface StatusScanOptions {
  /** Helper threads at most (default: idleHelpers, at most MAX_HELPERS). */
  helpers?: number;
  /** Specs to evaluate per helper, at least (SPECS_PER_HELPER). */
  specsPerHelper?: number;
  /** Whether a thread reads the files ahead of this one when no helper runs (default: with two cores or more and SPECS_TO_READ_AHEAD specs to read). */
  readAhead?: boolean;
}

/** One spec's status, read afresh. A spec with a run lock depends on more than files: whether its holder is alive. */
export function specStatus(repository: LoomRepository, dir: string, dependsOnMore: () => void): SpecStatus {
  const spec = repository.readDetached(dir);
  try {
    if (spec.snapshot.files.has(RUN_LOCK_FILE)) dependsOnMore();
    return spec.status();
  } finally {
    spec.dispose();
  }
}

/**
 * Every spec's status (`loom-vscode status`), each kept in `statuses` with everything it read and
 * used again while that is unchanged, in the same display language (its unmet conditions are
 * sentences): an unchanged spec costs the stat of its files, not their parsing and its guards.
 * The specs whose status is not kept (all of them on a first run) are shared out between this
 * thread and helper threads when there are many and cores nobody else uses (idleHelpers): a first
 * run on a thousand specs spends most of its time reading and parsing fifty thousand files.
 * The statuses are in the order of the spec directories, whichever thread evaluated them.
 */
export async function scanStatuses(repository: LoomRepository, statuses: EvaluationCache<SpecStatus> | undefined, options: StatusScanOptions = {}): Promise<SpecStatus[]> {
  const language = displayLanguage();
  const dirs = findSpecDirs(repository.root, repository.specRoots);
  const results = new Array<SpecStatus>(dirs.length);
  /** The specs to evaluate, and where each one's status goes in `results`. */
  const unknown: string[] = [];
  const places: number[] = [];
  dirs.forEach((dir, i) => {
    const kept = statuses?.stored(dir, language);
    if (kept !== undefined) results[i] = kept;
    else {
      unknown.push(dir);
      places.push(i);
    }
  });
  // Read once for every spec: the workflow, and the team's rules the guards apply; stat-ed once too.
  const extraInputs = extraInputsAt([join(repository.root, WORKFLOW_FILE), join(repository.root, WORKSPACE_SETTINGS_FILE)]);
  const helpers = helperCount(unknown.length, options);
  // With no helper, the other core reads the files while this thread parses them (ReadAhead).
  const readAhead = helpers === 0 && (options.readAhead ?? (availableParallelism() > 1 && unknown.length >= SPECS_TO_READ_AHEAD)) ? ReadAhead.start(unknown, FOLDERS_READ, FOLDERS_LISTED) : undefined;
  const here = (j: number) => {
    const dir = unknown[j];
    results[places[j]] = withReadAhead(readAhead?.at(j), () =>
      statuses ? statuses.evaluate(dir, language, (dependsOnMore) => specStatus(repository, dir, dependsOnMore), extraInputs) : specStatus(repository, dir, () => undefined),
    );
  };
  const fromHelper = (j: number, status: SpecStatus, entry: string | undefined) => {
    statuses?.keepEntry(unknown[j], entry);
    results[places[j]] = status;
  };
  const request = { root: repository.root, specRoots: repository.specRoots, language, dirs: unknown, extraInputs: [...extraInputs], cacheVersion: statuses?.version };
  try {
    await evaluateShared(request, here, fromHelper, helpers);
  } finally {
    readAhead?.stop();
  }
  return results;
}

/**
 * Helper threads for the cores nobody else is using: the machine's cores, fewer the busy ones
 * (the load average, rounded), fewer the main thread's. A helper is a second copy of everything
 * the main thread has made by then (its bundle compiled, its schemas built, its hot code compiled
 * again, a heap of its own): on two cores with 1,000 specs it used 1.1–1.6 s more CPU than the main
 * thread alone, for the same time when the machine was idle and twice the time with other work
 * running (load average 7; docs/performance.md). Where the load average is unknown (0 on
 * Windows), every core counts as idle.
 */
export function idleHelpers(cores: number = availableParallelism(), load: number = loadavg()[0]): number {
  return Math.max(0, Math.min(cores - Math.round(load) - 1, MAX_HELPERS));
}

function helperCount(specs: number, options: StatusScanOptions): number {
  const most = options.helpers ?? idleHelpers();
  return Math.max(0, Math.min(most, Math.floor(specs / (options.specsPerHelper ?? SPECS_PER_HELPER))));
}

/**
 * Evaluates `request.dirs` on this thread (`here`) and on `helpers` helper threads, whose answers
 * go to `fromHelper`. Each spec is claimed by exactly one thread (ClaimQueue). This thread claims what
 * no helper took yet, and evaluates itself what a helper failed on or left when it stopped: the
 * outcome is the one a scan on this thread alone has, errors included.
 */
async function evaluateShared(
  request: Omit<StatusScanRequest, 'claims' | 'owner'>,
  here: (j: number) => void,
  fromHelper: (j: number, status: SpecStatus, entry: string | undefined) => void,
  helpers: number,
): Promise<void> {
  const claims = ClaimQueue.create(request.dirs.length);
  const answered = new Uint8Array(request.dirs.length);
  const running = new Set<number>();
  let changed: () => void = () => undefined;
  const workers: Worker[] = [];
  for (let h = 0; h < helpers; h++) {
    const owner = MAIN + 1 + h;
    try {
      const worker = startBundledWorker('statusScanWorker', __dirname, { ...request, claims: claims.buffer, owner } satisfies StatusScanRequest, {});
      running.add(owner);
      worker.on('message', (m: StatusScanMessage) => {
        // A failure is met again here, where it is reported as a scan on one thread reports it.
        if ('status' in m) {
          fromHelper(m.i, m.status, m.entry);
          answered[m.i] = 1;
        }
        changed();
      });
      const stopped = () => {
        running.delete(owner);
        changed();
      };
      worker.once('exit', stopped);
      worker.once('error', stopped);
      workers.push(worker);
    } catch {
      // No helper: this thread evaluates every spec.
    }
  }
  try {
    for (let j = claims.next(MAIN); j !== undefined; j = claims.next(MAIN)) here(j);
    for (let j = 0; j < request.dirs.length; j++) if (claims.claim(j, MAIN)) here(j);
    // The helpers' answers still on their way: until each claimed spec is answered, or its helper stopped.
    const waiting = () => {
      for (let j = 0; j < claims.size; j++) if (!answered[j] && running.has(claims.ownerOf(j))) return true;
      return false;
    };
    while (waiting()) await new Promise<void>((resolve) => (changed = resolve));
    for (let j = 0; j < request.dirs.length; j++) if (!answered[j] && claims.ownerOf(j) !== MAIN) here(j);
  } finally {
    // Done, or still starting with nothing left to claim.
    for (const worker of workers) void worker.terminate();
  }
}
