import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { InspectionEvent } from 'xstate';
import { LoomRepository, findSpecDirs } from '../../core/port/specs';
import { type SpecEvaluation, describeInspection } from '../../core/port/views';
import type { EvaluationCache, CacheCounts, SpecCache } from '../../core/port/specCache';
import { when } from '../events';
import { Disposable } from '../lifecycle';
import type { ComponentLog } from '../log';
import { BackgroundLook, type CheckedSpec, type SpecLooks } from './backgroundLook';
import { FolderWatcher, RESCAN } from './folderWatcher';
import type { LookTimings } from './lookWorker';
import { SpecEntries, type FolderChange, type SpecEntry } from './specEntries';
import { nextTick, TimeSlice } from './timeSlice';

export type { CheckedSpec, SpecLooks } from './backgroundLook';
export type { LookTimings } from './lookWorker';
export type { FolderChange, SpecEntry } from './specEntries';

/** More rows than a side bar shows: the first paint waits for these only, whatever the number of specs. */
const FIRST_ROWS = 60;

/**
 * The specs of one workspace folder: one LoomRepository, and the services that keep its specs
 * for the views: the entries (SpecEntries), the watcher and its debounce (FolderWatcher), and the
 * look at every spec behind the first rows (BackgroundLook). This class decides when each reads:
 * the rows newest first, a spec in full when someone needs it, again when the folder goes quiet.
 */
export class FolderSpecs extends Disposable {
  readonly repository: LoomRepository;
  private readonly entries: SpecEntries;
  private readonly watcher: FolderWatcher;
  private readonly look: BackgroundLook;
  private summarizing?: Promise<void>;
  private firstRowsRead = false;
  private readonly _onDidReadFirstRows = this._register(new vscode.EventEmitter<void>());

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
    evaluations?: EvaluationCache<SpecEvaluation>,
    /** Look at the specs in a worker process, with these caches (the extension host; tests may look here). */
    looks?: SpecLooks,
  ) {
    super();
    const inspect = (event: InspectionEvent, specDir: string) => {
      if (!inspectMachines()) return;
      const line = describeInspection(specDir, event);
      if (line) this.log.info(`machine ${line}`);
    };
    // The extension host never blocks waiting for another process's lock: it reports the holder.
    // The team's rules as VS Code reads them for this folder (its .vscode/settings.json among them), read at each change of a spec.
    const rules = () => {
      const settings = vscode.workspace.getConfiguration('loom', folder.uri);
      return { blockOnOpenThreads: settings.get<boolean>('review.blockOnOpenThreads') === true, requirePerson: settings.get<boolean>('approvals.requirePerson') === true };
    };
    this.repository = new LoomRepository(folder.uri.fsPath, { specRoots, pipeline: { inspect, lockWaitMs: 0 }, cache: caches.parses, summaryCache: caches.summaries, rules });
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
    // The one place a spec the extension keeps is read again for a change it did not make (an
    // editor, loom's CLI, git, a new spec): every request and change of a spec reads what it wrote
    // itself and tells the views through the spec's notification (SpecPipeline.change).
    this._register(this.watcher.onDidSettle((keys) => (keys.includes(RESCAN) ? entries.rescan() : keys.forEach((dir) => entries.reload(dir, true)))));
    const rows = {
      summarized: () => entries.summarized(),
      waitsForLook: (dir: string) => entries.isSummarized(dir) && !this.watcher.isWaiting(dir),
      looked: (dir: string, evaluation: SpecEvaluation) => entries.looked(dir, evaluation),
    };
    // Last, so that its worker is stopped first.
    this.look = this._register(new BackgroundLook({ folder, repository: this.repository, specRoots, rows, log, evaluations, looks }));
  }

  get root(): string {
    return this.repository.root;
  }

  /** Resolves once the newest FIRST_ROWS specs have their rows (or all of them, when fewer). */
  get firstRows(): Promise<void> {
    return when(() => this.firstRowsRead, this._onDidReadFirstRows.event);
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
        return (paused ??= afterFirstRows().then(() => this.look.begin(dirs)));
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

  private markFirstRows(): void {
    if (this.firstRowsRead) return;
    this.firstRowsRead = true;
    this._onDidReadFirstRows.fire();
  }

  /** The one look at each spec only summarized, handed to `visit` once `after` resolves (BackgroundLook.check). */
  check(visit: (checked: CheckedSpec) => void, after: Promise<void> = Promise.resolve()): Promise<void> {
    return this.look.check(visit, after);
  }

  /** What the look's worker counted of the caches (the extension's own counts do not see its reads). */
  get lookCounts(): { parses?: CacheCounts; evaluations?: CacheCounts } {
    return this.look.workerCounts;
  }

  /** Specs the look's worker looked at (the log and the tests tell from it where the look ran). */
  get lookedInWorker(): number {
    return this.look.lookedInWorker;
  }

  /** Specs whose looks this thread took from the evaluation cache while the worker ran. */
  get lookedFromCache(): number {
    return this.look.lookedFromCache;
  }

  /** Specs this thread looked at itself because the worker had not got to them. */
  get lookedHere(): number {
    return this.look.lookedHere;
  }

  /** The look's worker's timings and process, for the benchmarks and the tests. */
  get lookTimings(): LookTimings {
    return this.look.timings;
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
    this.watcher.readNow(dir);
    this.entries.reload(dir, changed);
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

  /** A change of one spec the watcher does not see or must not wait for (FolderWatcher.settleNow): read now, and reported. */
  settleNow(dir: string): void {
    this.watcher.settleNow(dir);
  }

  /** Reads the workflow and every spec again: workflow.yaml changed, a root moved, or the user asked. */
  rescan(): void {
    this.entries.rescan();
  }
}
