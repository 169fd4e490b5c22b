import { CorruptArtifactError, CorruptStateError, LoomError, OverrideRefusedError, SpecLockedError, TransitionRefusedError } from '../core/port/errors';
import { t } from '../core/port/messages';
import type { TransitionCheck } from '../core/port/reports';

/** What a tool answers: one JSON object, with `error` and usually `hint` when it refused (loom's convention). */
export type ToolResult = Record<string, unknown>;

/**
 * Why a tool refused, as a stable English word next to the `error` and `hint` worded in the
 * display language: what scripts and agents branch on, the same in every language.
 */
export type RefusalCode =
  // The core's errors (resultOfError).
  | 'transition-refused'
  /** loom.approvals.requirePerson: the agent's word is not the person's (ours; loom has no such rule). */
  | 'person-required'
  | 'spec-locked'
  | 'corrupt-file'
  | 'override-refused'
  | 'refused'
  | 'tool-failed'
  // The call itself.
  | 'invalid-arguments'
  | 'outside-repository'
  | 'foreign-project-root'
  | 'no-spec-dir'
  | 'not-a-spec'
  | 'unknown-current-stage'
  | 'unknown-stage'
  | 'unknown-task'
  | 'unknown-group'
  | 'unknown-doc'
  | 'doc-not-found'
  | 'section-not-found'
  | 'telemetry-off'
  | 'invalid-handoff'
  | 'stage-mismatch'
  | 'wrong-round'
  | 'unreadable-input'
  | 'state-exists'
  // Stage changes and the person's word.
  | 'compression-required'
  | 'spec-failed'
  | 'human-approval-gate'
  | 'confirmation-needed'
  | 'user-declined'
  | 'no-gate'
  | 'gate-not-ready'
  | 'would-skip-person';

/**
 * A refusal a tool decides on: thrown from deep inside a tool, answered as a result object, so
 * the agent reads why and what to do next and the server goes on answering. `code` comes first
 * and is required, so no refusal goes out without one.
 */
export class ToolRefusal extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly hint?: string,
    readonly extra: ToolResult = {},
  ) {
    super(message);
  }
}

/** `error` and `hint` in the display language, `code` a stable English word; the extra fields as they are. */
export const refusalResult = (code: RefusalCode, error: string, hint?: string, extra: ToolResult = {}): ToolResult => ({ error, ...(hint ? { hint } : {}), code, ...extra });

/** Every failure a tool can meet, as a result object naming the file or cause; nothing is thrown at the client. */
export function resultOfError(e: unknown): ToolResult {
  if (e instanceof ToolRefusal) return refusalResult(e.code, e.message, e.hint, e.extra);
  if (e instanceof TransitionRefusedError) {
    const check = e.details.check as TransitionCheck | undefined;
    return refusalResult('transition-refused', e.message, t('mcp.error.transitionHint'), {
      // `codes` are stable English words too; `reasons` are in the display language.
      reasons: e.reasons,
      codes: e.details.codes ?? [],
      ...(e.details.file ? { file: e.details.file } : {}),
      ...(check ? { unmet: check.unmet, confirmations: check.confirmations } : {}),
    });
  }
  if (e instanceof SpecLockedError) return refusalResult('spec-locked', e.message, t('mcp.error.lockedHint'), { file: e.file, pid: e.pid });
  if (e instanceof CorruptStateError || e instanceof CorruptArtifactError) {
    return refusalResult('corrupt-file', e.message, t('mcp.error.corruptHint'), e.file ? { file: e.file } : {});
  }
  if (e instanceof OverrideRefusedError) return refusalResult('override-refused', e.message, undefined, e.file ? { file: e.file } : {});
  if (e instanceof LoomError) return refusalResult('refused', e.message, undefined, e.file ? { file: e.file } : {});
  return refusalResult('tool-failed', t('mcp.error.toolFailed', { detail: e instanceof Error ? e.message : String(e) }), t('mcp.error.toolFailedHint'));
}
