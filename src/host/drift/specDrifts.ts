import * as vscode from 'vscode';
import { dashboardDrift, headStamp, repositoryDrift, type SpecDrift } from '../../core/port/drift';
import { dashboardDrifts } from './dashboardDrifts';
import { stageWithRole } from '../../core/port/views';
import { debounceEvent } from '../events';
import { Disposable } from '../lifecycle';
import { onWorkMaybeDoneOutside } from '../outsideWork';
import type { ComponentLog } from '../log';
import type { FolderSpecs } from '../specs/folderSpecs';
import type { SpecEntry, SpecRegistry } from '../specs/specRegistry';

/** How long HEAD must be still before drift is read again: a rebase moves it many times. */
const HEAD_QUIET_MS = 400;

const isSynced = (e: SpecEntry) => {
  const sync = stageWithRole(e.spec.definition, 'sync');
  return sync !== undefined && e.spec.stage === sync.id;
};

/** What a synced spec's baseline is, as its state says: a change of it (or of being synced) reads drift again. */
const baselineKey = (e: SpecEntry) => (isSynced(e) ? JSON.stringify(e.spec.snapshot.state?.metadata?.drift_baseline ?? null) : undefined);

/**
 * Drift of every synced spec in the editor: a read model of the core's answer (repositoryDrift,
 * one git pass per workspace folder), read again when the folder's git HEAD moves (a commit, a
 * checkout, a pull) or when a spec becomes synced or its baseline moves; never on a timer.
 * Unchanged specs cost nothing.
 */
export class SpecDrifts extends Disposable {
  private readonly drifts = new Map<string, SpecDrift>();
  private readonly baselines = new Map<string, string | undefined>();
  private readonly reading = new Map<string, { again: boolean; done: Promise<void> }>();
  private readonly watched = new Set<string>();
  /** Each folder's HEAD stamp (headStamp) as the last reading of its drift began. */
  private readonly heads = new Map<string, string>();
  private readonly _onDidChange = this._register(new vscode.EventEmitter<string>());
  /** A spec's drift changed (its absolute directory). */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onHeadMoved = this._register(new vscode.EventEmitter<string>());

  constructor(
    private readonly registry: SpecRegistry,
    private readonly log: ComponentLog,
  ) {
    super();
    // The folder as the registry has it when HEAD moved: a restart of the registry (the spec roots, a team rule changed) makes new ones.
    this._register(
      debounceEvent(
        this._onHeadMoved.event,
        HEAD_QUIET_MS,
      )((root) => {
        const folder = this.registry.folderSpecs().find((f) => f.root === root);
        if (folder) void this.read(folder);
      }),
    );
    this._register(
      registry.onDidChange((e) => {
        for (const folder of registry.folderSpecs()) {
          this.watch(folder);
          if (e.all || e.changed.some((dir) => this.baselineMoved(folder, dir)) || e.removed.some((dir) => this.drifts.has(dir))) void this.read(folder);
        }
      }),
    );
    // The dashboard's drift section reads from here.
    const provider = { of: (dir: string) => this.dashboard(dir), onDidChange: this.onDidChange };
    dashboardDrifts.provider = provider;
    this._register({ dispose: () => dashboardDrifts.provider === provider && (dashboardDrifts.provider = undefined) });
    // Read again only where HEAD's records changed since drift was read.
    this._register(
      onWorkMaybeDoneOutside(() => {
        for (const folder of registry.folderSpecs()) if (this.watched.has(folder.root) && headStamp(folder.root) !== this.heads.get(folder.root)) this._onHeadMoved.fire(folder.root);
      }),
    );
    void registry.ready.then(() => {
      for (const folder of registry.folderSpecs()) {
        this.watch(folder);
        void this.read(folder);
      }
    });
  }

  /** The drift of a synced spec as last read; undefined for a spec not synced (or not read yet). */
  drift(dir: string): SpecDrift | undefined {
    return this.drifts.get(dir);
  }

  /** A spec's drift as the dashboard shows it. */
  private dashboard(dir: string) {
    const d = this.drifts.get(dir);
    return d ? dashboardDrift(d) : undefined;
  }

  /** Resolves once every reading under way is done (for tests and commands). */
  async whenRead(): Promise<void> {
    while (this.reading.size) await Promise.all([...this.reading.values()].map((r) => r.done));
  }

  /**
   * One watcher per folder on where git records HEAD's moves (HEAD itself, and its reflog for a
   * commit on the same branch). Each path is named whole from the folder (`{.git/HEAD,…}`, as
   * worktreeWatch.ts does), not as `.git/{…}`: with `.git` not there yet when the watch began (a
   * folder made a repository later), that form missed the first commits in CI's integration run.
   */
  private watch(folder: FolderSpecs): void {
    if (this.watched.has(folder.root)) return;
    this.watched.add(folder.root);
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder.root), '{.git/HEAD,.git/logs/HEAD}')));
    for (const on of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete])
      this._register(
        on((uri) => {
          this.log.debug(`${uri.fsPath} changed: drift of ${folder.root} is read again`);
          this._onHeadMoved.fire(folder.root);
        }),
      );
  }

  private baselineMoved(folder: FolderSpecs, dir: string): boolean {
    const e = folder.peek(dir);
    const key = e ? baselineKey(e) : undefined;
    return key !== this.baselines.get(dir);
  }

  /** Reads the folder's drift (one at a time per folder: a change meanwhile reads it once more after). */
  private read(folder: FolderSpecs): Promise<void> {
    const busy = this.reading.get(folder.root);
    if (busy) {
      busy.again = true;
      return busy.done;
    }
    const state = { again: false, done: Promise.resolve() };
    state.done = (async () => {
      try {
        do {
          state.again = false;
          // The registry's folder of this root now (a restart makes new ones).
          const current = this.registry.folderSpecs().find((f) => f.root === folder.root);
          if (current) await this.readOnce(current);
        } while (state.again);
      } finally {
        this.reading.delete(folder.root);
      }
    })();
    this.reading.set(folder.root, state);
    return state.done;
  }

  private async readOnce(folder: FolderSpecs): Promise<void> {
    this.heads.set(folder.root, headStamp(folder.root));
    const synced = folder.rows().filter(isSynced);
    const entries = synced.map((row) => folder.get(row.dir)).filter((e): e is SpecEntry => e !== undefined && isSynced(e));
    const before = new Set([...this.drifts.keys()].filter((dir) => dir.startsWith(folder.root)));
    let specs: SpecDrift[] = [];
    try {
      specs = entries.length ? (await repositoryDrift(folder.repository, { only: entries.map((e) => e.spec) })).specs : [];
    } catch (e) {
      this.log.warn(`drift of ${folder.root} could not be read: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    this.log.debug(`drift of ${folder.root}: ${specs.map((d) => `${d.specDir} ${d.status}`).join(', ') || 'no synced spec'}`);
    entries.forEach((e, i) => {
      this.baselines.set(e.dir, baselineKey(e));
      before.delete(e.dir);
      const old = this.drifts.get(e.dir);
      const now = specs[i];
      this.drifts.set(e.dir, now);
      if (!old || JSON.stringify(old) !== JSON.stringify(now)) this._onDidChange.fire(e.dir);
    });
    for (const dir of before) {
      this.drifts.delete(dir);
      this.baselines.delete(dir);
      this._onDidChange.fire(dir);
    }
  }
}
