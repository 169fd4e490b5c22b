import { relative, resolve, sep } from 'node:path';
import * as vscode from 'vscode';
import type { LoomConfig } from '../config';
import { delay, filterEvent, when } from '../events';
import { Disposable, toDisposable } from '../lifecycle';
import type { ComponentLog, Log } from '../log';
import { cacheCounts, type CacheCounts } from '../../core/port/specCache';
import { FolderSpecs, type CheckedSpec, type FolderChange, type LookTimings, type SpecEntry } from './folderSpecs';
import type { SpecCaches } from './specCacheStorage';
import { WorktreeWatch } from './worktreeWatch';

export type { CheckedSpec, SpecEntry } from './folderSpecs';

export interface SpecsChangeEvent {
  /** Specs that appeared or changed (absolute directories). */
  changed: string[];
  removed: string[];
  /** The set of folders or the whole list changed: views redraw from the top. */
  all: boolean;
}

const CHECK_AFTER_PAINT_MS = 300;
const CHECK_WITHOUT_VIEW_MS = 2000;
/**
 * Reading the specs while the window starts up makes VS Code ask for the rows late: on 1,000 specs,
 * 0.7–2.5 s after activation, against 0.3–0.5 s while Loom reads nothing (`npm run bench`,
 * tree-first-paint). So the reading goes past the newest rows only when the view asks for its
 * rows, when a command, tool or panel needs the specs, or this long after activation (the view
 * hidden: the status bar's counts).
 */
const START_UNASKED_MS = 3000;
/** The longest the rest of the rows wait for the newest ones to be painted. */
const FIRST_PAINT_WAIT_MS = 1500;

/**
 * The moments of the first reading, each passed once: the newest rows of every folder are read
 * (firstRows), every row is (rows), the first reading is done (ready); and from outside, someone
 * needs the specs (needed: the reading goes past the newest rows) and the view painted its first
 * rows (shown).
 */
type Moment = 'firstRows' | 'rows' | 'ready' | 'needed' | 'shown';

/**
 * Every spec of every workspace folder (multi-root works): one FolderSpecs per folder. Views
 * listen to `onDidChange`, which names the specs that changed, and read entries from here.
 */
export class SpecRegistry extends Disposable {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<SpecsChangeEvent>());
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidCheck = this._register(new vscode.EventEmitter<CheckedSpec | SpecEntry>());
  /**
   * A spec only summarized so far was looked at: once after the first rows (its evaluation, maybe
   * from the evaluation cache), or read in full on demand (its entry). The Problems panel
   * publishes it. Not a change of the spec.
   */
  readonly onDidCheck = this._onDidCheck.event;
  private readonly _onDidCheckRows = this._register(new vscode.EventEmitter<void>());
  /** Every summarized row now knows its group and stale marks: the tree draws them. */
  readonly onDidCheckRows = this._onDidCheckRows.event;
  private checking?: Promise<void>;
  private readonly folders = new Map<string, FolderSpecs>();
  /** Git's records of each folder's worktrees, watched (WorktreeWatch). */
  private readonly worktreeWatches = new Map<string, WorktreeWatch>();
  private readonly log: ComponentLog;
  private loaded = false;
  private loading?: Promise<void>;
  /** The moments of the first reading passed so far (Moment), each told once through `onDidReach`. */
  private readonly reached = new Set<Moment>();
  private readonly _onDidReach = this._register(new vscode.EventEmitter<Moment>());
  /** A moment after the first rows were painted: when the look's results may be handed on. */
  private readonly paintSettled = this.reachedAt('shown').then(() => delay(CHECK_AFTER_PAINT_MS));
  /** The view asked for its rows: the rest of the reading waits for the first ones to be painted. */
  private viewAsked = false;
  /** When the first reading began and ended (performance.now()), for the log and the benchmarks. */
  readonly timings: {
    startedAt?: number;
    /** When someone first needed the specs (`start`): the reading went past the newest rows. */
    neededAt?: number;
    firstRowsAt?: number;
    rowsAt?: number;
    loadedAt?: number;
    checkStartedAt?: number;
    checkedAt?: number;
    /** Each folder's look's worker: when it began, sent its first result, was done. */
    look?: LookTimings[];
  } = {};

  constructor(
    private readonly config: LoomConfig,
    log: Log,
    /**
     * The per-spec caches (specCacheStorage.ts): parses, the rows' parses (summaries), looks
     * (evaluations), and the look's worker process (looks: without it, every spec is looked at in this thread).
     */
    private readonly caches: Partial<SpecCaches> = {},
  ) {
    super();
    for (const c of [caches.parses, caches.summaries, caches.evaluations]) if (c) this._register({ dispose: () => c.flush() });
    this.log = log.component('specs');
    this._register(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) this.removeFolder(f);
        for (const f of e.added) this.addFolder(f);
        this.loading = this.loadAll();
        void this.loading.then(() => this._onDidChange.fire({ changed: [], removed: [], all: true }));
      }),
    );
    this._register(
      config.onDidChange((keys) => {
        // The team's rule changes what the actor's guards say of every spec: each is read again.
        if (keys.has('specRoots') || keys.has('blockOnOpenThreads') || keys.has('requirePerson')) this.restart();
      }),
    );
    // A file saved in the editor (a quick fix applied, say) reloads its spec even when the file
    // watcher is late or misses the write; the watcher's own event for it is debounced into the same reload.
    this._register(
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (doc.uri.scheme === 'file') this.folderFor(doc.uri)?.fileChanged(doc.uri.fsPath);
      }),
    );
  }

  /**
   * Reads the newest rows at once (`prepare`), and the rest START_UNASKED_MS from now, unless the
   * view, a command or a tool asks first (`rowsAsked`, `start`).
   */
  startSoon(): void {
    const prepare = setTimeout(() => this.prepare());
    const timer = setTimeout(() => void this.start(), START_UNASKED_MS);
    this._register(toDisposable(() => (clearTimeout(prepare), clearTimeout(timer))));
  }

  /**
   * While VS Code starts the window and before it asks for the view's rows (0.3–1 s after
   * activation, Loom idle meanwhile), each folder's listing and its newest rows are read: they are
   * ready when it asks. That much (tens of ms) does not delay the ask; reading past them would.
   */
  private prepare(): void {
    if (this.loading || this.isDisposed) return;
    for (const f of vscode.workspace.workspaceFolders ?? []) this.addFolder(f);
    this.loading = this.loadAll();
    void this.loading.then(() => this.reach('ready'));
  }

  /**
   * The view asks for its rows: reading begins now if it has not, and once the newest rows are
   * read, the rest waits until they are painted: the window is not kept busy in between.
   */
  rowsAsked(): void {
    this.viewAsked = true;
    void this.start();
  }

  /**
   * Reads the whole workspace (past the newest rows `prepare` read) unless it is being read;
   * resolves once every folder's rows are read. Whatever needs the specs awaits this, not `ready`.
   */
  start(): Promise<void> {
    this.timings.neededAt ??= performance.now();
    this.reach('needed');
    this.prepare();
    return this.loading ?? Promise.resolve();
  }

  /** Resolves once the workspace has been read the first time; asking does not start the reading. */
  get ready(): Promise<void> {
    return this.reachedAt('ready');
  }

  get isLoaded(): boolean {
    return this.loaded;
  }

  /** Specs the look's workers looked at, in every folder. */
  get lookedInWorker(): number {
    return [...this.folders.values()].reduce((n, f) => n + f.lookedInWorker, 0);
  }

  /** Specs whose looks the host took from the evaluation cache beside the workers, in every folder. */
  get lookedFromCache(): number {
    return [...this.folders.values()].reduce((n, f) => n + f.lookedFromCache, 0);
  }

  /** Specs the host looked at itself once it had taken the kept looks (a reload's few changed specs), in every folder. */
  get lookedHere(): number {
    return [...this.folders.values()].reduce((n, f) => n + f.lookedHere, 0);
  }

  /** What the per-spec caches saved so far (for the log and the benchmarks): the parses (the look's worker's added), the looks, the rows' parses. */
  get cacheStats(): (CacheCounts & { evaluations?: CacheCounts; summaries?: CacheCounts }) | undefined {
    // The look's workers keep caches of their own: their counts are added to the host's.
    const sum = (own: CacheCounts, pick: (f: FolderSpecs) => CacheCounts | undefined) => {
      const total = { ...own };
      for (const f of this.folders.values()) {
        const c = pick(f);
        if (c) for (const k of ['hits', 'misses', 'written', 'rejected'] as const) total[k] += c[k];
      }
      return total;
    };
    const { parses, summaries, evaluations } = this.caches;
    const looks = evaluations && sum(cacheCounts(evaluations), (f) => f.lookCounts.evaluations);
    const rows = summaries && cacheCounts(summaries);
    return parses && { ...sum(cacheCounts(parses), (f) => f.lookCounts.parses), ...(looks ? { evaluations: looks } : {}), ...(rows ? { summaries: rows } : {}) };
  }

  /**
   * Resolves once the top of the list can be drawn: the newest specs of each folder have their
   * rows. The rest follow (rowsReady), and the view is redrawn then.
   */
  get firstRowsReady(): Promise<void> {
    return this.reachedAt('firstRows');
  }

  /** Resolves once every spec's row can be shown (name, stage, stage counts), before the specs are read in full. */
  get rowsReady(): Promise<void> {
    return this.reachedAt('rows');
  }

  /**
   * The first reading: what the rows need of every spec (the view and the status bar are ready
   * then), and behind it one look at each spec in full for the Problems panel and the rows'
   * stale marks. Nothing but the specs someone shows, expands or acts on is kept in full.
   */
  private async loadAll(): Promise<void> {
    this.timings.startedAt ??= performance.now();
    const folders = [...this.folders.values()];
    void Promise.all(folders.map((f) => f.firstRows)).then(() => {
      this.timings.firstRowsAt ??= performance.now();
      this.reach('firstRows');
    });
    await Promise.all(folders.map((f) => f.loadSummaries(() => this.firstPaint())));
    this.timings.rowsAt ??= performance.now();
    this.timings.loadedAt ??= this.timings.rowsAt;
    this.loaded = true;
    this.reach('firstRows');
    this.reach('rows');
    this.checking = this.checkAll();
  }

  /**
   * What the rest of the rows wait for once the newest are read: someone needing the specs
   * (`start`), then the newest rows' paint, if the view asked for them.
   */
  private async firstPaint(): Promise<void> {
    await this.reachedAt('needed');
    if (this.viewAsked) await Promise.race([this.reachedAt('shown'), delay(FIRST_PAINT_WAIT_MS)]);
  }

  /**
   * The view handed VS Code its first rows: the look at every spec may begin once they are
   * painted. Begun earlier, its Problems entries keep the window busy and the rows wait for them.
   */
  firstRowsShown(): void {
    this.reach('shown');
  }

  private reach(moment: Moment): void {
    if (this.reached.has(moment)) return;
    this.reached.add(moment);
    this._onDidReach.fire(moment);
  }

  /** Resolves once `moment` has passed (at once when it has). */
  private reachedAt(moment: Moment): Promise<void> {
    return when(
      () => this.reached.has(moment),
      filterEvent(this._onDidReach.event, (m) => m === moment),
    );
  }

  private async checkAll(): Promise<void> {
    // A hidden view never asks for rows: the look's results are handed on a moment after they
    // are read anyway. Its worker began with the rest of the rows (or begins now). The moment
    // after the paint counts from the paint, which the rest of the rows already waited for.
    const after = Promise.race([this.paintSettled, delay(CHECK_WITHOUT_VIEW_MS)]).then(() => {
      this.timings.checkStartedAt ??= performance.now();
    });
    await Promise.all([...this.folders.values()].map((f) => f.check((e) => this._onDidCheck.fire(e), after)));
    if (this.isDisposed) return;
    this.timings.checkedAt ??= performance.now();
    this.timings.look ??= [...this.folders.values()].map((f) => f.lookTimings);
    this._onDidCheckRows.fire();
  }

  private addFolder(folder: vscode.WorkspaceFolder): void {
    if (this.folders.has(folder.uri.toString())) return;
    const specs = new FolderSpecs(
      folder,
      this.config.specRoots,
      () => this.config.debounceMs,
      this.log,
      (c) => this.folderChanged(c),
      () => this.config.inspectMachines,
      { parses: this.caches.parses, summaries: this.caches.summaries },
      this.caches.evaluations,
      this.caches.looks,
    );
    specs.onReadInFull = (e) => this._onDidCheck.fire(e);
    const key = folder.uri.toString();
    this.folders.set(key, specs);
    // One per folder for the registry's life, not one per FolderSpecs: git's records do not depend on
    // the spec roots, and a restart (they changed) keeps what the watch knew of the worktrees.
    if (!this.worktreeWatches.has(key))
      this.worktreeWatches.set(key, this._register(new WorktreeWatch({ folder, specs: () => this.folders.get(key)?.rows() ?? [], settleNow: (dir) => this.folders.get(key)?.settleNow(dir) })));
  }

  private removeFolder(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    const specs = this.folders.get(key);
    if (!specs) return;
    const removed = specs.rows().map((e) => e.dir);
    specs.dispose();
    this.folders.delete(key);
    this.worktreeWatches.get(key)?.dispose();
    this.worktreeWatches.delete(key);
    this._onDidChange.fire({ changed: [], removed, all: true });
  }

  private restart(): void {
    this.log.info('spec roots changed: reading the workspace again');
    for (const f of this.folders.values()) f.dispose();
    this.folders.clear();
    this.loading = undefined;
    this.loaded = false;
    void this.start().then(() => this._onDidChange.fire({ changed: [], removed: [], all: true }));
  }

  private folderChanged(change: FolderChange): void {
    if (!this.loaded) return;
    this._onDidChange.fire({ changed: change.changed, removed: change.removed, all: change.rescan === true });
  }

  get folderCount(): number {
    return this.folders.size;
  }

  folderSpecs(): FolderSpecs[] {
    return [...this.folders.values()];
  }

  /** Every spec read in full, for a command that lists or acts on them all: reads the ones only summarized. */
  entries(): SpecEntry[] {
    return [...this.folders.values()].flatMap((f) => f.allInFull());
  }

  /** The specs read in full so far (shown, expanded, acted on, changed), without reading more. */
  loadedEntries(): SpecEntry[] {
    return [...this.folders.values()].flatMap((f) => f.all());
  }

  /** Every spec as its tree row needs it: read in full, or only summarized while the workspace is being read. */
  rows(): SpecEntry[] {
    return [...this.folders.values()].flatMap((f) => f.rows());
  }

  /** A spec's row as it stands (maybe only summarized): for drawing rows, never for acting on the spec. */
  peek(dir: string): SpecEntry | undefined {
    for (const f of this.folders.values()) {
      const found = f.peek(resolve(f.root, dir));
      if (found) return found;
    }
    return undefined;
  }

  /** A spec by its directory: absolute, or relative to a workspace folder (`specs/x`). */
  entry(specDir: string): SpecEntry | undefined {
    for (const f of this.folders.values()) {
      const abs = resolve(f.root, specDir);
      const found = f.get(abs);
      if (found) return found;
    }
    return undefined;
  }

  /** The spec a file belongs to (the active editor's document, an explorer selection). */
  entryFor(uri: vscode.Uri): SpecEntry | undefined {
    if (uri.scheme !== 'file') return undefined;
    for (const f of this.folders.values()) {
      const rel = relative(f.root, uri.fsPath);
      if (rel.startsWith('..') || rel.split(sep)[0] === '..') continue;
      const dir = f.specDirOf(uri.fsPath);
      if (dir) return f.get(dir);
    }
    return undefined;
  }

  folderFor(uri: vscode.Uri): FolderSpecs | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return folder ? this.folders.get(folder.uri.toString()) : undefined;
  }

  /**
   * A change of one spec the folder's watcher does not see or must not wait for (a spec this
   * window just made, a file of its feature's worktree saved): settled now through the watcher.
   * Never needed after a request or a change of the spec, which tell the views themselves.
   */
  settleNow(dir: string): void {
    for (const f of this.folders.values()) {
      if (!relative(f.root, dir).startsWith('..')) f.settleNow(dir);
    }
  }

  /** Reads everything again (Loom: Refresh). */
  rescan(): void {
    for (const f of this.folders.values()) f.rescan();
  }

  /** Resolves once loading (and the look at every spec behind it) is done and no debounced reload is pending (for tests and commands). */
  async whenIdle(): Promise<void> {
    await this.ready;
    await this.checking;
    // A folder that went quiet may hear of a change again while another settles.
    while ([...this.folders.values()].some((f) => f.pending)) await Promise.all([...this.folders.values()].map((f) => f.whenQuiet()));
  }
}
