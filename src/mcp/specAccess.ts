import { resolve } from 'node:path';
import { PIPELINE_STATE_FILE } from '../core/files/pipelineState';
import { LoomRepository } from '../core/repository/loomRepository';
import type { SpecPipeline } from '../core/repository/specPipeline';
import { loadSpec } from '../core/specdir/loadSpec';
import type { SpecSnapshot } from '../core/specdir/specSnapshot';
import { withRunLock } from '../core/store/runLock';
import { insideRepository } from './paths';
import { ToolRefusal } from './results';
import type { ToolContext } from './tool';

/** Read afresh on every call: another process (VS Code, the CLI, loom, a second agent) may have changed anything. */
export const openRepository = (ctx: ToolContext) => new LoomRepository(ctx.session.root, { pipeline: { lockWaitMs: ctx.lockWaitMs } });

/** loom's `project_root` is accepted only as the repository this server serves: a model cannot point it elsewhere. */
export function checkProjectRoot(ctx: ToolContext, projectRoot: string | undefined): void {
  if (projectRoot === undefined) return;
  if (resolve(ctx.session.root, projectRoot) !== ctx.session.root) {
    throw new ToolRefusal(
      `project_root "${projectRoot}" is not the repository this server serves (${ctx.session.root}); nothing was read or written`,
      'leave project_root out, or start another server with --cwd <repo>',
    );
  }
}

/** The spec_dir of the call, else the attached one (loom's SessionStore.resolveSpecDir). */
export function specDirOf(ctx: ToolContext, specDir: string | undefined): string {
  const chosen = specDir ?? ctx.session.specDir;
  if (!chosen) throw new ToolRefusal('No spec_dir. Call loom_attach_spec first or pass spec_dir.', 'spec_dir is the spec directory relative to the repository, such as specs/2026-11-29+login');
  return chosen;
}

/** The spec named by the call (or attached), confined to the repository and read from disk now. */
export function specOf(ctx: ToolContext, specDir: string | undefined): { repo: LoomRepository; spec: SpecPipeline } {
  const chosen = specDirOf(ctx, specDir);
  const abs = insideRepository(ctx.session.root, chosen, 'spec_dir');
  const repo = openRepository(ctx);
  const spec = repo.get(abs);
  if (!spec)
    throw new ToolRefusal(
      `spec_dir "${chosen}" is not a spec directory of ${ctx.session.root}`,
      `expected ${repo.specRoots.map((r) => `${r}/<name>`).join(' or ')}; loom_get_project_status lists them`,
    );
  return { repo, spec };
}

/**
 * Stage changes start from pipeline.state.json: a corrupt one, or one naming no stage of the
 * pipeline, is reported by name and never overwritten (as the CLI's `changeable`).
 */
export function changeableSpec(ctx: ToolContext, specDir: string | undefined): { repo: LoomRepository; spec: SpecPipeline } {
  const found = specOf(ctx, specDir);
  const { spec } = found;
  const file = `${spec.snapshot.specDir}/${PIPELINE_STATE_FILE}`;
  const problems = spec.diagnostics.filter((d) => d.file === file && d.severity === 'error').map((d) => d.message);
  if (spec.snapshot.stateCondition === 'invalid')
    throw new ToolRefusal(`${file} is corrupt, so the current stage is unknown; nothing was written`, 'fix or restore the file by hand, then call again', { file, problems });
  if (spec.diagnostics.some((d) => d.code === 'unknown-stage')) {
    throw new ToolRefusal(`${file} names a stage the ${spec.pipelineType} pipeline does not have; nothing was written`, `the stages are ${spec.definition.stages.map((s) => s.id).join(', ')}`, {
      file,
      problems,
    });
  }
  return found;
}

/**
 * A write of one spec file under the spec's run lock, from a snapshot read inside the lock, so
 * that two agents writing at once both land; a file already on disk that does not parse is
 * reported by name and left as it is.
 */
export function writeUnderLock<T>(ctx: ToolContext, spec: SpecPipeline, file: string | undefined, write: (fresh: SpecSnapshot) => T): T {
  return withRunLock(
    spec.snapshot,
    () => {
      const fresh = loadSpec(spec.snapshot.repoRoot, spec.snapshot.dir);
      const path = `${fresh.specDir}/${file}`;
      const broken = file === undefined ? [] : fresh.diagnostics.filter((d) => d.file === path && d.severity === 'error');
      if (broken.length)
        throw new ToolRefusal(`${path} cannot be read, so it was not overwritten: ${broken.map((d) => d.message).join('; ')}`, 'fix or restore the file by hand, then call again', { file: path });
      return write(fresh);
    },
    { waitMs: ctx.lockWaitMs },
  );
}
