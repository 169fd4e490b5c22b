import { t } from '../core/port/messages';
import type { NeedsConfirmation, Refused } from '../core/port/answer';
import { onlyCompressionMissing } from '../core/port/reports';
import { type SpecPipeline, specTaskIds } from '../core/port/specs';
import { ToolRefusal, type RefusalCode as ToolCode, type ToolResult } from './results';

/** How a person confirms when the client cannot ask them: the three places a stage may be confirmed from. */
export const howToConfirm = (spec: SpecPipeline) => t('mcp.howToConfirm', { specDir: spec.snapshot.specDir });

/** The question the actor put, as elicitation shows it: the title, then each line. */
export function questionText(a: NeedsConfirmation): string {
  const f = a.facts;
  const intro =
    f.verb === 'approve'
      ? t('mcp.ask.approve', { specDir: f.specDir, stage: f.from })
      : f.verb === 'advance' || f.verb === 'complete'
        ? t('mcp.ask.leave', { specDir: f.specDir, stage: f.from })
        : t('mcp.ask.byAgent');
  return [intro, a.question.title, ...a.question.lines, t('mcp.ask.moveOn')].join('\n');
}

/** loom 3's answer when only the caller's word on compression is missing (pipeline-engine.js advance). */
export function compressionRefusal(spec: SpecPipeline, tool: string, reasons: readonly string[]): ToolRefusal {
  return new ToolRefusal(
    'compression-required',
    t('mcp.compression.required', { specDir: spec.snapshot.specDir, stage: spec.stage ?? t('mcp.stage.unknown') }),
    t('mcp.compression.requiredHint', { tool }),
    { compression_required: true, required_action: 'compress_closed_stage_context', reasons: [...reasons], current_stage: spec.stage, codes: ['compression-required'] },
  );
}

/** The actor's codes as loom's MCP tools name the same refusals (the actor's own go along in `codes`). */
function toolCodeOf(a: Refused): ToolCode {
  if (a.codes.includes('corrupt-file')) return 'corrupt-file';
  switch (a.code) {
    case 'state-unreadable':
      return 'unknown-current-stage';
    case 'spec-failed':
    case 'no-gate':
    case 'human-approval-gate':
    case 'unknown-task':
    case 'unknown-stage':
    case 'invalid-handoff':
    case 'stage-mismatch':
    case 'state-exists':
    case 'unreadable-input':
    case 'person-required':
      return a.code;
    case 'invalid-request':
      return 'invalid-arguments';
    default:
      return 'transition-refused';
  }
}

const HINTS: Partial<Record<ToolCode, () => string>> = {
  'corrupt-file': () => t('mcp.hint.fixFile'),
  'transition-refused': () => t('mcp.error.transitionHint'),
  'no-gate': () => t('mcp.approve.noGateHint'),
  'person-required': () => t('agentHost.refusal.mcpHint'),
  'invalid-handoff': () => t('mcp.handoff.invalidHint'),
  'state-exists': () => t('mcp.select.stateExistsHint'),
  'stage-mismatch': () => t('mcp.checkpoint.wrongStageHint'),
};

/**
 * The actor's refusal as a tool result: its sentence and reasons as they are, its codes for the
 * agent to branch on, loom's own code beside them, and what to do next.
 */
export function refusalOf(a: Refused, spec: SpecPipeline, tool: string): ToolRefusal {
  if (onlyCompressionMissing(a, a.reasons)) return compressionRefusal(spec, tool, a.reasons);
  const code = toolCodeOf(a);
  const tasks = specTaskIds(spec.snapshot);
  const hint =
    code === 'spec-failed'
      ? t('mcp.advance.specFailedHint', { specDir: spec.snapshot.specDir })
      : code === 'human-approval-gate'
        ? t('mcp.gate.approveHint', { specDir: spec.snapshot.specDir })
        : code === 'unknown-task'
          ? tasks.length
            ? t('mcp.task.knownHint', { tasks: tasks.join(', ') })
            : t('mcp.task.noneHint')
          : HINTS[code]?.();
  const extra: ToolResult = {
    reasons: a.reasons,
    codes: a.codes,
    current_stage: a.stage,
    // Paths as this server names them: relative to the repository.
    ...(a.file ? { file: `${spec.snapshot.specDir}/${a.file}` } : {}),
    ...(a.check ? { unmet: a.check.unmet, confirmations: a.check.confirmations } : {}),
    // A gate waits for the person's approval, as loom_get_pipeline_context says (needs_confirmation).
    ...(a.code === 'human-approval-gate' ? { needs_confirmation: true } : {}),
  };
  if (a.code === 'state-unreadable') {
    const file = `${spec.snapshot.specDir}/pipeline.state.json`;
    extra.file = file;
    extra.problems = spec.diagnostics.filter((d) => d.file === file && d.severity === 'error').map((d) => d.message);
  }
  // The remedy of a refusal, said as this server's tools are named.
  const message = code === 'no-gate' ? `${a.message}: ${t('mcp.remedy.advance')}` : a.message;
  return new ToolRefusal(code, message, hint, extra);
}

/** The actor still asks for a person's word the client did not give: loom's way of saying how to confirm. */
export function confirmationNeeded(a: NeedsConfirmation, spec: SpecPipeline): ToolRefusal {
  return new ToolRefusal('confirmation-needed', t('mcp.advance.needsConfirmation', { specDir: spec.snapshot.specDir, stage: a.step.from }), howToConfirm(spec), {
    current_stage: spec.stage,
    needs_confirmation: true,
    confirmations: a.facts.confirmations,
    question: questionText(a),
    codes: ['confirmation-required'],
  });
}
