import { join, relative, resolve } from 'node:path';
import * as vscode from 'vscode';
import { WORKFLOW_FILE } from '../../core/port/vocabulary';
import { isOwnLockActivity } from '../../core/port/specs';
import { debounceEvent, when } from '../events';
import { Disposable, toDisposable } from '../lifecycle';

/** What waits when the workflow or a spec root itself changed: everything is read again. */
export const RESCAN = '\u0000rescan';
/** The longest a change waits for its folder to go quiet. */
const MAX_WAIT_MS = 1000;

export interface WatchedFolder {
  folder: vscode.WorkspaceFolder;
  root: string;
  specRoots: readonly string[];
  /** The spec directory a path belongs to, if any. */
  specDirOf(path: string): string | undefined;
  /** Whether the spec's last full read already saw this file as it is (a late event of a write). */
  seenByLastRead(dir: string, path: string): boolean;
  /** `loom.watcher.debounceMs`, read at each change so that a new setting takes effect at once. */
  debounceMs(): number;
}

/**
 * One FileSystemWatcher per workspace folder, scoped to the spec roots and `.loom/workflow.yaml`,
 * and one debounce for the whole folder, not one per spec: a burst of writes (loom writes a
 * temporary file, renames it, then regenerates progress.md; a checkout of another branch changes
 * hundreds of files whose events arrive in several batches) ends in one `onDidSettle` naming each
 * spec it touched once, after the last of them.
 */
export class FolderWatcher extends Disposable {
  /** Specs (or RESCAN) whose files changed and that wait for the folder to be quiet. */
  private readonly waiting = new Set<string>();
  private readonly _onDidWait = this._register(new vscode.EventEmitter<void>());
  private readonly _onDidSettle = this._register(new vscode.EventEmitter<readonly string[]>());
  /** The folder went quiet: the specs whose files changed (RESCAN: the workflow or a root). */
  readonly onDidSettle = this._onDidSettle.event;
  private readonly _onDidDrain = this._register(new vscode.EventEmitter<void>());

  constructor(private readonly watched: WatchedFolder) {
    super();
    // The roots themselves too, to see them deleted.
    const glob = `{${[...watched.specRoots.flatMap((r) => [r, `${r}/**`]), WORKFLOW_FILE].join(',')}}`;
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(watched.folder, glob)));
    for (const on of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete]) this._register(on((uri) => this.fileChanged(uri.fsPath)));
    this._register(debounceEvent(this._onDidWait.event, watched.debounceMs, MAX_WAIT_MS)(() => this.settle()));
    // Nothing waits once the folder is let go: whoever waits for quiet goes on.
    this._register(
      toDisposable(() => {
        if (this.waiting.size === 0) return;
        this.waiting.clear();
        this._onDidDrain.fire();
      }),
    );
  }

  /** A file of the folder changed: its spec waits for the folder to go quiet (the workflow or a root: everything). */
  fileChanged(path: string): void {
    const { root, specRoots } = this.watched;
    const abs = resolve(path);
    if (abs === join(root, WORKFLOW_FILE)) return this.wait(RESCAN);
    // A spec root appearing or vanishing as a whole (a checkout of another branch, say).
    if (specRoots.includes(relative(root, abs))) return this.wait(RESCAN);
    const dir = this.watched.specDirOf(abs);
    // Our own run lock coming and going around a change (or a refusal) is not a change of the spec.
    if (!dir || isOwnLockActivity(dir, abs)) return;
    // A late event of a write the last read already saw (a checkout's events come in batches, the
    // last ones after the spec was read): the spec is evaluated once, not once per batch.
    if (this.watched.seenByLastRead(dir, abs)) return;
    this.wait(dir);
  }

  /** Whether a change of the spec waits for the folder to go quiet. */
  isWaiting(dir: string): boolean {
    return this.waiting.has(dir);
  }

  get pending(): boolean {
    return this.waiting.size > 0;
  }

  /** The spec is read now, not when the folder goes quiet. */
  readNow(dir: string): void {
    if (this.waiting.delete(dir) && this.waiting.size === 0) this._onDidDrain.fire();
  }

  /** Resolves once no change waits (at once when none does). */
  whenQuiet(): Promise<void> {
    return when(() => !this.pending, this._onDidDrain.event);
  }

  private wait(key: string): void {
    this.waiting.add(key);
    this._onDidWait.fire();
  }

  /**
   * A change of the spec the watcher does not see, or that must not wait for the folder to go
   * quiet (a spec this window just made, a file of its feature's worktree saved): settled now, for
   * this spec alone, through the same `onDidSettle` as every change.
   */
  settleNow(dir: string): void {
    this.readNow(dir);
    this._onDidSettle.fire([dir]);
  }

  private settle(): void {
    const keys = [...this.waiting];
    if (keys.length === 0) return;
    this.waiting.clear();
    this._onDidSettle.fire(keys);
    this._onDidDrain.fire();
  }
}
