import * as vscode from 'vscode';
import { mostRelevantSpec, isStale, unfinishedTasks } from '../core/port/views';
import type { LoomConfig } from './config';
import { md, splitSpecName } from './format';
import { Disposable } from './lifecycle';
import type { SpecEntry, SpecRegistry } from './specs/specRegistry';
import { progressText, stageText } from './tree/treeItems';
import type { SpecsView } from './tree/specsView';
import { t } from '../core/port/messages';

/**
 * The active spec in the status bar: its stage and progress, a warning when something is stale;
 * a click advances it. The active spec is the one of the active editor, else the tree selection,
 * else the most relevant spec (the one in progress, or the one that changed last), so the item is
 * there from the start.
 */
export class LoomStatusBar extends Disposable {
  readonly item: vscode.StatusBarItem;
  private current?: string;

  constructor(
    private readonly registry: SpecRegistry,
    private readonly view: SpecsView,
    private readonly config: LoomConfig,
  ) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('loom.activeSpec', vscode.StatusBarAlignment.Left, 10));
    this.item.name = t('host.general.loomActiveSpec');
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.update()));
    this._register(view.treeView.onDidChangeSelection(() => this.update()));
    // Any spec's change can make another one the most relevant: the choice is a pass over the entries, cheap enough for every change.
    this._register(registry.onDidChange(() => this.update()));
    this._register(config.onDidChange((keys) => keys.has('statusBarEnabled') && this.update()));
    void registry.ready.then(() => this.update());
  }

  /** The spec the status bar shows, if any. */
  get activeSpecDir(): string | undefined {
    return this.current;
  }

  private activeEntry(): SpecEntry | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    const fromEditor = doc ? this.registry.entryFor(doc.uri) : undefined;
    if (fromEditor) return fromEditor;
    const selected = this.view.selectedSpecDir;
    const fromTree = selected ? this.registry.entry(selected) : undefined;
    if (fromTree) return fromTree;
    // Chosen among the rows (group and last update are known from summaries); only the one shown is read in full.
    const relevant = mostRelevantSpec(this.registry.rows());
    return relevant && this.registry.entry(relevant.dir);
  }

  update(): void {
    const e = this.config.statusBarEnabled ? this.activeEntry() : undefined;
    this.current = e?.dir;
    if (!e) {
      this.item.hide();
      return;
    }
    const stale = isStale(e.staleness);
    const failed = e.overview.group === 'failed' || e.overview.group === 'attention';
    const progress = e.spec.stage === null ? '' : ` ${e.overview.progress.done}/${e.overview.progress.total}`;
    this.item.text = `${stale ? '$(warning)' : failed ? '$(error)' : '$(debug-step-over)'} ${stageText(e)}${progress}`;
    this.item.backgroundColor = stale ? new vscode.ThemeColor('statusBarItem.warningBackground') : failed ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${md(splitSpecName(e.spec.snapshot.name).feature)}** — \`${stageText(e)}\`${progressText(e) ? `, ${md(progressText(e)!)}` : ''}\n\n`);
    if (stale) tooltip.appendMarkdown(`$(warning) ${md(t('host.general.somethingSpecWasApprovedDerived'))}\n\n`);
    const unreadable = e.spec.stage === null;
    // A spec whose ways on are all blocked is not advanced by a click: Advance says what blocks it.
    const next = unreadable || failed ? [] : e.spec.next();
    const blocked = next.length > 0 && !next.some((c) => c.ready);
    const forward = blocked ? next.find((c) => c.kind === 'forward') : undefined;
    // What to do first, as the refusal's first button says it: tasks left to run before the files they write.
    const firstUnmet = forward ? (unfinishedTasks(e.spec.definition, e.spec.stage, forward)[0] ?? forward.unmet[0]) : undefined;
    if (firstUnmet) tooltip.appendMarkdown(`$(circle-slash) ${md(t('host.general.blocked', { firstUnmet }))}\n\n`);
    tooltip.appendMarkdown(
      md(
        unreadable
          ? t('host.general.clickOpenPipelineStateJson')
          : failed
            ? t('host.general.clickRecoverSpec')
            : blocked
              ? t('host.general.clickSeeWhatBlocksSpec')
              : t('host.general.clickAdvanceSpec'),
      ),
    );
    this.item.tooltip = tooltip;
    // Screen readers read this label instead of the text: plain words, no icon names or markdown.
    const feature = splitSpecName(e.spec.snapshot.name).feature;
    const progressLabel = progressText(e);
    const state = stale ? t('host.general.approvalStale') : unreadable ? t('host.commands.stateUnreadable') : failed ? t('view.step.failed') : blocked ? t('host.commands.blocked') : undefined;
    const label = [t('host.general.loomSpecStage', { feature, stageText: stageText(e) }), progressLabel, state].filter(Boolean).join(', ');
    this.item.accessibilityInformation = { label, role: 'button' };
    const command = unreadable ? 'loom.openStateFile' : failed ? 'loom.recover' : 'loom.advance';
    this.item.command = { command, title: t('ask.advance.ok'), arguments: [{ specDir: e.dir }] };
    this.item.show();
  }
}
