import * as vscode from 'vscode';
import { testLocationsOfRun } from '../../core/executing';
import type { SpecSnapshot } from '../../core/specdir/specSnapshot';
import { findWorktree } from '../../core/specdir/worktree';

/**
 * The sentence Run Tasks shows before it starts: where the test reporter will be allowed to
 * write, found as the run will find it (the worktree's test folders and those the tasks own).
 * Undefined without a worktree, when the run cannot start anyway.
 */
export function testReporterScopeLine(snapshot: SpecSnapshot): string | undefined {
  const worktree = findWorktree(snapshot);
  if (!worktree) return undefined;
  const locations = testLocationsOfRun(worktree, snapshot.tasks.values(), [`${snapshot.specDir}/`]);
  const where = [...locations.folders, ...locations.beside.map((b) => vscode.l10n.t('{0} (test files {1})', b.folder || './', b.extensions.join(', ')))].join(', ');
  return vscode.l10n.t(
    'The test reporter may write only in the test locations: {0}. Never in hidden folders such as .github/ or .vscode/, nor files a tool runs by name (package.json, CI workflows, git hooks).',
    where,
  );
}
