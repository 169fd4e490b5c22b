import * as vscode from 'vscode';
import type { TransitionCheck } from '../../core/pipeline/transitionCheck';
import { unfinishedTasks } from '../../core/views/remedies';
import type { SpecEntry } from '../specs/specRegistry';

type Action = { title: string; run: () => void };

/**
 * The remedies of a refused move, the one that helps first in front: with tasks left to run at the
 * stage that runs them, Run Tasks (they write test-report.md and the handoff when they are done);
 * otherwise `others` (Create Worktree, the file to fix) as they are.
 */
export function remediesFirstThingFirst(e: SpecEntry, check: TransitionCheck, others: Action[]): Action[] {
  if (unfinishedTasks(e.spec.definition, e.spec.stage, check).length === 0) return others;
  return [{ title: vscode.l10n.t('Run Tasks'), run: () => void vscode.commands.executeCommand('loom.runTasks', { specDir: e.dir }) }];
}
