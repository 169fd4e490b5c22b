import { t } from '../core/messages';
import { MEMORY_STORE_FILE } from '../core/memory/memoryStore';
import { syncFeatureMemory } from '../core/memory/featureMemory';
import { hasRole } from '../core/pipeline/stageRoles';
import { handOnPlan } from '../core/pipelineRun/branchHandOn';
import type { SpecPipeline } from '../core/repository/specPipeline';
import { specLanguage } from '../core/specdir/specLanguage';
import type { CliIo } from './io';

/**
 * `sync --spec-dir D`: Synced by Loom at the stage that syncs (loom's index-update skill): the
 * feature's decisions and pitfalls into `.loom/memory/store.json`, through loom_add_memory's own
 * writer, and the exact commands that hand the branch on (push, pull request), which a terminal
 * runs where VS Code's git cannot. Exit 1 before the sync stage: nothing is written then.
 */
export function syncFeature(s: SpecPipeline, io: CliIo, asJson: boolean, remote: string | undefined, waitMs: number): number {
  const { snapshot } = s;
  if (!s.stage || !hasRole(s.definition, s.stage, 'sync')) {
    io.err(t('cli.sync.notAtStage', { specDir: snapshot.specDir, stage: s.stage ?? '-' }));
    return 1;
  }
  const language = specLanguage(snapshot);
  const { added, found } = syncFeatureMemory(snapshot, language, new Date().toISOString(), waitMs);
  const plan = handOnPlan(snapshot, language, remote);
  if (asJson) {
    io.out(JSON.stringify({ spec_dir: snapshot.specDir, memory: { file: MEMORY_STORE_FILE, found, added }, branch: plan.branch, worktree: plan.worktree ?? null, commands: plan.commands }, null, 2));
    return 0;
  }
  io.out(
    [
      t('memory.sync.added', { specDir: snapshot.specDir, added: added.length, found, file: MEMORY_STORE_FILE }),
      ...added.map((e) => `  + [${e.type}] ${e.content}`),
      t('handOn.commands'),
      ...plan.commands.map((c) => `  ${c}`),
    ].join('\n'),
  );
  return 0;
}
