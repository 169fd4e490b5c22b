import * as vscode from 'vscode';
import { featureBranchName, gitWorktrees } from '../../core/port/specs';
import { debounceEvent } from '../events';
import { Disposable } from '../lifecycle';
import { onWorkMaybeDoneOutside } from '../outsideWork';
import type { SpecEntry } from './specEntries';

/** Git writes a worktree's few files one after the other: one look once they are all there. */
const QUIET_MS = 300;

export interface WatchedWorktrees {
  folder: vscode.WorkspaceFolder;
  /** Every spec with a row, read in full or only summarized so far. */
  specs(): readonly SpecEntry[];
  /** Reads the spec again now and reports it (FolderSpecs.settleNow). */
  settleNow(dir: string): void;
}

/**
 * A spec knows where its feature's worktree is from its last read (findWorktree, a fact of the
 * snapshot, or of the look behind a row only summarized). A worktree made or removed outside Loom
 * (`git worktree add` in a terminal, another tool, loom's CLI) changes no file of the spec, so the
 * folder's watcher never read it again and its row kept offering Create Worktree. Git records each
 * worktree under `.git/worktrees/<name>/`: when those records change, the specs whose feature
 * branch gained, lost or moved its worktree are read again, and no other.
 */
export class WorktreeWatch extends Disposable {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  /** Each branch checked out in a worktree, with its folder, as git recorded them at the last look. */
  private known: Map<string, string>;

  constructor(private readonly watched: WatchedWorktrees) {
    super();
    this.known = gitWorktrees(watched.folder.uri.fsPath);
    // A removed worktree's folder goes as a whole (its files are not reported one by one), and the
    // last one's takes `.git/worktrees` with it: the folders are watched with the two files.
    const records = this._register(
      vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(watched.folder, '{.git/worktrees,.git/worktrees/*,.git/worktrees/*/HEAD,.git/worktrees/*/gitdir}')),
    );
    for (const on of [records.onDidCreate, records.onDidChange, records.onDidDelete]) this._register(on(() => this._onDidChange.fire()));
    // Each look is one listing of `.git/worktrees`, and reads no spec whose branch did not move.
    this._register(onWorkMaybeDoneOutside(() => this._onDidChange.fire()));
    this._register(debounceEvent(this._onDidChange.event, QUIET_MS)(() => this.check()));
  }

  /** Reads again each spec whose feature branch's worktree changed since the last look. */
  check(): void {
    if (this.isDisposed) return;
    const now = gitWorktrees(this.watched.folder.uri.fsPath);
    const moved = new Set([...now.keys(), ...this.known.keys()].filter((branch) => now.get(branch) !== this.known.get(branch)));
    this.known = now;
    if (!moved.size) return;
    for (const entry of this.watched.specs()) {
      const { dir, name } = entry.spec.snapshot;
      if (moved.has(featureBranchName(name))) this.watched.settleNow(dir);
    }
  }
}
