import { basename } from 'node:path';
import * as vscode from 'vscode';
import { LoomRepository } from '../../core/repository/loomRepository';
import type { InspectionEvent } from 'xstate';
import { describeInspection } from '../../core/pipeline/machineInspection';
import type { SpecEvaluation } from '../../core/repository/specEvaluation';
import { lookAtSpec, type LookFailure } from '../../core/repository/specLook';
import type { SpecLookRequest } from '../../core/repository/specLookProtocol';
import { lookInWorker, type SpecLookRun } from '../../core/repository/specLooks';
import type { EvaluationCache } from '../../core/specdir/evaluationCache';
import { findSpecDirs } from '../../core/specdir/loadSpec';
import type { CacheCounts, SpecCache } from '../../core/specdir/specCache';
import { displayLanguage } from '../../core/messages';
import { Disposable, toDisposable } from '../lifecycle';
import { SpecEntries, type FolderChange, type SpecEntry } from './specEntries';
import { FolderWatcher, RESCAN } from './folderWatcher';
import { nextTick, TimeSlice } from './timeSlice';
import type { ComponentLog } from '../log';

export type { FolderChange, SpecEntry } from './specEntries';

/** How the look at every spec runs in a worker process: the caches it reads and writes, if any. */
export interface SpecLooks {
  cache?: SpecLookRequest['cache'];
  /** Where V8's code cache of the worker's bundle is kept (the extension's storage). */
  codeCacheDir?: string;
}

/** One look at a spec in full, for the views that list every spec (the Problems panel). */
export interface CheckedSpec {
  dir: string;
  folder: vscode.WorkspaceFolder;
  evaluation: SpecEvaluation;
}

/** More rows than a side bar shows: the first paint waits for these only, whatever the number of specs. */
const FIRST_ROWS = 60;
/**
 * The most specs this thread looks at itself once it has taken the kept looks (takeLeftLooks):
 * after a reload, what is left is what changed meanwhile (a checkout of another branch: forty
 * specs, say), a few hundred milliseconds of work here, which the worker, at the lowest priority
 * while the window starts, got to seconds later. The first look at a thousand stays in the worker,
 * which is started once more specs than this were found not kept.
 */
const HOST_LOOKS_AT_MOST = 50;

/** What the look found (the worker, or the host from the evaluation cache): the specs looked at, and their results until they may be handed on (`apply`). */
interface LookFound {
  looked: Set<string>;
  waiting: [string, SpecEvaluation][];
  apply?: (dir: string, evaluation: SpecEvaluation) => void;
}

/** How the look's worker ended. */
type LookOutcome = Awaited<SpecLookRun['finished']>;

/**
 * A look at every spec: what it found so far; its worker, once started (startWorker), and whether
 * that worker is done; and `rest`, which resolves once every spec is looked at or left to `check`:
 * to the worker's outcome when it was waited for, undefined when the host's thread looked at the
 * rest itself or the worker could not start.
 */
interface Look {
  found: LookFound;
  worker?: SpecLookRun;
  workerDone: boolean;
  rest: Promise<LookOutcome | undefined>;
}

/** A spec's look, from the worker or the cache: handed on now if `check` has begun handing on, else kept until then. */
function handOn(found: LookFound, dir: string, evaluation: SpecEvaluation): void {
  found.looked.add(dir);
  if (found.apply) found.apply(dir, evaluation);
  else found.waiting.push([dir, evaluation]);
}

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

/**
 * The specs of one workspace folder: one LoomRepository, its entries (SpecEntries), and its
 * watcher with one debounce for the folder (FolderWatcher), so that a burst of writes reloads
 * each spec it touched once.
 */
export class FolderSpecs extends Disposable {
  readonly repository: LoomRepository;
  private readonly entries: SpecEntries;
  private summarizing?: Promise<void>;
  private markFirstRows!: () => void;
  /** Resolves once the newest FIRST_ROWS specs have their rows (or all of them, when fewer). */
  readonly firstRows = new Promise<void>((resolve) => (this.markFirstRows = resolve));
  private readonly watcher: FolderWatcher;
  private checking?: Promise<void>;

  /** Told of a spec only summarized so far that was read in full on demand (by `get`). */
  onReadInFull?: (entry: SpecEntry) => void;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    readonly specRoots: readonly string[],
    debounceMs: () => number,
    private readonly log: ComponentLog,
    onChange: (change: FolderChange) => void,
    /** `loom.debug.inspectMachines`, read at each event so that switching it takes effect at once. */
    inspectMachines: () => boolean = () => false,
    /** Parses of unchanged files (parses), and the parse each list row needs (summaries). */
    caches: { parses?: SpecCache; summaries?: SpecCache } = {},
    /** Each spec's last look (its Problems entries, group and stale marks), kept while what it read is unchanged. */
    private readonly evaluations?: EvaluationCache<SpecEvaluation>,
    /** Look at the specs in a worker process, with these caches (the extension host; tests may look here). */
    private readonly looks?: SpecLooks,
  ) {
    super();
    const inspect = (event: InspectionEvent, specDir: string) => {
      if (!inspectMachines()) return;
      const line = describeInspection(specDir, event);
      if (line) this.log.info(`machine ${line}`);
    };
    // The extension host never blocks waiting for another process's lock: it reports the holder.
    this.repository = new LoomRepository(folder.uri.fsPath, { specRoots, pipeline: { inspect, lockWaitMs: 0 }, cache: caches.parses, summaryCache: caches.summaries });
    const entries = (this.entries = this._register(new SpecEntries(folder, this.repository, log, onChange, evaluations)));
    this.watcher = this._register(
      new FolderWatcher({
        folder,
        root: this.root,
        specRoots,
        specDirOf: (path) => this.specDirOf(path),
        seenByLastRead: (dir, path) => entries.seenByLastRead(dir, path),
        debounceMs,
      }),
    );
    this._register(this.watcher.onDidSettle((keys) => (keys.includes(RESCAN) ? entries.rescan() : keys.forEach((dir) => entries.reload(dir, true)))));
  }

  get root(): string {
    return this.repository.root;
  }

  /**
   * Reads what the first rows of the tree need of every spec (its listing and pipeline.state.json),
   * a batch at a time so typing is never blocked. Cheap: a spec read in full later replaces its row.
   * Once the newest FIRST_ROWS are read, the rest waits for `afterFirstRows` (their paint); with
   * fewer specs, the end of the reading waits for it.
   */
  loadSummaries(afterFirstRows: () => Promise<void> = () => Promise.resolve()): Promise<void> {
    this.summarizing ??= (async () => {
      await nextTick();
      const started = Date.now();
      const slice = new TimeSlice();
      // Newest first, as the list shows them: the top of the list can be drawn before the rest is read.
      // (findSpecDirs leaves out hidden folders.)
      const dirs = findSpecDirs(this.root, this.specRoots).reverse();
      let read = 0;
      let paused: Promise<void> | undefined;
      const firstRowsRead = () => {
        this.markFirstRows();
        // The look begins with the rest of the rows: it needs the listing, not the rows.
        return (paused ??= afterFirstRows().then(() => this.beginLook(dirs)));
      };
      try {
        for (const dir of dirs) {
          if (this.isDisposed) return;
          if (read++ === FIRST_ROWS) await firstRowsRead();
          if (!this.entries.summarize(dir)) continue;
          if (slice.due()) await slice.yield();
        }
      } finally {
        this.markFirstRows();
      }
      this.log.info(`${this.folder.name}: ${this.entries.summaryCount} spec row(s) read in ${Date.now() - started} ms`);
      // Fewer specs than the first rows: what follows the reading (the look, the panels) waits for their paint too.
      await firstRowsRead();
    })();
    return this.summarizing;
  }

  /**
   * Looks at each spec that is only summarized, one at a time, and hands what it found to `visit`
   * (the Problems panel publishes its problems): the row keeps what the list shows of it (its
   * group and stale marks), not the spec's parsed files. A spec whose last look is in the
   * evaluation cache, and none of whose files that look read changed, is not read at all; the
   * others are read in full (through the parse cache), evaluated and let go again. A thousand
   * specs are never held in full at once. With `looks`, the look begins with the rest of the rows
   * (by `loadSummaries`, or now): this thread takes the looks kept in the evaluation cache
   * (takeKeptLooks) and a worker process reads the specs they leave, unless they are a reload's
   * few changed ones (takeLeftLooks); what they find is handed on once `after` resolves
   * (a moment after the first rows are painted): reading the specs neither keeps this thread busy
   * nor leaves their garbage, or the reader's heap, in the extension host's memory. What the worker
   * leaves (a spec it stopped on, one with a file too large for it, all the rest if it cannot
   * start) is looked at here.
   */
  check(visit: (checked: CheckedSpec) => void, after: Promise<void> = Promise.resolve()): Promise<void> {
    this.checking ??= (async () => {
      await nextTick();
      const started = Date.now();
      const dirs = this.entries.summarized();
      let checked = 0;
      const apply = (dir: string, evaluation: SpecEvaluation) => {
        // Read in full meanwhile (expanded, shown, changed), or about to be: that read publishes it.
        if (this.isDisposed || !this.entries.isSummarized(dir) || this.watcher.isWaiting(dir)) return;
        visit({ dir, folder: this.folder, evaluation });
        this.entries.looked(dir, evaluation);
        checked++;
      };
      let looked = new Set<string>();
      if (this.looks) looked = await this.finishLook(dirs, apply, after);
      else await after;
      // What this thread's evaluation cache counted since the look began: the looks it took from
      // the cache beside the worker, and the specs the worker left.
      const before = this.countsAtLook ?? { ...this.evaluations?.counts };
      const slice = new TimeSlice();
      for (const dir of dirs) {
        if (this.isDisposed) return;
        if (!this.leftToLook(dir, looked)) continue;
        try {
          apply(dir, lookAtSpec(this.repository, dir, displayLanguage(), this.evaluations, this.lookFailed));
        } catch (e) {
          this.log.warn(`${dir}: could not be read (${(e as Error).message})`);
        }
        if (slice.due()) await slice.yield();
      }
      // The worker's counts and this thread's, for the specs each looked at.
      const own = this.evaluations?.counts;
      const worker = this.lookCounts.evaluations;
      const reused = own ? ` (${(worker?.hits ?? 0) + own.hits - (before.hits ?? 0)} from the evaluation cache, ${(worker?.misses ?? 0) + own.misses - (before.misses ?? 0)} evaluated)` : '';
      const where = `${this.lookedInWorker ? `, ${this.lookedInWorker} by the look's worker` : ''}${this.lookedFromCache ? `, ${this.lookedFromCache} taken from the evaluation cache here` : ''}${this.lookedHere ? `, ${this.lookedHere} changed one(s) looked at here` : ''}`;
      this.log.info(`${this.folder.name}: ${checked} spec(s) checked in ${Date.now() - started} ms${where}${reused}`);
    })();
    return this.checking;
  }

  /** What the look's worker counted of the caches (the extension's own counts do not see its reads). */
  lookCounts: { parses?: CacheCounts; evaluations?: CacheCounts } = {};
  /** Specs the look's worker looked at (the log and the tests tell from it where the look ran). */
  lookedInWorker = 0;

  private readonly lookFailed: LookFailure = (specDir, part, e) => this.log.error(`${specDir}: ${part === 'validators' ? 'the validators of its stage' : 'diagnostics'} failed`, e);

  /** The look, from `beginLook` until `check` takes it. */
  private look?: Look;
  private lookCannotStart = false;
  /** The look's worker's timings and process, for the benchmarks and the tests. */
  readonly lookTimings: LookTimings = {};

  /**
   * Begins the look at `dirs` (once: later calls do nothing): this thread takes the looks kept in
   * the evaluation cache, and the worker is started only for what they leave, when that is more
   * than this thread looks at itself: a reload whose few changed specs this thread looks at never
   * starts a process that would take a core from the window's start. What is found waits until
   * `check` hands it on. Without `looks` (tests, the CLI) the look runs in `check`, here.
   */
  private beginLook(dirs: readonly string[]): void {
    if (!this.looks || this.look || this.isDisposed) return;
    const look: Look = { found: { looked: new Set(), waiting: [] }, workerDone: false, rest: Promise.resolve(undefined) };
    this.look = look;
    this.countsAtLook = this.evaluations && { ...this.evaluations.counts };
    look.rest = this.takeKeptLooks(dirs, look);
  }

  /** Starts the look's worker over the specs of `dirs` not looked at yet (once); undefined when it cannot start. */
  private startWorker(dirs: readonly string[], look: Look): SpecLookRun | undefined {
    if (look.worker || this.lookCannotStart || this.isDisposed || !this.looks) return look.worker;
    const { found } = look;
    const left = dirs.filter((dir) => !found.looked.has(dir));
    const starting = performance.now();
    try {
      look.worker = lookInWorker(
        // From the other end of the list than this thread takes kept looks from (takeKeptLooks): the two meet in between.
        { root: this.root, specRoots: this.specRoots, language: displayLanguage(), dirs: left.reverse(), cache: this.looks.cache },
        (m) => {
          if (m.kind === 'look') {
            this.lookTimings.firstAt ??= performance.now();
            // Taken from the evaluation cache here before the worker was told to pass over it.
            if (found.looked.has(m.dir)) return;
            this.lookedInWorker++;
            handOn(found, m.dir, m.evaluation);
          } else if (m.kind === 'unreadable') {
            found.looked.add(m.dir);
            this.log.warn(`${m.dir}: could not be read (${m.message})`);
          } else if (m.kind === 'failed') {
            this.lookFailed(m.specDir, m.part, Object.assign(new Error(m.message), { stack: m.stack }));
          } else if (m.kind === 'abandoned') {
            // Not among `looked` either: this thread looks at it; a new worker goes on with the rest.
            this.log.warn(`${m.dir}: the look's worker stopped on it (${m.message}): it is looked at here`);
          } else if (m.kind === 'tooLarge') {
            // Not among `looked`: this thread looks at it once the worker is done.
            this.log.info(`${m.file} is ${(m.bytes / 2 ** 20).toFixed(1)} MB: its spec is looked at here, not by the look's worker`);
          } else {
            this.lookCounts = { parses: m.parses, evaluations: m.evaluations };
            Object.assign(this.lookTimings, { pid: m.pid, peakMB: m.peakMB, cpuMs: m.cpuMs, background: m.background });
          }
        },
        { codeCacheDir: this.looks.codeCacheDir },
      );
    } catch (e) {
      this.log.warn(`${this.folder.name}: the look's worker could not start (${(e as Error).message}): looking at the specs here`);
      this.lookCannotStart = true;
      return undefined;
    }
    const run = look.worker;
    this.lookTimings.begunAt = performance.now();
    this.lookTimings.startMs = this.lookTimings.begunAt - starting;
    void run.finished.then(() => {
      look.workerDone = true;
      this.lookTimings.doneAt = performance.now();
    });
    this._register(toDisposable(() => run.stop()));
    return run;
  }

  /** Specs whose looks this thread took from the evaluation cache while the worker ran. */
  lookedFromCache = 0;
  /** This thread's evaluation cache counts when the look began. */
  private countsAtLook?: { hits: number; misses: number };

  /**
   * While the window paints, each spec whose last look is kept in the evaluation cache, with
   * everything it read unchanged, is taken from it here, a slice at a time, newest first (the top
   * of the list). After a reload that is nearly every spec, and what is left is the ones that
   * changed (takeLeftLooks). Once more specs were not kept than this thread looks at itself (a
   * first look, a checkout of another branch), the worker is started from the other end of the
   * list, at the lowest priority, and told to pass over each spec taken here. Resolves as `rest`.
   */
  private async takeKeptLooks(dirs: readonly string[], look: Look): Promise<LookOutcome | undefined> {
    const { found } = look;
    const evaluations = this.evaluations;
    let kept = 0;
    if (evaluations) {
      const language = displayLanguage();
      const slice = new TimeSlice();
      let taken: string[] = [];
      let notKept = 0;
      for (const dir of dirs) {
        if (this.isDisposed) return undefined;
        if (look.workerDone) break;
        if (found.looked.has(dir)) continue;
        let evaluation: SpecEvaluation | undefined;
        try {
          evaluation = evaluations.stored(dir, language);
        } catch {
          evaluation = undefined; // looked at in full, by the worker or here
        }
        if (evaluation) {
          this.lookedFromCache++;
          kept++;
          handOn(found, dir, evaluation);
          taken.push(dir);
        } else if (++notKept > HOST_LOOKS_AT_MOST) this.startWorker(dirs, look);
        if (slice.due()) {
          look.worker?.skip(taken);
          taken = [];
          await slice.yield();
        }
      }
      look.worker?.skip(taken);
      this.lookTimings.keptAt = performance.now();
    }
    if (await this.takeLeftLooks(dirs, look, kept)) return undefined;
    // Undefined when it cannot start: `check` looks at what is left here.
    return this.startWorker(dirs, look)?.finished;
  }

  /**
   * Whether a spec still waits for its look: not looked at yet, and only summarized. A spec read
   * in full meanwhile, or about to be, is published by that read.
   */
  private leftToLook(dir: string, looked: ReadonlySet<string>): boolean {
    return !looked.has(dir) && this.entries.isSummarized(dir) && !this.watcher.isWaiting(dir);
  }

  /** Specs this thread looked at itself because the worker had not got to them (takeLeftLooks). */
  lookedHere = 0;

  /**
   * What the kept looks left and the worker has not looked at, looked at here, newest first, when
   * it is a reload's few changed specs: at most HOST_LOOKS_AT_MOST, and fewer than the looks
   * this thread took from the cache (a first look, where nothing was kept, is the worker's). A
   * worker already started is told to pass over each before it is looked at; one it is looking at
   * already is looked at twice, and its result not used. Resolves true once every one is looked at.
   */
  private async takeLeftLooks(dirs: readonly string[], look: Look, kept: number): Promise<boolean> {
    const { found } = look;
    const left = dirs.filter((dir) => this.leftToLook(dir, found.looked));
    if (left.length > HOST_LOOKS_AT_MOST || left.length >= kept) return left.length === 0;
    const slice = new TimeSlice();
    for (const dir of left) {
      if (this.isDisposed || look.workerDone) return false;
      if (!this.leftToLook(dir, found.looked)) continue;
      look.worker?.skip([dir]);
      try {
        const evaluation = lookAtSpec(this.repository, dir, displayLanguage(), this.evaluations, this.lookFailed);
        this.lookedHere++;
        handOn(found, dir, evaluation);
      } catch (e) {
        found.looked.add(dir);
        this.log.warn(`${dir}: could not be read (${(e as Error).message})`);
      }
      if (slice.due()) await slice.yield();
    }
    return true;
  }

  /**
   * The look's part of `check`: the specs looked at (or found unreadable), each handed to `apply`
   * once `after` resolves. Resolves when every spec is looked at or the worker is done or has
   * stopped: a worker this thread no longer waits for only passes over what is left of its list,
   * and ends on its own.
   */
  private async finishLook(dirs: readonly string[], apply: (dir: string, evaluation: SpecEvaluation) => void, after: Promise<void>): Promise<Set<string>> {
    // Not begun with the rows (no view painted them, or the listing was empty): begun now.
    this.beginLook(dirs);
    const look = this.look;
    await after;
    if (!look) return new Set();
    const { found } = look;
    const slice = new TimeSlice();
    // Handed on a slice at a time; what comes in meanwhile joins the queue, until it is empty.
    while (found.waiting.length && !this.isDisposed) {
      const [dir, evaluation] = found.waiting.shift()!;
      apply(dir, evaluation);
      if (slice.due()) await slice.yield();
    }
    found.apply = apply;
    const outcome = await look.rest;
    if (outcome && !outcome.completed && outcome.error && !this.isDisposed)
      this.log.warn(`${this.folder.name}: the look's worker stopped after ${found.looked.size} of ${dirs.length} spec(s) (${outcome.error.message}): looking at the rest here`);
    return found.looked;
  }

  /** Every spec read in full (a command that lists them all asked): the ones only summarized are read now. */
  allInFull(): SpecEntry[] {
    for (const dir of this.entries.summarized()) this.get(dir);
    return this.all();
  }

  /** The specs read in full. */
  all(): SpecEntry[] {
    return this.entries.all();
  }

  /** Every spec as its list row needs it: read in full, or only summarized so far. */
  rows(): SpecEntry[] {
    return this.entries.rows();
  }

  /** A spec read in full: one only summarized so far is read now (it is being expanded, shown or changed). */
  get(dir: string): SpecEntry | undefined {
    const found = this.entries.inFull(dir);
    if (found || !this.entries.isSummarized(dir)) return found;
    // Reading a spec in full is not a change of it: the row already showed what its files say
    // (or the check pass will redraw it); the Problems panel takes what this read found. Unless
    // its files changed and the read was waiting for the folder to go quiet: that is reported.
    const changed = this.watcher.isWaiting(dir);
    this.reloadNow(dir, changed);
    const read = this.entries.inFull(dir);
    if (read && !changed) this.onReadInFull?.(read);
    return read;
  }

  /** The spec's row as it stands, without reading the spec in full. */
  peek(dir: string): SpecEntry | undefined {
    return this.entries.peek(dir);
  }

  /** Whether a change of a spec waits for the folder to go quiet. */
  get pending(): boolean {
    return this.watcher.pending;
  }

  /** Resolves once no change waits for the folder to go quiet. */
  whenQuiet(): Promise<void> {
    return this.watcher.whenQuiet();
  }

  /** The spec directory a path belongs to; hidden folders (`specs/.drafts`) are not specs, as for loom. */
  specDirOf(path: string): string | undefined {
    const dir = this.repository.specDirOf(path);
    return dir && !basename(dir).startsWith('.') ? dir : undefined;
  }

  /** A file of the folder changed: its spec is reloaded once the debounce ends (the workflow: everything). */
  fileChanged(path: string): void {
    this.watcher.fileChanged(path);
  }

  /** Reloads one spec now (after our own writes, or when someone needs it in full) and reports it. */
  reloadNow(dir: string, report = true): void {
    this.watcher.readNow(dir);
    this.entries.reload(dir, report);
  }

  /** Reads the workflow and every spec again: workflow.yaml changed, a root moved, or the user asked. */
  rescan(): void {
    this.entries.rescan();
  }
}
