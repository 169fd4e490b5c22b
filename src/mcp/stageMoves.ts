import { TransitionRefusedError } from '../core/errors';
import { FAILED_STAGE } from '../core/files/vocabulary';
import { stageOf } from '../core/pipeline/pipelineDefinition';
import type { TransitionCheck } from '../core/pipeline/transitionCheck';
import type { SpecPipeline } from '../core/repository/specPipeline';
import { ToolRefusal, type ToolResult } from './results';
import type { ToolContext } from './tool';
import { stageDescription } from '../core/messages';

/** How a person confirms when the client cannot ask them: the three places a stage may be confirmed from. */
const howToConfirm = (spec: SpecPipeline) =>
  `ask the user whether to move on, showing them what the stage produced; once they have agreed, call loom_approve_gate. They can also confirm it themselves: Loom: Advance in VS Code, or \`loom-vscode advance --spec-dir ${spec.snapshot.specDir} --confirm\``;

/** The question put to the person: which spec, which stage, what it produced, what comes next. */
export function confirmationQuestion(spec: SpecPipeline, check: Pick<TransitionCheck, 'to' | 'confirmations'> | undefined, verb: 'advance' | 'approve'): string {
  const from = spec.stage ?? 'an unknown stage';
  const stage = spec.stage === null ? undefined : stageOf(spec.definition, spec.stage);
  const produced = (stage?.outputs ?? []).filter((f) => spec.snapshot.files.has(f));
  const next = check && check.to !== spec.stage ? stageOf(spec.definition, check.to) : undefined;
  return [
    `An agent asks to ${verb === 'approve' ? 'approve the gate of' : 'leave'} ${from} of ${spec.snapshot.specDir}.`,
    `It produced: ${produced.length ? produced.join(', ') : 'no declared outputs'}.`,
    next ? `Next: ${next.id}${next.description ? ` (${stageDescription(next.id, next.description)})` : ''}.` : 'Next: the pipeline completes.',
    ...(check?.confirmations.length ? [`You confirm: ${check.confirmations.join('; ')}.`] : []),
    'Move on?',
  ].join('\n');
}

const moved = (spec: SpecPipeline, r: { from: string; to: string; complete?: boolean }, how: string): ToolResult => ({
  ok: true,
  spec_dir: spec.snapshot.specDir,
  from: r.from,
  to: r.to,
  ...(r.complete ? { complete: true } : {}),
  confirmed_by: how,
  current_stage: spec.stage,
});

/** What stands in the way when only the person's word is missing: the check, else undefined. */
function onlyConfirmationMissing(e: unknown): TransitionCheck | undefined {
  if (!(e instanceof TransitionRefusedError)) return undefined;
  const check = e.details.check as TransitionCheck | undefined;
  return check && check.unmet.length === 0 && check.confirmations.length > 0 ? check : undefined;
}

/**
 * loom_advance_pipeline: the same checks as Advance, through the spec's actor. A human-approval
 * gate refuses (loom: "use approve"); an interactive stage moves only when the person confirms,
 * through elicitation where the client can ask them, otherwise the agent is told to ask.
 */
export async function advanceOverMcp(spec: SpecPipeline, ctx: ToolContext, tool: string): Promise<ToolResult> {
  const stage = spec.stage === null ? undefined : stageOf(spec.definition, spec.stage);
  if (spec.stage === FAILED_STAGE) {
    throw new ToolRefusal(
      `${spec.snapshot.specDir} has failed; nothing was changed`,
      `recover it first: Loom: Recover in VS Code, or \`loom-vscode recover --spec-dir ${spec.snapshot.specDir} --to <stage>\``,
    );
  }
  if (stage?.humanApproval) {
    throw new ToolRefusal(`${spec.stage} is a human-approval gate: use approve, after the user has reviewed it; nothing was changed`, howToConfirm(spec), {
      current_stage: spec.stage,
      needs_confirmation: true,
    });
  }
  try {
    return moved(spec, spec.advance({ reason: `via MCP: ${tool}`, now: ctx.now() }), 'no confirmation needed');
  } catch (e) {
    const check = onlyConfirmationMissing(e);
    if (!check) throw e;
    const asked = await ctx.confirm(confirmationQuestion(spec, check, 'advance'));
    if (asked.answer === 'unavailable') {
      throw new ToolRefusal(`${spec.snapshot.specDir}: leaving ${spec.stage} needs the user's confirmation; nothing was changed`, howToConfirm(spec), {
        current_stage: spec.stage,
        needs_confirmation: true,
        confirmations: check.confirmations,
      });
    }
    if (asked.answer === 'declined')
      throw new ToolRefusal(`${spec.snapshot.specDir}: the user did not confirm leaving ${spec.stage} (${asked.why}); nothing was changed`, 'ask the user what is missing, then call again');
    return moved(spec, spec.advance({ confirm: true, reason: `via MCP: ${tool}, confirmed by the user through the MCP client`, now: ctx.now() }), 'the user, through the MCP client');
  }
}

/**
 * loom_approve_gate: only at a stage that asks for a person. Where the client can ask, the person
 * answers here; otherwise the call itself is the agent's report that the user agreed, as in loom.
 */
export async function approveOverMcp(spec: SpecPipeline, ctx: ToolContext, tool: string): Promise<ToolResult> {
  const stage = spec.stage === null ? undefined : stageOf(spec.definition, spec.stage);
  if (!stage?.confirmation) {
    throw new ToolRefusal(
      `${spec.snapshot.specDir} has no gate to approve at ${spec.stage ?? 'an unknown stage'}: use loom_advance_pipeline; nothing was changed`,
      'loom_get_pipeline_context says whether the stage is a gate (is_gate, needs_confirmation)',
    );
  }
  const forward = spec.next().find((c) => c.kind === 'forward');
  // An unready gate is refused before the person is troubled with it.
  if (forward && forward.unmet.length) {
    throw new ToolRefusal(`${spec.snapshot.specDir} cannot pass ${spec.stage} yet; nothing was changed`, 'produce what `reasons` names, then ask again', {
      reasons: forward.unmet,
      current_stage: spec.stage,
    });
  }
  const asked = await ctx.confirm(confirmationQuestion(spec, forward, 'approve'));
  if (asked.answer === 'declined')
    throw new ToolRefusal(`${spec.snapshot.specDir}: the user did not approve ${spec.stage} (${asked.why}); nothing was changed`, 'ask the user what is missing, then call again');
  const how = asked.answer === 'accepted' ? 'the user, through the MCP client' : 'the agent, reporting the user’s agreement';
  const reason = asked.answer === 'accepted' ? `via MCP: ${tool}, approved by the user through the MCP client` : `via MCP: ${tool}, after the agent reported the user's agreement`;
  return moved(spec, spec.approve({ reason, now: ctx.now() }), how);
}
