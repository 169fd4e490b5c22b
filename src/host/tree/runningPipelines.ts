import * as vscode from 'vscode';
import { clockTime } from '../format';
import type { LoomNode } from './nodes';
import { t } from '../../core/port/messages';

/** Where the tree reads which specs Loom: Run Pipeline is driving, and whose run waits for the person (PipelineRuns). */
export interface RunningPipelines {
  isRunning(dir: string): boolean;
  /** The stop the spec's run waits at for the person, while its files still say so. */
  waiting(dir: string): { at: string; stage: string } | undefined;
  /** A spec's run started or stopped. */
  readonly onDidChange: vscode.Event<string>;
}

/**
 * Marks the row of a spec whose pipeline Loom is running: a spinning icon and "pipeline running"
 * first in its description, so it stands out in a long list as the status bar names it. A run
 * that stopped for the person says since when ("waiting for you since 14:02"), the time of its
 * stop record, so the row says the same after a reload.
 */
export function withRunningPipeline(item: vscode.TreeItem, node: LoomNode, runs: RunningPipelines | undefined): vscode.TreeItem {
  if (!runs || node.kind !== 'spec') return item;
  if (!runs.isRunning(node.dir)) {
    const waiting = runs.waiting(node.dir);
    if (!waiting) return item;
    const note = t('host.tree.waitingYouSince', { clockTime: clockTime(waiting.at) });
    item.description = item.description ? `${note} · ${String(item.description)}` : note;
    item.iconPath = new vscode.ThemeIcon('bell', new vscode.ThemeColor('notificationsWarningIcon.foreground'));
    return item;
  }
  const note = t('host.tree.pipelineRunning');
  item.description = item.description ? `${note} · ${String(item.description)}` : note;
  item.iconPath = new vscode.ThemeIcon('sync~spin');
  return item;
}
