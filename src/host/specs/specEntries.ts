import { statSync } from 'node:fs';
import { basename, relative } from 'node:path';
import * as vscode from 'vscode';
import type { LoomRepository, SpecPipeline } from '../../core/port/specs';
import { type SpecEvaluation, specOverview, type SpecOverview, specStaleness, type SpecStaleness } from '../../core/port/views';
import type { EvaluationCache } from '../../core/port/specCache';
import { Disposable, toDisposable } from '../lifecycle';
import type { ComponentLog } from '../log';

/** One spec as the views see it: its pipeline (with its live actor) and the facts derived from it. */
export interface SpecEntry {
  /** Absolute spec directory: the key of the spec everywhere in the host. */
  dir: string;
  folder: vscode.WorkspaceFolder;
  repository: LoomRepository;
  spec: SpecPipeline;
  /**
   * Read only as far as a list row needs (name, stage, stage counts): the tree's first rows, before
   * the spec is read in full. Never handed out by `get`/`entry`, which read the spec first.
   */
  summary?: true;
  overview: SpecOverview;
  /** Computed on first use (it fingerprints files), then kept until the spec's files change. */
  readonly staleness: SpecStaleness;
  uri: vscode.Uri;
}

export interface FolderChange {
  folder: vscode.WorkspaceFolder;
  /** Specs that appeared or changed. */
  changed: string[];
  /** Specs that are gone. */
  removed: string[];
  /** The workflow or the whole folder was read again: every spec may have changed. */
  rescan?: boolean;
}

/** File times come from a coarse clock (a kernel tick behind): a write this close to a read may be newer than it. */
const STAMP_SLACK_MS = 30;
const NOT_YET_KNOWN: SpecStaleness = { handoffs: [], approvals: [], derived: [] };

/**
 * The entries of one folder's specs: the ones read in full, each following its actor, and the
 * ones only summarized for their list rows. It reads, reloads and forgets them, and reports each
 * change through `onChange`; when to read is the folder's business (FolderSpecs).
 */
export class SpecEntries extends Disposable {
  private readonly full = new Map<string, SpecEntry>();
  /** Specs not read in full yet, as their list rows need them. */
  private readonly summaries = new Map<string, SpecEntry>();
  /** When each spec's last full read began (Date.now()), to tell late events of writes it saw. */
  private readonly readAt = new Map<string, number>();
  /** Specs whose actor this folder listens to. */
  private readonly watched = new WeakSet<SpecPipeline>();

  constructor(
    private readonly folder: vscode.WorkspaceFolder,
    private readonly repository: LoomRepository,
    private readonly log: ComponentLog,
    private readonly onChange: (change: FolderChange) => void,
    /** Each spec's last look, forgotten with the spec. */
    private readonly evaluations?: EvaluationCache<SpecEvaluation>,
  ) {
    super();
    this._register(
      toDisposable(() => {
        for (const e of this.full.values()) e.spec.dispose();
        this.full.clear();
        for (const e of this.summaries.values()) e.spec.dispose();
        this.summaries.clear();
      }),
    );
  }

  /** The spec's entry, if it is read in full. */
  inFull(dir: string): SpecEntry | undefined {
    return this.full.get(dir);
  }

  /** The specs read in full. */
  all(): SpecEntry[] {
    return [...this.full.values()];
  }

  /** Every spec as its list row needs it: read in full, or only summarized so far. */
  rows(): SpecEntry[] {
    return this.summaries.size ? [...this.full.values(), ...this.summaries.values()] : this.all();
  }

  /** The spec's row as it stands, without reading the spec in full. */
  peek(dir: string): SpecEntry | undefined {
    return this.full.get(dir) ?? this.summaries.get(dir);
  }

  isSummarized(dir: string): boolean {
    return this.summaries.has(dir);
  }

  /** The specs only summarized so far, in the order their rows were read. */
  summarized(): string[] {
    return [...this.summaries.keys()];
  }

  get summaryCount(): number {
    return this.summaries.size;
  }

  /**
   * Reads what the spec's list row needs (its listing and pipeline.state.json), unless it has an
   * entry already; false when it had one, and nothing was read.
   */
  summarize(dir: string): boolean {
    if (this.full.has(dir) || this.summaries.has(dir)) return false;
    try {
      const spec = this.repository.summary(dir);
      this.summaries.set(dir, { ...this.entry(spec, 'summary'), summary: true });
    } catch (e) {
      this.log.warn(`${dir}: could not be read (${(e as Error).message})`);
    }
    return true;
  }

  /** A look at a summarized spec found this: its row keeps what the list shows of it (its group and stale marks). */
  looked(dir: string, evaluation: SpecEvaluation): void {
    const row = this.summaries.get(dir);
    if (row) this.summaries.set(dir, { ...row, overview: { ...row.overview, group: evaluation.group }, staleness: evaluation.staleness });
  }

  /** Reads one spec in full now and, with `report`, tells `onChange` that it was added, changed or removed. */
  reload(dir: string, report: boolean): void {
    const summarized = this.summaries.get(dir);
    if (summarized) {
      this.summaries.delete(dir);
      summarized.spec.dispose();
    }
    const had = this.full.get(dir);
    let spec: SpecPipeline | undefined;
    try {
      this.readAt.set(dir, Date.now());
      spec = this.repository.reload(dir);
    } catch (e) {
      // A spec directory removed halfway through reading it: treat as gone, the watcher will tell.
      this.log.warn(`${dir}: could not be read (${(e as Error).message})`);
      spec = undefined;
    }
    // The same spec took the new facts: its actor's change listener has updated the entry.
    if (spec && had?.spec === spec) return;
    if (spec) {
      this.full.set(dir, this.entry(spec));
      this.log.debug(`${spec.snapshot.specDir}: ${had ? 'reloaded' : 'added'} at ${spec.stage ?? 'unknown stage'}`);
      if (report) this.onChange({ folder: this.folder, changed: [dir], removed: [] });
    } else if (had || summarized) {
      this.evaluations?.forget(dir);
      this.full.delete(dir);
      this.readAt.delete(dir);
      this.log.debug(`${relative(this.repository.root, dir)}: removed`);
      if (report) this.onChange({ folder: this.folder, changed: [], removed: [dir] });
    }
  }

  /** Reads the workflow and every spec again: workflow.yaml changed, a root moved, or the user asked. */
  rescan(): void {
    const before = new Set(this.full.keys());
    this.readAt.clear();
    this.repository.load();
    this.full.clear();
    for (const e of this.summaries.values()) e.spec.dispose();
    this.summaries.clear();
    for (const spec of this.repository.all()) {
      if (basename(spec.snapshot.dir).startsWith('.')) continue;
      this.full.set(spec.snapshot.dir, this.entry(spec));
    }
    const removed = [...before].filter((d) => !this.full.has(d));
    this.log.info(`${this.folder.name}: rescanned, ${this.full.size} spec(s)`);
    this.onChange({ folder: this.folder, changed: [...this.full.keys()], removed, rescan: true });
  }

  /**
   * Whether the file was last written (or renamed into place: ctime) before the spec's last full
   * read began. A file that is gone, or written close to the read, is not known to be seen.
   */
  seenByLastRead(dir: string, path: string): boolean {
    const readAt = this.readAt.get(dir);
    if (readAt === undefined || !this.full.has(dir)) return false;
    try {
      const st = statSync(path);
      return Math.max(st.mtimeMs, st.ctimeMs) < readAt - STAMP_SLACK_MS;
    } catch {
      return false;
    }
  }

  /** The spec's facts changed (a reload, or a change its actor wrote): the entry follows, and the views. */
  private specChanged(spec: SpecPipeline): void {
    const dir = spec.snapshot.dir;
    if (this.isDisposed || this.full.get(dir)?.spec !== spec) return;
    this.full.set(dir, this.entry(spec));
    this.log.debug(`${spec.snapshot.specDir}: now at ${spec.stage ?? 'unknown stage'}`);
    this.onChange({ folder: this.folder, changed: [dir], removed: [] });
  }

  /** A spec's entry: `full` is kept and follows its actor; `summary` is a row only. */
  private entry(spec: SpecPipeline, kind: 'full' | 'summary' = 'full'): SpecEntry {
    if (kind === 'full' && !this.watched.has(spec)) {
      this.watched.add(spec);
      spec.onDidChange(() => this.specChanged(spec));
    }
    const { snapshot, definition, stage } = spec;
    // Staleness fingerprints the approved files: computed when a view first asks (a row, the
    // dashboard, Advance), once per version of the spec's files, not for every spec at load.
    // A summarized spec has not been read far enough to know: nothing is shown as stale yet.
    let staleness: SpecStaleness | undefined = kind === 'summary' ? NOT_YET_KNOWN : undefined;
    return {
      dir: snapshot.dir,
      folder: this.folder,
      repository: this.repository,
      spec,
      overview: specOverview(snapshot, definition, stage),
      get staleness() {
        return (staleness ??= specStaleness(snapshot, definition, stage));
      },
      uri: vscode.Uri.file(snapshot.dir),
    };
  }
}
