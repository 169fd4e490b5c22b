import * as vscode from 'vscode';
import { hasRole, stageWithRole, type SpecGroup } from '../../core/port/views';
import { FAILED_STAGE } from '../../core/port/vocabulary';
import { Disposable } from '../lifecycle';
import { splitSpecName } from '../format';
import type { SpecEntry, SpecRegistry, SpecsChangeEvent } from '../specs/specRegistry';
import type { ArtifactNode, GroupNode, LoomNode, NoteNode, SpecNode, StageNode, TaskNode, TasksNode } from './nodes';
import { withOpenThreads, type OpenThreadCounts } from './reviewCounts';
import { withRunningPipeline, type RunningPipelines } from './runningPipelines';
import { withDrift, type DriftMarks } from './driftMark';
import { artifactItem, groupItem, noteItem, specItem, specNotes, specTooltip, stageItem, taskItem, tasksItem } from './treeItems';
import { t } from '../../core/port/messages';
import { TreeExpansion, type RowShape } from './treeExpansion';

/** What the list is narrowed to: a text in the spec's name or stage, and/or one stage. */
export interface SpecFilter {
  text?: string;
  stage?: string;
}

// Needs attention first: a spec whose state cannot be read is what to fix before anything else.
const GROUPS: readonly SpecGroup[] = ['attention', 'in-progress', 'failed', 'done'];
/**
 * Spec names in the order `localeCompare` gives them, with one collator: `localeCompare` makes one
 * per call, and the view sorts its thousand rows three times before they are painted (30 ms a
 * sort, against 4 ms).
 */
const byName = new Intl.Collator().compare;

/**
 * The Loom tree. Node objects of groups and specs are kept per key, so a change to one spec
 * refreshes that spec's row only; the whole tree is redrawn only when a spec moves to another
 * group, appears, disappears or enters/leaves the filter.
 */
export class SpecTreeProvider extends Disposable implements vscode.TreeDataProvider<LoomNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<LoomNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly groupNodes = new Map<SpecGroup, GroupNode>(GROUPS.map((g) => [g, { kind: 'group', group: g }]));
  private readonly specNodes = new Map<string, SpecNode>();
  /**
   * The group of each spec as of the last whole-tree refresh (specs hidden by the filter are
   * absent). Kept when the refresh is fired, not when getChildren runs: anyone may call
   * getChildren (a reveal, the API, tests), and VS Code's own tree must not miss a new spec
   * because somebody else read the root first.
   */
  private readonly shown = new Map<string, SpecGroup>();
  private filterValue: SpecFilter = {};
  /** The rows the person opened, given back when VS Code redraws the tree (treeExpansion.ts). */
  private readonly expansion = new TreeExpansion();
  private reviewCounts?: OpenThreadCounts;
  private pipelineRuns?: RunningPipelines;
  private driftMarks?: DriftMarks;

  constructor(private readonly registry: SpecRegistry) {
    super();
    this._register(registry.onDidChange((e) => this.changed(e)));
    // The first rows were drawn from summaries; once every spec had its one look, the rows show what was not known yet (stale marks, a group).
    this._register(registry.onDidCheckRows(() => this.refresh()));
  }

  /** When the tree first handed VS Code the rows of a group (performance.now()), for the benchmarks. */
  firstRowsAt?: number;
  /** When VS Code first asked for the tree's top rows. */
  firstAskedAt?: number;
  private rowsRead = false;
  private allRowsAsked = false;

  /** The open comment threads shown on spec and file rows; a change redraws that spec's rows. */
  setReviewCounts(counts: OpenThreadCounts): void {
    this.reviewCounts = counts;
    this._register(counts.onDidChange((dir) => this.shown.has(dir) && this._onDidChangeTreeData.fire(this.specNode(dir))));
  }

  /** The runs of Loom: Run Pipeline, whose specs' rows are marked while they run. */
  setPipelineRuns(runs: RunningPipelines): void {
    this.pipelineRuns = runs;
    this._register(runs.onDidChange((dir) => this.shown.has(dir) && this._onDidChangeTreeData.fire(this.specNode(dir))));
  }

  /** The drift of synced specs, marked on their rows; a change redraws that spec's row. */
  setDriftMarks(marks: DriftMarks): void {
    this.driftMarks = marks;
    this._register(marks.onDidChange((dir) => this.shown.has(dir) && this._onDidChangeTreeData.fire(this.specNode(dir))));
  }

  get filter(): SpecFilter {
    return this.filterValue;
  }

  setFilter(filter: SpecFilter): void {
    this.filterValue = { text: filter.text?.trim() || undefined, stage: filter.stage || undefined };
    this.refresh();
  }

  refresh(): void {
    this.shown.clear();
    if (this.rowsRead) for (const e of this.visible()) this.shown.set(e.dir, e.overview.group);
    this._onDidChangeTreeData.fire(undefined);
  }

  private changed(e: SpecsChangeEvent): void {
    if (e.all || e.removed.some((d) => this.shown.has(d))) return this.refresh();
    const targeted: SpecNode[] = [];
    for (const dir of e.changed) {
      const entry = this.registry.peek(dir);
      const was = this.shown.get(dir);
      const now = entry && this.matches(entry) ? entry.overview.group : undefined;
      if (was !== now) return this.refresh();
      if (now) targeted.push(this.specNode(dir));
    }
    for (const node of targeted) this._onDidChangeTreeData.fire(node);
  }

  /** Called from the view's expand and collapse events. */
  setExpanded(node: LoomNode, expanded: boolean): void {
    const id = nodeId(node);
    if (id) this.expansion.expanded(id, expanded);
  }

  matches(e: SpecEntry): boolean {
    const { text, stage } = this.filterValue;
    if (stage && e.spec.stage !== stage) return false;
    if (!text) return true;
    const needle = text.toLowerCase();
    return [e.spec.snapshot.name, e.spec.stage ?? '', e.folder.name].some((h) => h.toLowerCase().includes(needle));
  }

  specNode(dir: string): SpecNode {
    let node = this.specNodes.get(dir);
    if (!node) this.specNodes.set(dir, (node = { kind: 'spec', dir }));
    return node;
  }

  private visible(): SpecEntry[] {
    // Newest first: spec names start with their date.
    return this.registry
      .rows()
      .filter((e) => this.matches(e))
      .sort((a, b) => byName(b.spec.snapshot.name, a.spec.snapshot.name) || a.folder.index - b.folder.index);
  }

  async getChildren(node?: LoomNode): Promise<LoomNode[]> {
    if (!node) {
      this.firstAskedAt ??= performance.now();
      this.registry.rowsAsked();
      // Names, stages and stage counts are enough for the first rows, and the newest specs' rows
      // are enough for the top of the list: the rest is read behind them, and drawn then.
      await this.registry.firstRowsReady;
      if (!this.allRowsAsked) {
        this.allRowsAsked = true;
        if (!this.registry.isLoaded) void this.registry.rowsReady.then(() => !this.isDisposed && this.refresh());
      }
      const visible = this.visible();
      if (!this.rowsRead) {
        this.rowsRead = true;
        for (const e of visible) this.shown.set(e.dir, e.overview.group);
      }
      for (const dir of this.specNodes.keys()) if (!this.registry.peek(dir)) this.specNodes.delete(dir);
      if (visible.length === 0 && this.registry.rows().length > 0) {
        return [{ kind: 'note', id: 'note:filter-empty', label: t('host.tree.noSpecMatchesFilter'), severity: 'info' } satisfies NoteNode];
      }
      return GROUPS.filter((g) => visible.some((e) => e.overview.group === g)).map((g) => this.groupNodes.get(g)!);
    }
    switch (node.kind) {
      case 'group': {
        const rows = this.visible()
          .filter((e) => e.overview.group === node.group)
          .map((e) => this.specNode(e.dir));
        // VS Code asks for the rows' items right after: they are painted once this task ends.
        if (this.firstRowsAt === undefined && rows.length)
          setImmediate(() => {
            this.firstRowsAt ??= performance.now();
            this.registry.firstRowsShown();
          });
        return rows;
      }
      case 'spec': {
        const e = this.registry.entry(node.dir);
        if (!e) return [];
        const stages: LoomNode[] = e.overview.stages.map((s): StageNode => ({ kind: 'stage', dir: e.dir, stage: s.id }));
        const loose = stageWithRole(e.spec.definition, 'tasks') ? [] : this.taskNodes(e);
        return [...specNotes(e), ...this.tasksShortcut(e), ...stages, ...loose];
      }
      case 'tasks': {
        const e = this.registry.entry(node.dir);
        return e ? this.taskNodes(e) : [];
      }
      case 'stage': {
        const e = this.registry.entry(node.dir);
        return e ? this.stageChildren(e, node.stage) : [];
      }
      default:
        return [];
    }
  }

  /** Tasks one click from the spec row while it stands at the stage that runs them, or when its stage is unknown (the tasks are still there). */
  private tasksShortcut(e: SpecEntry): TasksNode[] {
    if (e.overview.tasks.length === 0) return [];
    const stage = e.spec.stage;
    const atTasks = stage === null || hasRole(e.spec.definition, stage, 'tasks');
    return atTasks && stageWithRole(e.spec.definition, 'tasks') ? [{ kind: 'tasks', dir: e.dir }] : [];
  }

  private taskNodes(e: SpecEntry): TaskNode[] {
    return e.overview.tasks.map((t) => ({ kind: 'task', dir: e.dir, task: t.id }));
  }

  /** The tasks under executing, then the stage's outputs and its handoff. */
  private stageChildren(e: SpecEntry, stageId: string): LoomNode[] {
    const stage = e.overview.stages.find((s) => s.id === stageId);
    if (!stage) return [];
    const out: LoomNode[] = hasRole(e.spec.definition, stageId, 'tasks') ? this.taskNodes(e) : [];
    const paths = stage.outputs.map((o) => o.path);
    const handoff = `handoffs/${stageId}.json`;
    if (!paths.includes(handoff) && e.spec.snapshot.files.has(handoff)) paths.push(handoff);
    for (const path of paths) out.push({ kind: 'artifact', dir: e.dir, stage: stageId, path } satisfies ArtifactNode);
    return out;
  }

  getTreeItem(node: LoomNode): vscode.TreeItem {
    const item = withDrift(withRunningPipeline(withOpenThreads(this.treeItem(node), node, this.reviewCounts), node, this.pipelineRuns), node, this.driftMarks);
    if (item.id) item.collapsibleState = COLLAPSIBLE[this.expansion.shape(item.id, SHAPE[item.collapsibleState ?? vscode.TreeItemCollapsibleState.None])];
    return item;
  }

  private treeItem(node: LoomNode): vscode.TreeItem {
    if (node.kind === 'group') return groupItem(node, this.visible().filter((e) => e.overview.group === node.group).length);
    if (node.kind === 'note') {
      const e = node.dir ? this.registry.entry(node.dir) : undefined;
      return noteItem(node, e?.uri);
    }
    // A spec's row is drawn from what is known (maybe only its summary); rows below it are of a spec read in full.
    const e = node.kind === 'spec' ? this.registry.peek(node.dir) : this.registry.entry(node.dir);
    if (!e) return new vscode.TreeItem(t('host.tree.removed'));
    switch (node.kind) {
      case 'spec':
        return specItem(node, e, this.registry.folderCount > 1);
      case 'stage': {
        const stage = e.overview.stages.find((s) => s.id === node.stage)!;
        return stageItem(node, e, stage, this.stageChildren(e, node.stage).length > 0);
      }
      case 'task': {
        const task = e.overview.tasks.find((t) => t.id === node.task);
        return task ? taskItem(node, e, task) : new vscode.TreeItem(node.task);
      }
      case 'tasks':
        return tasksItem(node, e);
      case 'artifact': {
        const stage = e.overview.stages.find((s) => s.id === node.stage);
        const exists = stage?.outputs.find((o) => o.path === node.path)?.exists ?? e.spec.snapshot.files.has(node.path);
        return artifactItem(node, e, stage, exists);
      }
    }
  }

  resolveTreeItem(item: vscode.TreeItem, node: LoomNode): vscode.TreeItem {
    if (node.kind === 'spec' && item.tooltip === undefined) {
      const e = this.registry.entry(node.dir);
      if (e) item.tooltip = specTooltip(e);
    }
    return item;
  }

  getParent(node: LoomNode): LoomNode | undefined {
    if (node.kind === 'group' || (node.kind === 'note' && !node.dir)) return undefined;
    if (node.kind === 'spec') {
      const e = this.registry.peek(node.dir);
      return e ? this.groupNodes.get(e.overview.group) : undefined;
    }
    if (node.kind === 'task' || node.kind === 'artifact') {
      const e = this.registry.entry(node.dir);
      const stage = node.kind === 'artifact' ? node.stage : e ? stageWithRole(e.spec.definition, 'tasks')?.id : undefined;
      return stage ? ({ kind: 'stage', dir: node.dir, stage } satisfies StageNode) : this.specNode(node.dir);
    }
    return this.specNode(node.dir!);
  }

  /** Stages a filter can pick: every stage of every loaded pipeline, then `failed`. */
  knownStages(): string[] {
    const ids = new Set<string>();
    for (const e of this.registry.rows()) for (const s of e.spec.definition.stages) ids.add(s.id);
    return [...ids, FAILED_STAGE];
  }

  /** A readable label for a spec in quick picks: `user-login (2026-11-20)` (the pick shows its stage beside it). */
  static pickLabel(e: SpecEntry): string {
    const { date, feature } = splitSpecName(e.spec.snapshot.name);
    return date ? `${feature} (${date})` : feature;
  }
}

const SHAPE: Record<vscode.TreeItemCollapsibleState, RowShape> = {
  [vscode.TreeItemCollapsibleState.None]: 'leaf',
  [vscode.TreeItemCollapsibleState.Collapsed]: 'collapsed',
  [vscode.TreeItemCollapsibleState.Expanded]: 'expanded',
};
const COLLAPSIBLE: Record<RowShape, vscode.TreeItemCollapsibleState> = {
  leaf: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
};

/** The id getTreeItem gives a node, for the rows that can be expanded. */
function nodeId(node: LoomNode): string | undefined {
  switch (node.kind) {
    case 'group':
      return `group:${node.group}`;
    case 'spec':
      return `spec:${node.dir}`;
    case 'stage':
      return `stage:${node.dir}:${node.stage}`;
    case 'tasks':
      return `tasks:${node.dir}`;
    default:
      return undefined;
  }
}
