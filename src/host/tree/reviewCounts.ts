import * as vscode from 'vscode';
import type { LoomNode } from './nodes';
import { t } from '../../core/port/messages';

/** Where the tree reads how many comment threads are open on a spec and on each of its files. */
export interface OpenThreadCounts {
  openCount(dir: string, file?: string): number;
  readonly onDidChange: vscode.Event<string>;
}

/** The file of a row that can carry comment threads: an artifact, or a task's task file. */
function fileOf(node: LoomNode): string | undefined {
  if (node.kind === 'artifact') return node.path.endsWith('/') ? undefined : node.path;
  if (node.kind === 'task') return `tasks/${node.task}.md`;
  return undefined;
}

/** Adds "N open threads" to a spec's or a file's row; rows without open threads are left as they are. */
export function withOpenThreads(item: vscode.TreeItem, node: LoomNode, counts: OpenThreadCounts | undefined): vscode.TreeItem {
  if (!counts || node.kind === 'group' || node.kind === 'note' || node.kind === 'stage') return item;
  const file = fileOf(node);
  if (node.kind !== 'spec' && !file) return item;
  const n = counts.openCount(node.dir, file);
  if (!n) return item;
  const note = n === 1 ? t('host.tree.1OpenCommentThread') : t('host.tree.openCommentThreads', { n });
  item.description = item.description ? `${String(item.description)} · ${note}` : note;
  if (typeof item.tooltip === 'string') item.tooltip = `${item.tooltip}\n${note}`;
  else if (item.tooltip === undefined && node.kind !== 'spec') item.tooltip = note;
  return item;
}
