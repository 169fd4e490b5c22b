import { z } from 'zod';
import { HANDOFFS_DIR, WritableHandoffSchema, type Handoff } from '../../core/files/handoff';
import { HANDOFF_STATUSES, TASK_ID_PATTERN } from '../../core/files/vocabulary';
import { stageOf } from '../../core/pipeline/pipelineDefinition';
import type { SpecPipeline } from '../../core/repository/specPipeline';
import { specTaskIds } from '../../core/specdir/loadSpec';
import { writeHandoffRecord } from '../../core/store/stateStore';
import { insideRepository } from '../paths';
import { pipelineContext } from '../pipelineContext';
import { t } from '../../core/messages';
import { ToolRefusal, type ToolResult } from '../results';
import { changeableSpec, specOf, unknownTask, writeUnderLock } from '../specAccess';
import { defineTool, type ToolContext } from '../tool';

const handoffFields = {
  status: z.enum(HANDOFF_STATUSES).optional().describe('done (default) | partial | blocked | failed'),
  summary: z.string().optional().describe('Short handoff summary'),
  artifacts: z.array(z.string()).optional().describe('Paths of what was produced, relative to the repository'),
  data: z.record(z.string(), z.unknown()).optional().describe('More JSON fields to merge into the handoff'),
};

interface HandoffAsk {
  stage?: string;
  task_id?: string;
  status?: Handoff['status'];
  summary?: string;
  artifacts?: string[];
  data?: Record<string, unknown>;
}

/**
 * Writes `handoffs/<stage or task>.json` and progress.md under the run lock, as loom's
 * writeStageHandoff / writeHandoff do. The name becomes a file name, so it must be a stage of the
 * spec's pipeline or one of its tasks; artifact paths stay inside the repository.
 */
function writeHandoffOverMcp(spec: SpecPipeline, ask: HandoffAsk, ctx: ToolContext): { path: string; handoff: Handoff } {
  const name = ask.stage ?? ask.task_id!;
  if (ask.stage !== undefined && !stageOf(spec.definition, ask.stage)) {
    throw new ToolRefusal(
      'unknown-stage',
      t('mcp.handoff.unknownStage', { stage: ask.stage, pipeline: spec.pipelineType }),
      t('mcp.hint.stages', { stages: spec.definition.stages.map((s) => s.id).join(', ') }),
    );
  }
  if (ask.task_id !== undefined && !specTaskIds(spec.snapshot).includes(ask.task_id)) throw unknownTask(spec, ask.task_id);
  const artifacts = ask.artifacts ?? (Array.isArray(ask.data?.artifacts) ? (ask.data.artifacts as unknown[]).map(String) : []);
  for (const a of artifacts) insideRepository(spec.snapshot.repoRoot, a, 'artifact');
  const parsed = WritableHandoffSchema().safeParse({
    ...ask.data,
    ...(ask.stage !== undefined ? { stage: ask.stage } : { task_id: ask.task_id }),
    status: ask.status ?? ask.data?.status ?? 'done',
    summary: ask.summary ?? ask.data?.summary ?? '',
    artifacts,
    written_at: ctx.now(),
    written_by: 'loom-vscode mcp',
  });
  if (!parsed.success) throw new ToolRefusal('invalid-handoff', t('mcp.handoff.invalid', { detail: z.prettifyError(parsed.error) }), t('mcp.handoff.invalidHint'));
  const path = `${HANDOFFS_DIR}/${name}.json`;
  writeUnderLock(ctx, spec, path, (fresh) => writeHandoffRecord(fresh, name, parsed.data, ctx.now()));
  return { path, handoff: parsed.data };
}

const compact = (h: Handoff) => ({ stage: h.stage ?? null, task_id: h.task_id ?? null, status: h.status, summary: h.summary, artifacts: h.artifacts, written_at: h.written_at ?? null });

export const writeHandoff = defineTool({
  name: 'loom_write_handoff',
  group: 'pipeline',
  description: 'Write a stage or task handoff (handoffs/<stage or task>.json) and refresh progress.md. Give stage or task_id, not both. Use when a stage or task is finished, before advancing.',
  input: z.object({
    spec_dir: z.string().optional().describe('Spec directory (optional if attached)'),
    stage: z.string().regex(TASK_ID_PATTERN, 'a stage id').optional().describe('Stage id, e.g. brainstorming, planning'),
    task_id: z.string().regex(TASK_ID_PATTERN, 'a task id such as T1').optional().describe('Task id, e.g. T1'),
    ...handoffFields,
  }),
  writes: ['handoffs/<stage or task>.json', 'progress.md'],
  run: (args, ctx) => {
    if (args.stage === undefined && args.task_id === undefined) throw new ToolRefusal('invalid-arguments', t('mcp.handoff.needsName'), t('mcp.handoff.needsNameHint'));
    if (args.stage !== undefined && args.task_id !== undefined) throw new ToolRefusal('invalid-arguments', t('mcp.handoff.bothNames'), t('mcp.handoff.needsNameHint'));
    const { spec } = specOf(ctx, args.spec_dir);
    const { path, handoff } = writeHandoffOverMcp(spec, args, ctx);
    return {
      ok: true,
      path,
      handoff: compact(handoff),
      next_required_action: args.stage
        ? 'when the stage is finished, call loom_advance_pipeline (an interactive stage or gate needs the user’s confirmation)'
        : 'set the task’s state with loom_update_task_state; later tasks read this handoff to find its artifacts',
    };
  },
});

/** What loom 3's stage_checkpoint answers for advance: true (tools.js, loom_stage_checkpoint). */
const COMPRESS_THEN_ADVANCE = 'compress closed-stage raw context, then call loom_advance_pipeline with compression_confirmed=true';

export const stageCheckpoint = defineTool({
  name: 'loom_stage_checkpoint',
  group: 'pipeline',
  description:
    'One call at the end of a stage: write its handoff and progress.md and return the context that follows. It never advances (as in loom 3): compress the closed stage’s context, then call loom_advance_pipeline with compression_confirmed=true.',
  input: z.object({
    spec_dir: z.string().optional().describe('Spec directory (optional if attached)'),
    stage: z.string().regex(TASK_ID_PATTERN, 'a stage id').describe('The current stage'),
    ...handoffFields,
    advance: z.boolean().optional().describe('Deprecated: advancing is not performed here; compress the context, then call loom_advance_pipeline with compression_confirmed=true'),
    handoff_limit: z.number().int().positive().optional().describe('At most this many handoffs in the context (default 5)'),
  }),
  writes: ['handoffs/<stage>.json', 'progress.md'],
  run: (args, ctx) => {
    const { spec } = changeableSpec(ctx, args.spec_dir);
    if (args.stage !== spec.stage)
      throw new ToolRefusal('stage-mismatch', t('mcp.checkpoint.wrongStage', { stage: args.stage, current: spec.stage ?? t('mcp.stage.unknown') }), t('mcp.checkpoint.wrongStageHint'));
    const { path, handoff } = writeHandoffOverMcp(spec, args, ctx);
    spec.reload();
    const compress = stageOf(spec.definition, args.stage)?.compressionRequired === true;
    // loom 3 deliberately does not advance here: the agent compresses its context first.
    const advance: ToolResult = args.advance
      ? {
          ok: false,
          skipped: true,
          compression_required: true,
          required_action: 'compress_closed_stage_context',
          hint: t('mcp.handoff.advanceHint'),
        }
      : { ok: true, skipped: true };
    return {
      ok: true,
      path,
      handoff_summary: compact(handoff),
      advance,
      context: pipelineContext(spec, { handoffLimit: args.handoff_limit }),
      next_required_action: args.advance || compress ? COMPRESS_THEN_ADVANCE : 'call loom_advance_pipeline when ready',
    };
  },
});
