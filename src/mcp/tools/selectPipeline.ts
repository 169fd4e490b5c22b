import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PIPELINE_STATE_FILE } from '../../core/files/pipelineState';
import { parseWorkflow, WORKFLOW_FILE, type Workflow } from '../../core/files/workflow';
import { newPipelineState } from '../../core/pipeline/stateRecord';
import { initPipelineState, loomVersionOf } from '../../core/store/stateStore';
import { selectPipeline } from '../pipelineSelection';
import { t } from '../../core/messages';
import { ToolRefusal } from '../results';
import { specOf, writeUnderLock } from '../specAccess';
import { defineTool } from '../tool';

function readWorkflow(root: string): Workflow | undefined {
  try {
    return parseWorkflow(WORKFLOW_FILE, readFileSync(join(root, WORKFLOW_FILE), 'utf8')).workflow;
  } catch {
    return undefined;
  }
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
    const file = `${found.snapshot.specDir}/${PIPELINE_STATE_FILE}`;
    if (found.snapshot.stateCondition !== 'missing') throw new ToolRefusal('state-exists', t('mcp.select.stateExists', { file }), t('mcp.select.stateExistsHint'), { file });
    const asked = await ctx.confirm(
      t('mcp.select.ask', {
        specDir: found.snapshot.specDir,
        steps: selection.steps.map((s) => s.id).join(' → '),
        risk: t(RISK_WORDS[selection.risk]),
        reasoning: selection.reasoning,
      }),
    );
    if (asked.answer === 'declined') throw new ToolRefusal('user-declined', t('mcp.select.declined', { why: asked.why }), t('mcp.hint.askUser'));
    const now = ctx.now();
    const state = {
      ...newPipelineState(found.snapshot.dir, found.pipelineType, selection.steps[0].id, now, loomVersionOf(ctx.session.root)),
      current_stage_started_at: now,
      dynamic_steps: selection.steps,
    };
    writeUnderLock(ctx, found, PIPELINE_STATE_FILE, (fresh) => {
      if (fresh.stateCondition !== 'missing') throw new ToolRefusal('state-exists', t('mcp.select.writtenMeanwhile', { file }), t('mcp.select.stateExistsHint'), { file });
      initPipelineState(fresh, state, now);
    });
    return { ...selection, initialized: true, state, confirmed_by: asked.answer === 'accepted' ? 'the user, through the MCP client' : 'the agent, reporting the user’s agreement' };
  },
});
