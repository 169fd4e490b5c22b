import type { Answer, NeedsConfirmation } from '../core/port/answer';
import { request } from '../core/port/request';
import type { SpecPipeline } from '../core/port/specs';
import { t } from '../core/port/messages';
import { confirmationNeeded, questionText, refusalOf } from './answers';
import { ToolRefusal, type ToolResult } from './results';
import type { ToolContext } from './tool';

// `confirmed_by` is one of three fixed English values (like `code`), for the agent to branch on.
const moved = (spec: SpecPipeline, a: Answer<'advance' | 'approve'>, how: string): ToolResult => {
  if (a.kind !== 'changed') throw new Error('not a change');
  return {
    ok: true,
    spec_dir: spec.snapshot.specDir,
    from: a.from,
    to: a.to,
    ...('complete' in a && a.complete ? { complete: true } : {}),
    confirmed_by: how,
    current_stage: spec.stage,
  };
};

/** Anything but a change, as a tool result: the actor's refusal, or its question when the client could not ask. */
function notMoved(a: Answer<'advance' | 'approve'>, spec: SpecPipeline, tool: string): ToolRefusal {
  if (a.kind === 'refused') return refusalOf(a, spec, tool);
  return confirmationNeeded(a as NeedsConfirmation, spec);
}

/**
 * loom_advance_pipeline, through the spec's actor: the same answer as Advance. The actor refuses
 * a human-approval gate (loom: "use approve"); at an interactive stage the actor asks for the person's
 * word, which the client asks them for (elicitation) where it can; otherwise the agent is told
 * to ask. Where loom 3 asks for it, the move needs `compression_confirmed`.
 */
export async function advanceOverMcp(spec: SpecPipeline, ctx: ToolContext, tool: string, options: { compressionConfirmed?: boolean } = {}): Promise<ToolResult> {
  const intent = { type: 'advance' as const, compressionConfirmed: options.compressionConfirmed === true };
  const first = await request(spec, { ...intent, reason: `via MCP: ${tool}` }, { now: ctx.now() });
  if (first.kind === 'changed') return moved(spec, first, 'no confirmation needed');
  // A human-approval gate is the actor's refusal (Advance never passes it), rendered as any other.
  if (first.kind === 'refused') throw refusalOf(first, spec, tool);
  const asked = await ctx.confirm(questionText(first));
  if (asked.answer === 'unavailable') throw confirmationNeeded(first, spec);
  if (asked.answer === 'declined')
    throw new ToolRefusal('user-declined', t('mcp.advance.notConfirmed', { specDir: spec.snapshot.specDir, stage: first.step.from, why: asked.why }), t('mcp.hint.askUser'));
  const second = await request(
    spec,
    { ...intent, reason: `via MCP: ${tool}, confirmed by the user through the MCP client` },
    { confirm: first.step, approver: { by: 'person', through: 'elicitation' }, now: ctx.now() },
  );
  if (second.kind === 'changed') return moved(spec, second, 'the user, through the MCP client');
  throw notMoved(second, spec, tool);
}

/**
 * loom_approve_gate: the actor answers; where it asks for the person's word, the client asks
 * them; where the client cannot, the call itself is the agent's report that the user agreed,
 * as in loom, which the actor takes for a gate.
 */
export async function approveOverMcp(spec: SpecPipeline, ctx: ToolContext, tool: string, options: { compressionConfirmed?: boolean } = {}): Promise<ToolResult> {
  const intent = { type: 'approve' as const, compressionConfirmed: options.compressionConfirmed === true };
  const first = await request(spec, { ...intent, reason: `via MCP: ${tool}` }, { now: ctx.now() });
  if (first.kind === 'changed') return moved(spec, first, 'no confirmation needed');
  if (first.kind === 'refused') {
    // An unready gate is refused before the person is troubled with it.
    if (first.check && first.code !== 'compression-required' && first.code !== 'no-gate')
      throw new ToolRefusal('gate-not-ready', t('mcp.approve.notReady', { specDir: spec.snapshot.specDir, stage: first.stage ?? '?' }), t('mcp.approve.notReadyHint'), {
        reasons: first.reasons,
        codes: first.codes,
        current_stage: spec.stage,
      });
    throw refusalOf(first, spec, tool);
  }
  const asked = await ctx.confirm(questionText(first));
  if (asked.answer === 'declined')
    throw new ToolRefusal('user-declined', t('mcp.approve.notApproved', { specDir: spec.snapshot.specDir, stage: first.step.from, why: asked.why }), t('mcp.hint.askUser'));
  const byPerson = asked.answer === 'accepted';
  const reason = byPerson ? `via MCP: ${tool}, approved by the user through the MCP client` : `via MCP: ${tool}, after the agent reported the user's agreement`;
  // Without elicitation the call is the agent's word; the actor refuses it under loom.approvals.requirePerson.
  const approver = byPerson ? ({ by: 'person', through: 'elicitation' } as const) : ({ by: 'agent', through: 'mcp-agent-word' } as const);
  const second = await request(spec, { ...intent, reason }, { confirm: { ...first.step, by: approver.by }, approver, now: ctx.now() });
  if (second.kind === 'changed') return moved(spec, second, byPerson ? 'the user, through the MCP client' : 'the agent, reporting the user’s agreement');
  throw notMoved(second, spec, tool);
}
