import { resolve } from 'node:path';
import { PIPELINE_STATE_FILE } from '../core/port/vocabulary';
import { LoomRepository, type SpecPipeline, specTaskIds } from '../core/port/specs';
import { insideRepository } from './paths';
import { t } from '../core/port/messages';
import { ToolRefusal } from './results';
import type { ToolContext } from './tool';

/** Read afresh on every call: another process (VS Code, the CLI, loom, a second agent) may have changed anything. */
export const openRepository = (ctx: ToolContext) => new LoomRepository(ctx.session.root, { pipeline: { lockWaitMs: ctx.lockWaitMs } });

/** loom's `project_root` is accepted only as the repository this server serves: a model cannot point it elsewhere. */
export function checkProjectRoot(ctx: ToolContext, projectRoot: string | undefined): void {
  if (projectRoot === undefined) return;
  if (resolve(ctx.session.root, projectRoot) !== ctx.session.root) {
    throw new ToolRefusal('foreign-project-root', t('mcp.projectRoot.foreign', { projectRoot, root: ctx.session.root }), t('mcp.projectRoot.foreignHint'));
  }
}

/** The spec_dir of the call, else the attached one (loom's SessionStore.resolveSpecDir). */
export function specDirOf(ctx: ToolContext, specDir: string | undefined): string {
  const chosen = specDir ?? ctx.session.specDir;
  if (!chosen) throw new ToolRefusal('no-spec-dir', t('mcp.specDir.missing'), t('mcp.specDir.missingHint'));
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
      'not-a-spec',
      t('mcp.specDir.notASpec', { specDir: chosen, root: ctx.session.root }),
      t('mcp.specDir.notASpecHint', { roots: repo.specRoots.map((r) => `${r}/<name>`).join(', ') }),
    );
  return { repo, spec };
}

/** A task the spec does not have: refused before anything is written, naming the tasks it has. */
export function unknownTask(spec: SpecPipeline, task: string): ToolRefusal {
  const known = specTaskIds(spec.snapshot);
  return new ToolRefusal('unknown-task', t('mcp.task.unknown', { specDir: spec.snapshot.specDir, task }), known.length ? t('mcp.task.knownHint', { tasks: known.join(', ') }) : t('mcp.task.noneHint'));
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
  if (spec.snapshot.stateCondition === 'invalid') throw new ToolRefusal('corrupt-file', t('input.stateCorrupt', { file }), t('mcp.hint.fixFile'), { file, problems });
  if (spec.diagnostics.some((d) => d.code === 'unknown-stage')) {
    const stages = spec.definition.stages.map((s) => s.id).join(', ');
    throw new ToolRefusal('unknown-current-stage', t('input.unknownStage', { file, pipeline: spec.pipelineType }), t('mcp.hint.stages', { stages }), { file, problems });
  }
  return found;
}
