import * as vscode from 'vscode';
import type { LoomNode } from './nodes';

/** Where the tree reads which specs Loom: Run Pipeline is driving (PipelineRuns). */
export interface RunningPipelines {
  isRunning(dir: string): boolean;
  /** A spec's run started or stopped. */
  readonly onDidChange: vscode.Event<string>;
}

/**
 * Marks the row of a spec whose pipeline Loom is running: a spinning icon and "pipeline running"
 * first in its description, so it stands out in a long list as the status bar names it.
 */
export function withRunningPipeline(item: vscode.TreeItem, node: LoomNode, runs: RunningPipelines | undefined): vscode.TreeItem {
  if (!runs || node.kind !== 'spec' || !runs.isRunning(node.dir)) return item;
  const note = vscode.l10n.t('pipeline running');
  item.description = item.description ? `${note} · ${String(item.description)}` : note;
  item.iconPath = new vscode.ThemeIcon('sync~spin');
  return item;
}
