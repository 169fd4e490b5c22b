import * as vscode from 'vscode';
import { delay } from '../events';
import { Disposable } from '../lifecycle';
import type { SpecEntry, SpecRegistry } from '../specs/specRegistry';
import type { WorkspaceTrust } from '../trust';
import { specDirOfNode, type LoomNode } from './nodes';
import { SpecTreeProvider, type SpecFilter } from './specTreeProvider';
import type { RunningPipelines } from './runningPipelines';
import { t } from '../../core/port/messages';

export const SPECS_VIEW_ID = 'loom.specs';
/** The pauses before a reveal VS Code dropped is made again: about 1.5 s in all. */
const REVEAL_RETRIES_MS = [50, 100, 200, 400, 800];

/**
 * The "Loom" view: the tree, its message line (read-only, filter) and the context keys the
 * welcome view and the menus depend on.
 */
export class SpecsView extends Disposable {
  readonly provider: SpecTreeProvider;
  readonly treeView: vscode.TreeView<LoomNode>;
  /**
   * The last selection that held a row. While the tree is refreshed (the look at every spec ends,
   * say), VS Code forgets the rows it had resolved until the window asks for them again: the
   * selection then reads empty, and may be told empty, although the row is still selected, and a
   * command run from the palette in that moment would ask which spec instead of taking it.
   */
  private lastSelection: readonly LoomNode[] = [];

  constructor(
    private readonly registry: SpecRegistry,
    private readonly trust: WorkspaceTrust,
  ) {
    super();
    this.provider = this._register(new SpecTreeProvider(registry));
    this.treeView = this._register(vscode.window.createTreeView(SPECS_VIEW_ID, { treeDataProvider: this.provider, showCollapseAll: true }));
    this._register(this.treeView.onDidExpandElement((e) => this.provider.setExpanded(e.element, true)));
    this._register(this.treeView.onDidCollapseElement((e) => this.provider.setExpanded(e.element, false)));
    this._register(this.treeView.onDidChangeSelection((e) => e.selection.length && (this.lastSelection = e.selection)));
    this._register(trust.onDidChange(() => this.updateMessage()));
    // Relative times ("2h ago") are redrawn when the view comes back into sight, not on a timer.
    this._register(this.treeView.onDidChangeVisibility((e) => e.visible && this.registry.isLoaded && this.provider.refresh()));
    this._register(registry.onDidChange(() => this.updateContext()));
    this.treeView.message = t('host.tree.readingLoomSpecs');
    // The rows are there before the specs are read in full: the "Reading" message goes with them.
    void registry.rowsReady.then(() => {
      this.updateMessage();
      this.updateContext();
    });
    void registry.ready.then(() => this.updateContext());
  }

  /** The spec of the row selected in the tree, if any. */
  get selectedSpecDir(): string | undefined {
    const selection = this.treeView.selection.length ? this.treeView.selection : this.lastSelection;
    for (const node of selection) {
      const dir = specDirOfNode(node);
      // A spec removed since it was selected is not taken.
      if (dir && this.registry.peek(dir)) return dir;
    }
    return undefined;
  }

  /**
   * The spec the user is looking at, for a command, a tool or an @loom turn that names none: the
   * row selected in the tree while the tree is in sight, else the active editor's spec. A
   * selection left in a hidden tree is not taken: the user has since looked elsewhere (a new
   * feature's spec.md, say), and every surface has to agree on which spec that is.
   */
  specInFocus(): SpecEntry | undefined {
    const selected = this.treeView.visible ? this.selectedSpecDir : undefined;
    const fromTree = selected ? this.registry.entry(selected) : undefined;
    if (fromTree) return fromTree;
    const doc = vscode.window.activeTextEditor?.document;
    return doc ? this.registry.entryFor(doc.uri) : undefined;
  }

  /**
   * The runs of Loom: Run Pipeline: their specs' rows are marked, and the row of the stage a run
   * is at is brought into sight (its spec opened, the stage itself left as it was). Other specs'
   * rows keep the shape the person left them in.
   */
  followPipelineRuns(runs: RunningPipelines): void {
    this.provider.setPipelineRuns(runs);
    const shown = new Map<string, string>();
    const follow = (dir: string): void => {
      if (!runs.isRunning(dir)) {
        shown.delete(dir);
        return;
      }
      const entry = this.registry.peek(dir);
      const stage = entry?.spec.stage;
      // Not a stage row (failed, unreadable), hidden by the filter, already shown, or the view out of sight.
      if (!entry || !stage || !entry.overview.stages.some((s) => s.id === stage) || !this.provider.matches(entry)) return;
      if (shown.get(dir) === stage || !this.treeView.visible) return;
      shown.set(dir, stage);
      void Promise.resolve(this.treeView.reveal({ kind: 'stage', dir, stage }, { select: false, focus: false, expand: false })).catch(() => {
        // The row was not in the tree yet (a refresh on its way): the next change of the spec shows it.
        shown.delete(dir);
      });
    };
    this._register(runs.onDidChange(follow));
    this._register(this.registry.onDidChange((e) => e.changed.forEach(follow)));
  }

  setFilter(filter: SpecFilter): void {
    this.provider.setFilter(filter);
    void vscode.commands.executeCommand('setContext', 'loom.filtered', !!(this.provider.filter.text || this.provider.filter.stage));
    this.updateMessage();
  }

  /**
   * Selects a spec's row, once the rows are read. Not after the look at every spec, nor after
   * other specs' changes waiting for their folder to go quiet: on a large repository the first
   * look takes seconds, and the spec just created (its row already read, by settleNow) would
   * keep New Feature's answer waiting for them.
   * Made while the refresh that added the row is on its way, VS Code's reveal can fail, or do
   * nothing: the selection is checked, and the reveal made again a moment later while the row is
   * not selected (1.5 s at most).
   */
  async reveal(dir: string): Promise<void> {
    await this.registry.rowsReady;
    const entry = this.registry.peek(dir);
    // Hidden by the filter: nothing to reveal.
    if (!entry || !this.provider.matches(entry)) return;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.treeView.reveal(this.provider.specNode(dir), { select: true, focus: false, expand: true });
      } catch {
        // "Cannot resolve tree item": VS Code fetched the row's group before the row was in it. Tried again below.
      }
      if (this.treeView.selection.some((n) => n.kind === 'spec' && n.dir === dir)) return;
      if (attempt === REVEAL_RETRIES_MS.length) return;
      await delay(REVEAL_RETRIES_MS[attempt]);
      if (this.isDisposed || !this.registry.peek(dir)) return;
    }
  }

  private updateMessage(): void {
    const lines: string[] = [];
    if (!this.trust.writable) lines.push(t('host.tree.restrictedModeLoomReadOnly'));
    const { text, stage } = this.provider.filter;
    if (text || stage) lines.push(t('host.tree.filtered', { filter: [text && `"${text}"`, stage].filter(Boolean).join(', ') }));
    this.treeView.message = lines.length ? lines.join(' ') : undefined;
  }

  private updateContext(): void {
    void vscode.commands.executeCommand('setContext', 'loom.loaded', this.registry.isLoaded);
    void vscode.commands.executeCommand('setContext', 'loom.hasSpecs', this.registry.rows().length > 0);
  }
}
