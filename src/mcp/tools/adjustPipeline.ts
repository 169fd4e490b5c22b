import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { parseWorkflow, WORKFLOW_FILE, WorkflowStepSchema, type WorkflowStep } from '../../core/files/workflow';
import { TASK_ID_PATTERN } from '../../core/files/vocabulary';
import { dynamicSteps } from '../../core/repository/loomRepository';
import type { SpecPipeline } from '../../core/repository/specPipeline';
import { t } from '../../core/messages';
import { ToolRefusal } from '../results';
import { changeableSpec } from '../specAccess';
import { defineTool } from '../tool';

/** The steps the spec follows now, as loom's getSteps: its dynamic_steps, else the workflow's pipeline, else the stages of the schema. */
function currentSteps(spec: SpecPipeline): WorkflowStep[] {
  const chosen = dynamicSteps(spec.snapshot.state);
  if (chosen) return chosen;
  let text: string | undefined;
  try {
    text = readFileSync(join(spec.snapshot.repoRoot, WORKFLOW_FILE), 'utf8');
  } catch {
    // no workflow: the schema's stages
  }
  const steps = text === undefined ? undefined : parseWorkflow(WORKFLOW_FILE, text).workflow?.pipelines?.[spec.pipelineType]?.steps;
  return steps?.length
    ? steps
    : spec.definition.stages.map((s) => WorkflowStepSchema().parse({ id: s.id, ...(s.skill ? { skill: s.skill } : {}), ...(s.description ? { description: s.description } : {}) }));
}

/** A stage a person must pass: leaving it out of the remaining steps needs the person, not the agent's word. */
const needsPerson = (spec: SpecPipeline, step: WorkflowStep) => step.gate === 'human-approval' || spec.definition.stages.some((s) => s.id === step.id && s.confirmation);

export const adjustPipeline = defineTool({
  name: 'loom_adjust_pipeline',
  group: 'pipeline',
  description:
    'Change the steps still ahead of the spec (dynamic_steps in pipeline.state.json), e.g. when the change turns out to span modules. Stages already entered stay; the new steps follow them. Ask the user first: leaving out a gate or an interactive stage needs their confirmation in the client.',
  input: z.object({
    spec_dir: z.string().optional().describe('Spec directory (optional if attached)'),
    new_remaining_steps: z
      .array(z.object({ id: z.string().regex(TASK_ID_PATTERN, 'a stage id'), skill: z.string().optional(), description: z.string().optional() }))
      .min(1)
      .describe('The steps after the ones already entered: [{ id, skill?, description? }]'),
  }),
  writes: ['pipeline.state.json', 'progress.md'],
  run: async (args, ctx) => {
    const { spec } = changeableSpec(ctx, args.spec_dir);
    const current = currentSteps(spec);
    const entered = new Set([...(spec.snapshot.state?.stage_history ?? []).map((h) => h.stage), spec.stage]);
    // A step already in the pipeline keeps what the workflow says of it (outputs, gate, validators).
    const remaining = args.new_remaining_steps.map((s) => WorkflowStepSchema().parse({ ...current.find((c) => c.id === s.id), ...s }));
    // What is left out: the steps that were still ahead of the current stage.
    const ahead = current.slice(current.findIndex((s) => s.id === spec.stage) + 1);
    const dropped = ahead.filter((s) => !entered.has(s.id) && !remaining.some((r) => r.id === s.id));
    const droppedGates = dropped.filter((s) => needsPerson(spec, s)).map((s) => s.id);
    const specDir = spec.snapshot.specDir;
    const asked = await ctx.confirm(
      [
        t('mcp.adjust.ask', { specDir, stage: spec.stage ?? t('mcp.stage.unknown') }),
        t('mcp.adjust.from', { steps: remaining.map((s) => s.id).join(' → ') }),
        dropped.length ? t('mcp.adjust.leftOut', { steps: dropped.map((s) => s.id).join(', ') }) : t('mcp.adjust.nothingLeftOut'),
        t('mcp.adjust.question'),
      ].join('\n'),
    );
    if (asked.answer === 'declined') throw new ToolRefusal('user-declined', t('mcp.adjust.declined', { specDir, why: asked.why }), t('mcp.hint.askUser'));
    if (asked.answer === 'unavailable' && droppedGates.length) {
      throw new ToolRefusal('would-skip-person', t('mcp.adjust.skipsPerson', { stages: droppedGates.join(', ') }), t('mcp.adjust.skipsPersonHint'), { dropped: droppedGates });
    }
    const merged = spec.adjustSteps(current, remaining, { now: ctx.now() });
    return {
      ok: true,
      spec_dir: spec.snapshot.specDir,
      current_stage: spec.stage,
      dynamic_steps: merged,
      confirmed_by: asked.answer === 'accepted' ? 'the user, through the MCP client' : 'the agent, reporting the user’s agreement',
    };
  },
});
