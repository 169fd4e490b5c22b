import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PIPELINE_STATE_FILE, WORKFLOW_FILE } from '../../core/port/vocabulary';
import { parseWorkflow, type Workflow } from '../../core/port/files';
import type { Refused } from '../../core/port/answer';
import { request } from '../../core/port/request';
import type { SpecPipeline } from '../../core/port/specs';
import { selectPipeline } from '../pipelineSelection';
import { t } from '../../core/port/messages';
import { questionText, refusalOf } from '../answers';
import { ToolRefusal } from '../results';
import { specOf } from '../specAccess';
import { defineTool } from '../tool';

function readWorkflow(root: string): Workflow | undefined {
  try {
    return parseWorkflow(WORKFLOW_FILE, readFileSync(join(root, WORKFLOW_FILE), 'utf8')).workflow;
  } catch {
    return undefined;
  }
}

/** loom's answer when the spec has started already: its steps are changed, not chosen again. */
function startRefused(a: Refused, spec: SpecPipeline, meanwhile = false): ToolRefusal {
  if (a.code !== 'state-exists') return refusalOf(a, spec, 'loom_select_pipeline');
  const file = `${spec.snapshot.specDir}/${PIPELINE_STATE_FILE}`;
  return new ToolRefusal('state-exists', t(meanwhile ? 'mcp.select.writtenMeanwhile' : 'mcp.select.stateExists', { file }), t('mcp.select.stateExistsHint'), { file, codes: a.codes });
}

const RISK_WORDS = { low: 'mcp.risk.low', medium: 'mcp.risk.medium', high: 'mcp.risk.high' } as const;

export const selectPipelineTool = defineTool({
  name: 'loom_select_pipeline',
  group: 'pipeline',
  description:
    'Propose the steps for a request (the workflow’s keyword rules, else by risk) without writing anything; show them to the user with the risk and the reasoning. Only after the user agreed, call again with initialize: true to start the spec on those steps (dynamic_steps in a new pipeline.state.json).',
  input: z.object({
    request: z.string().trim().min(1).describe('The user’s request, in their words'),
    spec_dir: z.string().optional().describe('Spec directory (optional if attached; needed with initialize)'),
    initialize: z.boolean().optional().describe('true only after the user confirmed the proposed steps: writes them to a new pipeline.state.json'),
  }),
  writes: ['pipeline.state.json (with initialize)', 'progress.md (with initialize)'],
  run: async (args, ctx) => {
    const found = args.spec_dir !== undefined || ctx.session.specDir ? specOf(ctx, args.spec_dir).spec : undefined;
    const selection = selectPipeline(args.request, { root: ctx.session.root, workflow: readWorkflow(ctx.session.root), specFiles: found?.snapshot.files });
    if (!args.initialize)
      return { ...selection, initialized: false, next_required_action: 'show the steps, the risk and the reasoning to the user; call again with initialize: true only once they agreed' };
    if (!found) throw new ToolRefusal('no-spec-dir', t('mcp.select.needsSpecDir'), t('mcp.select.needsSpecDirHint'));
    // The spec's actor starts it on the steps, once the person agreed (or the agent reports they did).
    const why = [t('mcp.select.why', { risk: t(RISK_WORDS[selection.risk]), reasoning: selection.reasoning })];
    const intent = { type: 'startPipeline' as const, steps: selection.steps, why };
    const first = await request(found, intent, { now: ctx.now() });
    if (first.kind === 'refused') throw startRefused(first, found);
    if (first.kind === 'changed') return { ...selection, initialized: true, state: first.state, confirmed_by: 'no confirmation needed' };
    const asked = await ctx.confirm(questionText(first));
    if (asked.answer === 'declined') throw new ToolRefusal('user-declined', t('mcp.select.declined', { why: asked.why }), t('mcp.hint.askUser'));
    const byPerson = asked.answer === 'accepted';
    const second = await request(found, intent, { confirm: { ...first.step, by: byPerson ? 'person' : 'agent' }, now: ctx.now() });
    if (second.kind !== 'changed') throw second.kind === 'refused' ? startRefused(second, found, true) : new ToolRefusal('user-declined', t('mcp.select.declined', { why: '' }), t('mcp.hint.askUser'));
    return { ...selection, initialized: true, state: second.state, confirmed_by: byPerson ? 'the user, through the MCP client' : 'the agent, reporting the user’s agreement' };
  },
});
