import { TransitionRefusedError } from '../core/errors';
import { FAILED_STAGE } from '../core/files/vocabulary';
import { stageOf } from '../core/pipeline/pipelineDefinition';
import { onlyCompressionMissing } from '../core/pipeline/refusals';
import type { TransitionCheck } from '../core/pipeline/transitionCheck';
import type { SpecPipeline } from '../core/repository/specPipeline';
import { ToolRefusal, type ToolResult } from './results';
import type { ToolContext } from './tool';
import { stageDescription, t } from '../core/messages';

/** How a person confirms when the client cannot ask them: the three places a stage may be confirmed from. */
const howToConfirm = (spec: SpecPipeline) => t('mcp.howToConfirm', { specDir: spec.snapshot.specDir });

/** The question put to the person, in the display language: which spec, which stage, what it produced, what comes next. */
export function confirmationQuestion(spec: SpecPipeline, check: Pick<TransitionCheck, 'to' | 'confirmations'> | undefined, verb: 'advance' | 'approve'): string {
  const specDir = spec.snapshot.specDir;
  const stage = spec.stage === null ? undefined : stageOf(spec.definition, spec.stage);
  const produced = (stage?.outputs ?? []).filter((f) => spec.snapshot.files.has(f));
  const next = check && check.to !== spec.stage ? stageOf(spec.definition, check.to) : undefined;
  // Only a known stage has a gate, so an unknown one is only ever left.
  const asks = spec.stage === null ? t('mcp.ask.leaveUnknown', { specDir }) : t(verb === 'approve' ? 'mcp.ask.approve' : 'mcp.ask.leave', { specDir, stage: spec.stage });
  const nextLine = !next
    ? t('mcp.ask.nextCompletes')
    : next.description
      ? t('mcp.ask.nextDescribed', { stage: next.id, description: stageDescription(next.id, next.description) ?? next.description })
      : t('mcp.ask.next', { stage: next.id });
  return [
    asks,
    produced.length ? t('mcp.ask.produced', { files: produced.join(', ') }) : t('mcp.ask.producedNothing'),
    nextLine,
    ...(check?.confirmations.length ? [t('mcp.ask.youConfirm', { confirmations: check.confirmations.join('; ') })] : []),
    t('mcp.ask.moveOn'),
  ].join('\n');
}

// `confirmed_by` is one of three fixed English values (like `code`), for the agent to branch on.
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
    'compression-required',
    t('mcp.compression.required', { specDir: spec.snapshot.specDir, stage: spec.stage ?? t('mcp.stage.unknown') }),
    t('mcp.compression.requiredHint', { tool }),
    { compression_required: true, required_action: 'compress_closed_stage_context', reasons: [...reasons], current_stage: spec.stage },
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
    throw new ToolRefusal('spec-failed', t('mcp.advance.specFailed', { specDir: spec.snapshot.specDir }), t('mcp.advance.specFailedHint', { specDir: spec.snapshot.specDir }));
  }
  if (stage?.humanApproval) {
    throw new ToolRefusal('human-approval-gate', t('mcp.advance.humanApprovalGate', { stage: stage.id }), howToConfirm(spec), {
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
      throw new ToolRefusal('confirmation-needed', t('mcp.advance.needsConfirmation', { specDir: spec.snapshot.specDir, stage: spec.stage ?? t('mcp.stage.unknown') }), howToConfirm(spec), {
        current_stage: spec.stage,
        needs_confirmation: true,
        confirmations: check.confirmations,
      });
    }
    if (asked.answer === 'declined')
      throw new ToolRefusal('user-declined', t('mcp.advance.notConfirmed', { specDir: spec.snapshot.specDir, stage: spec.stage ?? t('mcp.stage.unknown'), why: asked.why }), t('mcp.hint.askUser'));
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
    throw new ToolRefusal('no-gate', t('mcp.approve.noGate', { specDir: spec.snapshot.specDir, stage: spec.stage ?? t('mcp.stage.unknown') }), t('mcp.approve.noGateHint'));
  }
  const forward = spec.next().find((c) => c.kind === 'forward');
  // An unready gate is refused before the person is troubled with it.
  if (forward && forward.unmet.length) {
    throw new ToolRefusal('gate-not-ready', t('mcp.approve.notReady', { specDir: spec.snapshot.specDir, stage: stage.id }), t('mcp.approve.notReadyHint'), {
      reasons: forward.unmet,
      current_stage: spec.stage,
    });
  }
  // An interactive stage (not a human-approval gate, which loom's approve passes without it) asks for it too.
  const compressionConfirmed = options.compressionConfirmed === true;
  if (forward && forward.compression.length && !compressionConfirmed) throw compressionRefusal(spec, tool, forward.compression);
  const asked = await ctx.confirm(confirmationQuestion(spec, forward, 'approve'));
  if (asked.answer === 'declined') throw new ToolRefusal('user-declined', t('mcp.approve.notApproved', { specDir: spec.snapshot.specDir, stage: stage.id, why: asked.why }), t('mcp.hint.askUser'));
  const how = asked.answer === 'accepted' ? 'the user, through the MCP client' : 'the agent, reporting the user’s agreement';
  const reason = asked.answer === 'accepted' ? `via MCP: ${tool}, approved by the user through the MCP client` : `via MCP: ${tool}, after the agent reported the user's agreement`;
  return moved(spec, spec.approve({ compressionConfirmed, reason, now: ctx.now() }), how);
}
