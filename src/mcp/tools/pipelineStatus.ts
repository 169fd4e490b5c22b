import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { WORKFLOW_FILE, FAILED_STAGE, PIPELINE_STATE_FILE } from '../../core/port/vocabulary';
import { findSpecDirs, unreadableFiles, type UnreadableFile, type SpecPipeline } from '../../core/port/specs';
import { stagePlaces } from '../../core/port/reports';
import { statusJson } from '../../cli/format';
import { t } from '../../core/port/messages';
import { pipelineContext, tasksSummary } from '../pipelineContext';
import { changeableSpec, checkProjectRoot, openRepository } from '../specAccess';
import { defineTool } from '../tool';

const DEFAULT_STATUS_LIMIT = 10;
const CONSTITUTION = '.loom/rules/constitution.md';

/**
 * Whether a spec is still moving, as loom's active_only counts it: not at its pipeline's end, not
 * failed; a spec whose stage is unknown needs attention, so it counts. Read off its stage alone.
 */
function isActive(spec: SpecPipeline): boolean {
  const failed = spec.stage === FAILED_STAGE;
  const placed = stagePlaces(spec.definition, spec.stage, spec.snapshot.state);
  const lost = spec.stage === null || (!failed && placed.position < 0);
  return lost || (!failed && !placed.finished);
}

/**
 * What an agent must be told of a spec without asking for more: each of its files that cannot be
 * read, where, and (for pipeline.state.json) that its stage is unknown, so that it is not taken for
 * a spec with no stage yet.
 */
function specHealth(spec: SpecPipeline, files: readonly UnreadableFile[]): string[] {
  const { snapshot } = spec;
  const issues = files.map((f) => t('mcp.status.unreadableFile', { line: f.line, message: f.message }));
  if (spec.stage === null && files.some((f) => f.file === PIPELINE_STATE_FILE)) issues.push(t('mcp.status.stageUnknown', { specDir: snapshot.specDir, file: PIPELINE_STATE_FILE }));
  return issues;
}

/** What loom's health check reports about the repository itself. */
function healthIssues(root: string, workflowProblems: readonly { message: string }[]): string[] {
  const issues: string[] = [];
  if (!existsSync(join(root, WORKFLOW_FILE))) issues.push(t('mcp.status.missingFile', { file: WORKFLOW_FILE }));
  for (const d of workflowProblems) issues.push(d.message);
  try {
    const placeholders = readFileSync(join(root, CONSTITUTION), 'utf8').match(/\{\{[A-Z_]+\}\}/g);
    if (placeholders) issues.push(t('mcp.status.placeholders', { count: placeholders.length }));
  } catch {
    // no constitution: loom does not report it either
  }
  return issues;
}

export const getProjectStatus = defineTool({
  name: 'loom_get_project_status',
  group: 'pipeline',
  description:
    'Every spec of the repository: its stage, its tasks, and the health issues of the repository (missing workflow, unrendered placeholders). Reads only what that answer needs: a file it needs that cannot be read is named (file_problems); every other file’s problems are loom_validate’s. detail "full" adds each spec’s moves with every check and the problems of all its files.',
  input: z.object({
    project_root: z.string().optional().describe('Project root (must be the repository this server serves)'),
    limit: z.number().int().positive().optional().describe('At most this many pipelines (default 10)'),
    active_only: z.boolean().optional().describe('Only pipelines that have not completed or failed'),
    detail: z
      .enum(['summary', 'full'])
      .optional()
      .describe('summary (default): one row per spec, from the files it needs; full: each spec’s status with its next steps, every check of each, and the diagnostics of all its files'),
  }),
  writes: [],
  run: (args, ctx) => {
    checkProjectRoot(ctx, args.project_root);
    const repo = openRepository(ctx);
    // Each spec read on demand: its state, task states and handoffs (what loom's status reads), the rest for `full` only.
    const rows = findSpecDirs(repo.root, repo.specRoots).map((dir) => {
      const s = repo.readOnDemand(dir);
      const full = args.detail === 'full' ? statusJson(s.status('full')) : undefined;
      const taskStates = [...s.snapshot.taskStates.values()];
      const handoffs = s.snapshot.handoffs.size;
      // Once the row's files are read: the problems of those (all of them, for `full`).
      const unreadable = unreadableFiles(s.snapshot);
      s.dispose();
      return {
        active: isActive(s),
        health: specHealth(s, unreadable),
        summary: {
          spec_dir: s.snapshot.specDir,
          stage: s.stage,
          pipeline_type: s.pipelineType,
          tasks_total: tasksSummary(s).total,
          tasks_done: taskStates.filter((t) => t.status === 'done').length,
          tasks_blocked: taskStates.filter((t) => t.status === 'blocked').length,
          handoffs_total: handoffs,
          updated_at: s.snapshot.state?.updated_at ?? null,
          // Said by default, so that `stage: null` is not taken for a spec with no stage yet.
          ...(unreadable.length ? { file_problems: unreadable.map((f) => ({ file: `${s.snapshot.specDir}/${f.file}`, line: f.line, message: f.message })) } : {}),
        },
        full,
      };
    });
    const chosen = args.active_only ? rows.filter((r) => r.active) : rows;
    const limit = args.limit ?? DEFAULT_STATUS_LIMIT;
    const returned = chosen.slice(0, limit);
    return {
      project_root: repo.root,
      active_pipelines: rows.filter((r) => r.active).length,
      total_pipelines: rows.length,
      returned_pipelines: returned.length,
      truncated: chosen.length > limit,
      omitted_pipelines: Math.max(0, chosen.length - limit),
      detail: args.detail ?? 'summary',
      pipelines: returned.map((r) => r.full ?? r.summary),
      read_more_hint: chosen.length > limit ? t('mcp.status.readMore') : null,
      health_issues: [...healthIssues(repo.root, repo.workflowProblems), ...rows.flatMap((r) => r.health)],
    };
  },
});

export const getPipelineContext = defineTool({
  name: 'loom_get_pipeline_context',
  group: 'pipeline',
  description:
    'What to do now on a spec: the current stage, its skill and outputs, whether it is a gate, the next stage and what still blocks it, recent handoffs and the tasks. Read this before acting.',
  input: z.object({
    spec_dir: z.string().optional().describe('Spec directory (optional if attached)'),
    detail: z.enum(['summary', 'full']).optional().describe('summary (default) or full (every handoff)'),
    handoff_limit: z.number().int().positive().optional().describe('At most this many handoffs in summary (default 5)'),
  }),
  writes: [],
  run: (args, ctx) => pipelineContext(changeableSpec(ctx, args.spec_dir).spec, { full: args.detail === 'full', handoffLimit: args.handoff_limit }),
});
