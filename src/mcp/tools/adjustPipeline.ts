import { z } from 'zod';
import { WorkflowStepSchema, type WorkflowStep } from '../../core/port/files';
import { TASK_ID_PATTERN } from '../../core/port/vocabulary';
import { request } from '../../core/port/request';
import { currentSteps, type SpecPipeline } from '../../core/port/specs';
import { t } from '../../core/port/messages';
import { questionText, refusalOf } from '../answers';
import { ToolRefusal } from '../results';
import { specOf } from '../specAccess';
import { defineTool } from '../tool';

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
  // The spec's actor decides and asks; the client asks the person, or the agent's report stands where the actor takes it.
  run: async (args, ctx) => {
    const { spec } = specOf(ctx, args.spec_dir);
    const current = currentSteps(spec);
    // A step already in the pipeline keeps what the workflow says of it (outputs, gate, validators).
    const remaining = args.new_remaining_steps.map((s) => WorkflowStepSchema().parse({ ...current.find((c) => c.id === s.id), ...s }));
    const intent = { type: 'adjustSteps' as const, current, remaining };
    const first = await request(spec, intent, { now: ctx.now() });
    if (first.kind === 'refused') throw refusalOf(first, spec, 'loom_adjust_pipeline');
    if (first.kind === 'changed') return done(spec, first.steps, 'no confirmation needed');
    const specDir = spec.snapshot.specDir;
    const asked = await ctx.confirm(questionText(first));
    if (asked.answer === 'declined') throw new ToolRefusal('user-declined', t('mcp.adjust.declined', { specDir, why: asked.why }), t('mcp.hint.askUser'));
    if (asked.answer === 'unavailable' && !first.agentMayReport) {
      const dropped = first.facts.steps?.leftOutGates ?? [];
      throw new ToolRefusal('would-skip-person', t('mcp.adjust.skipsPerson', { stages: dropped.join(', ') }), t('mcp.adjust.skipsPersonHint'), { dropped, codes: ['confirmation-required'] });
    }
    const byPerson = asked.answer === 'accepted';
    const second = await request(spec, intent, { confirm: { ...first.step, by: byPerson ? 'person' : 'agent' }, now: ctx.now() });
    if (second.kind === 'refused') throw refusalOf(second, spec, 'loom_adjust_pipeline');
    if (second.kind !== 'changed')
      throw new ToolRefusal('would-skip-person', t('mcp.adjust.skipsPerson', { stages: (second.facts.steps?.leftOutGates ?? []).join(', ') }), t('mcp.adjust.skipsPersonHint'));
    return done(spec, second.steps, byPerson ? 'the user, through the MCP client' : 'the agent, reporting the user’s agreement');
  },
});

const done = (spec: SpecPipeline, steps: WorkflowStep[], by: string) => ({
  ok: true,
  spec_dir: spec.snapshot.specDir,
  current_stage: spec.stage,
  dynamic_steps: steps,
  confirmed_by: by,
});
