import { z } from 'zod';
import type { Handoff } from '../../core/port/intent';
import { HANDOFF_STATUSES, TASK_ID_PATTERN } from '../../core/port/vocabulary';
import { stageOf } from '../../core/port/reports';
import { request } from '../../core/port/request';
import type { SpecPipeline } from '../../core/port/specs';
import { refusalOf } from '../answers';
import { insideRepository } from '../paths';
import { pipelineContext } from '../pipelineContext';
import { t } from '../../core/port/messages';
import { ToolRefusal, type ToolResult } from '../results';
import { specOf } from '../specAccess';
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
 * Writes `handoffs/<stage or task>.json` and progress.md through the spec's actor, as loom's
 * writeStageHandoff / writeHandoff do: the actor says whether the spec has that stage or task
 * and whether loom can read the handoff. Artifact paths must stay inside the repository (the
 * server's own boundary, checked before anything is asked).
 */
async function writeHandoffOverMcp(spec: SpecPipeline, ask: HandoffAsk, ctx: ToolContext, tool: string, currentStageOnly = false): Promise<{ path: string; handoff: Handoff }> {
  const artifacts = ask.artifacts ?? (Array.isArray(ask.data?.artifacts) ? (ask.data.artifacts as unknown[]).map(String) : undefined);
  for (const a of artifacts ?? []) insideRepository(spec.snapshot.repoRoot, a, 'artifact');
  const answer = await request(
    spec,
    {
      type: 'writeHandoff',
      handoff: {
        ...(ask.stage !== undefined ? { stage: ask.stage } : { task: ask.task_id }),
        status: ask.status ?? (typeof ask.data?.status === 'string' ? ask.data.status : undefined),
        ...(ask.summary !== undefined ? { summary: ask.summary } : typeof ask.data?.summary === 'string' ? { summary: ask.data.summary } : {}),
        ...(artifacts ? { artifacts } : {}),
        ...(ask.data ? { data: ask.data } : {}),
        writtenBy: 'loom-vscode mcp',
        currentStageOnly,
      },
    },
    { now: ctx.now() },
  );
  if (answer.kind !== 'changed') throw refusalOf(answer as never, spec, tool);
  return { path: answer.file, handoff: answer.handoff };
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
  run: async (args, ctx) => {
    if (args.stage === undefined && args.task_id === undefined) throw new ToolRefusal('invalid-arguments', t('mcp.handoff.needsName'), t('mcp.handoff.needsNameHint'));
    if (args.stage !== undefined && args.task_id !== undefined) throw new ToolRefusal('invalid-arguments', t('mcp.handoff.bothNames'), t('mcp.handoff.needsNameHint'));
    const { spec } = specOf(ctx, args.spec_dir);
    const { path, handoff } = await writeHandoffOverMcp(spec, args, ctx, 'loom_write_handoff');
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
  run: async (args, ctx) => {
    const { spec } = specOf(ctx, args.spec_dir);
    // A request: the spec read what it wrote (the handoff, progress.md), for the context below.
    const { path, handoff } = await writeHandoffOverMcp(spec, args, ctx, 'loom_stage_checkpoint', true);
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
