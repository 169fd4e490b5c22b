import type * as vscode from 'vscode';
import { driftSummary, type SpecDrift } from '../../core/port/drift';
import type { LoomNode } from './nodes';

/** Where the tree reads each synced spec's drift (SpecDrifts). */
export interface DriftMarks {
  drift(dir: string): SpecDrift | undefined;
  readonly onDidChange: vscode.Event<string>;
}

/**
 * Marks the row of a synced spec whose code moved on without it ("3 files changed since a1b2c3d",
 * first in its description), and of one whose baseline cannot be had (a shallow clone).
 */
export function withDrift(item: vscode.TreeItem, node: LoomNode, marks: DriftMarks | undefined): vscode.TreeItem {
  if (!marks || node.kind !== 'spec') return item;
  const d = marks.drift(node.dir);
  // A spec with no baseline (no git, nothing committed yet) has nothing to say on its row.
  if (!d || d.status === 'clean' || d.status === 'no-baseline') return item;
  const note = `⚠ ${driftSummary(d)}`;
  // Accept Spec as Accurate (and Reconcile) are offered on a drifted spec's row.
  if (d.status === 'drifted' && item.contextValue) item.contextValue = `${item.contextValue}:drifted`;
  item.description = item.description ? `${note} · ${String(item.description)}` : note;
  return item;
}
