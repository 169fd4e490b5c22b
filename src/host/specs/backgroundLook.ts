import type * as vscode from 'vscode';
import type { LoomRepository } from '../../core/port/specs';
import type { SpecEvaluation } from '../../core/port/views';
import { lookAtSpec, type LookFailure, type SpecLookRequest } from '../../core/port/looks';
import type { EvaluationCache, CacheCounts } from '../../core/port/specCache';
import { displayLanguage } from '../../core/port/messages';
import { Disposable } from '../lifecycle';
import type { ComponentLog } from '../log';
import { FoundLooks } from './foundLooks';
import { LookWorker, type LookOutcome, type LookTimings } from './lookWorker';
import { nextTick, TimeSlice } from './timeSlice';

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

/** The rows the look is for: the folder's specs only summarized so far. */
export interface LookedRows {
  /** The specs only summarized so far, newest first. */
  summarized(): string[];
  /** Whether the spec still waits for its look: only summarized, and no change of it waits to be read (that read publishes it). */
  waitsForLook(dir: string): boolean;
  /** The look found this: the row keeps its group and stale marks. */
  looked(dir: string, evaluation: SpecEvaluation): void;
}

export interface LookedFolder {
  folder: vscode.WorkspaceFolder;
  repository: LoomRepository;
  specRoots: readonly string[];
  rows: LookedRows;
  log: ComponentLog;
  /** Each spec's last look (its Problems entries, group and stale marks), kept while what it read is unchanged. */
  evaluations?: EvaluationCache<SpecEvaluation>;
  /** Look at the specs in a worker process, with these caches (the extension host; tests may look here). */
  looks?: SpecLooks;
}

/**
 * The most specs this thread looks at itself once it has taken the kept looks (takeLeftLooks):
 * after a reload, what is left is what changed meanwhile (a checkout of another branch: forty
 * specs, say), a few hundred milliseconds of work here, which the worker, at the lowest priority
 * while the window starts, got to seconds later. The first look at a thousand stays in the worker,
 * which is started once more specs than this were found not kept.
 */
const HOST_LOOKS_AT_MOST = 50;

/**
 * A look at every spec: what it found so far; its worker, once started (startWorker); and `rest`,
 * which resolves once every spec is looked at or left to `check`: to the worker's outcome when it
 * was waited for, undefined when the host's thread looked at the rest itself or the worker could
 * not start.
 */
interface Look {
  found: FoundLooks;
  worker?: LookWorker;
  rest: Promise<LookOutcome | undefined>;
}

/**
 * The one look at each spec of a folder that is only summarized, behind its first rows: for the
 * Problems panel and the rows' group and stale marks. Where it runs is chosen to keep the window
 * responsive: the looks kept in the evaluation cache are taken on this thread a slice at a time,
 * a reload's few changed specs are looked at here, and a first look at many specs goes to a
 * worker process at the lowest priority.
 */
export class BackgroundLook extends Disposable {
  private look?: Look;
  private checking?: Promise<void>;
  private workerCannotStart = false;
  /** This thread's evaluation cache counts when the look began. */
  private countsAtLook?: { hits: number; misses: number };
  /** Specs whose looks this thread took from the evaluation cache while the worker ran. */
  lookedFromCache = 0;
  /** Specs this thread looked at itself because the worker had not got to them (takeLeftLooks). */
  lookedHere = 0;
  /** The look's worker's timings and process, for the benchmarks and the tests. */
  readonly timings: LookTimings = {};

  constructor(private readonly at: LookedFolder) {
    super();
  }

  /** Specs the look's worker looked at (the log and the tests tell from it where the look ran). */
  get lookedInWorker(): number {
    return this.look?.worker?.looked ?? 0;
  }

  /** What the look's worker counted of the caches (the extension's own counts do not see its reads). */
  get workerCounts(): { parses?: CacheCounts; evaluations?: CacheCounts } {
    return this.look?.worker?.counts ?? {};
  }

  private readonly lookFailed: LookFailure = (specDir, part, e) => this.at.log.error(`${specDir}: ${part === 'validators' ? 'the validators of its stage' : 'diagnostics'} failed`, e);

  /**
   * Begins the look at `dirs` (once: later calls do nothing): this thread takes the looks kept in
   * the evaluation cache, and the worker is started only for what they leave, when that is more
   * than this thread looks at itself: a reload whose few changed specs this thread looks at never
   * starts a process that would take a core from the window's start. What is found waits until
   * `check` hands it on. Without `looks` (tests, the CLI) the look runs in `check`, here.
   */
  begin(dirs: readonly string[]): void {
    if (!this.at.looks || this.look || this.isDisposed) return;
    const look: Look = { found: new FoundLooks(), rest: Promise.resolve(undefined) };
    this.look = look;
    this.countsAtLook = this.at.evaluations && { ...this.at.evaluations.counts };
    look.rest = this.takeKeptLooks(dirs, look);
  }

  /**
   * Looks at each spec that is only summarized, one at a time, and hands what it found to `visit`
   * (the Problems panel publishes its problems): the row keeps what the list shows of it (its
   * group and stale marks), not the spec's parsed files. A spec whose last look is in the
   * evaluation cache, and none of whose files that look read changed, is not read at all; the
   * others are read in full (through the parse cache), evaluated and let go again. A thousand
   * specs are never held in full at once. With `looks`, the look begins with the rest of the rows
   * (`begin`, or now): this thread takes the looks kept in the evaluation cache (takeKeptLooks) and
   * a worker process reads the specs they leave, unless they are a reload's few changed ones
   * (takeLeftLooks); what they find is handed on once `after` resolves (a moment after the first
   * rows are painted): reading the specs neither keeps this thread busy nor leaves their garbage,
   * or the reader's heap, in the extension host's memory. What the worker leaves (a spec it
   * stopped on, one with a file too large for it, all the rest if it cannot start) is looked at here.
   */
  check(visit: (checked: CheckedSpec) => void, after: Promise<void> = Promise.resolve()): Promise<void> {
    this.checking ??= (async () => {
      await nextTick();
      const { folder, repository, rows, evaluations, log } = this.at;
      const started = Date.now();
      const dirs = rows.summarized();
      let checked = 0;
      const apply = (dir: string, evaluation: SpecEvaluation) => {
        // Read in full meanwhile (expanded, shown, changed), or about to be: that read publishes it.
        if (this.isDisposed || !rows.waitsForLook(dir)) return;
        visit({ dir, folder, evaluation });
        rows.looked(dir, evaluation);
        checked++;
      };
      let looked = new Set<string>();
      if (this.at.looks) looked = await this.finishLook(dirs, apply, after);
      else await after;
      // What this thread's evaluation cache counted since the look began: the looks it took from
      // the cache beside the worker, and the specs the worker left.
      const before = this.countsAtLook ?? { ...evaluations?.counts };
      const slice = new TimeSlice();
      for (const dir of dirs) {
        if (this.isDisposed) return;
        if (!this.leftToLook(dir, looked)) continue;
        try {
          apply(dir, lookAtSpec(repository, dir, displayLanguage(), evaluations, this.lookFailed));
        } catch (e) {
          log.warn(`${dir}: could not be read (${(e as Error).message})`);
        }
        if (slice.due()) await slice.yield();
      }
      // The worker's counts and this thread's, for the specs each looked at.
      const own = evaluations?.counts;
      const worker = this.workerCounts.evaluations;
      const reused = own ? ` (${(worker?.hits ?? 0) + own.hits - (before.hits ?? 0)} from the evaluation cache, ${(worker?.misses ?? 0) + own.misses - (before.misses ?? 0)} evaluated)` : '';
      const where = `${this.lookedInWorker ? `, ${this.lookedInWorker} by the look's worker` : ''}${this.lookedFromCache ? `, ${this.lookedFromCache} taken from the evaluation cache here` : ''}${this.lookedHere ? `, ${this.lookedHere} changed one(s) looked at here` : ''}`;
      log.info(`${folder.name}: ${checked} spec(s) checked in ${Date.now() - started} ms${where}${reused}`);
    })();
    return this.checking;
  }

  /** Whether a spec still waits for its look: not looked at yet, and waiting for it (LookedRows). */
  private leftToLook(dir: string, looked: ReadonlySet<string>): boolean {
    return !looked.has(dir) && this.at.rows.waitsForLook(dir);
  }

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
    const evaluations = this.at.evaluations;
    let kept = 0;
    if (evaluations) {
      const language = displayLanguage();
      const slice = new TimeSlice();
      let taken: string[] = [];
      let notKept = 0;
      for (const dir of dirs) {
        if (this.isDisposed) return undefined;
        if (look.worker?.done) break;
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
          found.add(dir, evaluation);
          taken.push(dir);
        } else if (++notKept > HOST_LOOKS_AT_MOST) this.startWorker(dirs, look);
        if (slice.due()) {
          look.worker?.skip(taken);
          taken = [];
          await slice.yield();
        }
      }
      look.worker?.skip(taken);
      this.timings.keptAt = performance.now();
    }
    if (await this.takeLeftLooks(dirs, look, kept)) return undefined;
    // Undefined when it cannot start: `check` looks at what is left here.
    return this.startWorker(dirs, look)?.finished;
  }

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
      if (this.isDisposed || look.worker?.done) return false;
      if (!this.leftToLook(dir, found.looked)) continue;
      look.worker?.skip([dir]);
      try {
        const evaluation = lookAtSpec(this.at.repository, dir, displayLanguage(), this.at.evaluations, this.lookFailed);
        this.lookedHere++;
        found.add(dir, evaluation);
      } catch (e) {
        found.unreadable(dir);
        this.at.log.warn(`${dir}: could not be read (${(e as Error).message})`);
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
    this.begin(dirs);
    const look = this.look;
    await after;
    if (!look) return new Set();
    const { found } = look;
    await found.handOn(apply, () => this.isDisposed);
    const outcome = await look.rest;
    if (outcome && !outcome.completed && outcome.error && !this.isDisposed)
      this.at.log.warn(`${this.at.folder.name}: the look's worker stopped after ${found.looked.size} of ${dirs.length} spec(s) (${outcome.error.message}): looking at the rest here`);
    return found.looked;
  }

  /** Starts the look's worker over the specs of `dirs` not looked at yet (once); undefined when it cannot start. */
  private startWorker(dirs: readonly string[], look: Look): LookWorker | undefined {
    const { looks, repository, specRoots, log, folder } = this.at;
    if (look.worker || this.workerCannotStart || this.isDisposed || !looks) return look.worker;
    const left = dirs.filter((dir) => !look.found.looked.has(dir));
    try {
      look.worker = this._register(
        new LookWorker(
          // From the other end of the list than this thread takes kept looks from (takeKeptLooks): the two meet in between.
          { root: repository.root, specRoots, language: displayLanguage(), dirs: left.reverse(), cache: looks.cache },
          look.found,
          this.timings,
          log,
          this.lookFailed,
          looks.codeCacheDir,
        ),
      );
    } catch (e) {
      log.warn(`${folder.name}: the look's worker could not start (${(e as Error).message}): looking at the specs here`);
      this.workerCannotStart = true;
      return undefined;
    }
    return look.worker;
  }
}
