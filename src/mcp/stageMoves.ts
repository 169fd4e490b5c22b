import { TransitionRefusedError } from '../core/errors';
import { FAILED_STAGE } from '../core/files/vocabulary';
import { stageOf } from '../core/pipeline/pipelineDefinition';
import { onlyCompressionMissing } from '../core/pipeline/refusals';
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

/** loom 3's answer when only the caller's word on compression is missing (pipeline-engine.js advance). */
function compressionRefusal(spec: SpecPipeline, tool: string, reasons: readonly string[]): ToolRefusal {
  return new ToolRefusal(
    `${spec.snapshot.specDir}: ${spec.stage} requires context compression before advancing; nothing was changed`,
    `the stage handoff is written: compress the closed stage's raw context with your host's compression, then call ${tool} again with compression_confirmed: true`,
    { code: 'compression-required', compression_required: true, required_action: 'compress_closed_stage_context', reasons: [...reasons], current_stage: spec.stage },
  );
}

/** The refusal, when it is only the compression that is missing; else the error as it is. */
function withCompression(e: unknown, spec: SpecPipeline, tool: string): unknown {
  return e instanceof TransitionRefusedError && onlyCompressionMissing(e.details, e.reasons) ? compressionRefusal(spec, tool, e.reasons) : e;
}

/**
 * loom_advance_pipeline: the same checks as Advance, through the spec's actor. A human-approval
 * gate refuses (loom: "use approve"); an interactive stage moves only when the person confirms,
 * through elicitation where the client can ask them, otherwise the agent is told to ask. Where
 * loom 3 asks for it, the move needs `compression_confirmed` (the agent compressed the closed
 * stage's context first), and is refused as loom refuses it without.
 */
export async function advanceOverMcp(spec: SpecPipeline, ctx: ToolContext, tool: string, options: { compressionConfirmed?: boolean } = {}): Promise<ToolResult> {
  const stage = spec.stage === null ? undefined : stageOf(spec.definition, spec.stage);
  const compressionConfirmed = options.compressionConfirmed === true;
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
    return moved(spec, spec.advance({ compressionConfirmed, reason: `via MCP: ${tool}`, now: ctx.now() }), 'no confirmation needed');
  } catch (e) {
    const check = onlyConfirmationMissing(e);
    if (!check) throw withCompression(e, spec, tool);
    // The person is asked only once nothing else is missing, the compression included.
    if (check.compression.length) throw compressionRefusal(spec, tool, check.compression);
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
    try {
      return moved(
        spec,
        spec.advance({ confirm: true, compressionConfirmed, reason: `via MCP: ${tool}, confirmed by the user through the MCP client`, now: ctx.now() }),
        'the user, through the MCP client',
      );
    } catch (again) {
      throw withCompression(again, spec, tool);
    }
  }
}

/**
 * loom_approve_gate: only at a stage that asks for a person. Where the client can ask, the person
 * answers here; otherwise the call itself is the agent's report that the user agreed, as in loom.
 */
export async function approveOverMcp(spec: SpecPipeline, ctx: ToolContext, tool: string, options: { compressionConfirmed?: boolean } = {}): Promise<ToolResult> {
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
  // An interactive stage (not a human-approval gate, which loom's approve passes without it) asks for it too.
  const compressionConfirmed = options.compressionConfirmed === true;
  if (forward && forward.compression.length && !compressionConfirmed) throw compressionRefusal(spec, tool, forward.compression);
  const asked = await ctx.confirm(confirmationQuestion(spec, forward, 'approve'));
  if (asked.answer === 'declined')
    throw new ToolRefusal(`${spec.snapshot.specDir}: the user did not approve ${spec.stage} (${asked.why}); nothing was changed`, 'ask the user what is missing, then call again');
  const how = asked.answer === 'accepted' ? 'the user, through the MCP client' : 'the agent, reporting the user’s agreement';
  const reason = asked.answer === 'accepted' ? `via MCP: ${tool}, approved by the user through the MCP client` : `via MCP: ${tool}, after the agent reported the user's agreement`;
  return moved(spec, spec.approve({ compressionConfirmed, reason, now: ctx.now() }), how);
}
