import { t, specLanguage } from '../core/port/messages';
import { handOnLines, handOnMissing, handOnPlan, handOnReadiness, memoryTypeLabel } from '../core/port/sync';
import { request } from '../core/port/request';
import type { SpecPipeline } from '../core/port/specs';
import { changedOrThrow } from './answers';
import type { CliIo } from './io';

/**
 * `sync --spec-dir D`: Synced by Loom, the `sync` intent of the spec's actor (loom's index-update
 * skill): the feature's decisions and pitfalls into `.loom/memory/store.json` through
 * loom_add_memory's own writer; then the exact commands that hand the branch on (push, pull
 * request), which a terminal runs where VS Code's git cannot. The actor refuses it before the
 * stage that syncs (exit 1, nothing written), as it does on every surface.
 */
export async function syncFeature(s: SpecPipeline, io: CliIo, asJson: boolean, remote: string | undefined): Promise<number> {
  const { memory } = changedOrThrow(await request(s, { type: 'sync' }), s);
  const { snapshot } = s;
  const language = specLanguage(snapshot);
  const plan = handOnPlan(snapshot, language, remote);
  // The commands alone would fail on a branch or a remote that is not there: what to make first is said before them.
  const readiness = await handOnReadiness(plan, plan.worktree ?? snapshot.repoRoot);
  if (asJson) {
    const missing = handOnMissing(plan, readiness, language);
    io.out(
      JSON.stringify(
        {
          spec_dir: snapshot.specDir,
          memory,
          branch: plan.branch,
          worktree: plan.worktree ?? null,
          commands: plan.commands,
          branch_exists: readiness.branchExists,
          remote_exists: readiness.remoteExists,
          missing,
        },
        null,
        2,
      ),
    );
    return 0;
  }
  io.out(
    [
      t('memory.sync.added', { specDir: snapshot.specDir, added: memory.added.length, found: memory.found, file: memory.file }),
      ...memory.added.map((e) => `  + [${memoryTypeLabel(e.type, language)}] ${e.content}`),
      t('handOn.commands'),
      ...handOnLines(plan, readiness, language),
    ].join('\n'),
  );
  return 0;
}
