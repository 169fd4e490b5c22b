import { CorruptArtifactError, CorruptStateError, LoomError, OverrideRefusedError, SpecLockedError, TransitionRefusedError } from '../core/errors';
import type { TransitionCheck } from '../core/pipeline/transitionCheck';

/** What a tool answers: one JSON object, with `error` and usually `hint` when it refused (loom's convention). */
export type ToolResult = Record<string, unknown>;

/**
 * A refusal a tool decides on: thrown from deep inside a tool, answered as a result object, so
 * the agent reads why and what to do next and the server goes on answering.
 */
export class ToolRefusal extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    readonly extra: ToolResult = {},
  ) {
    super(message);
  }
}

export const refusalResult = (error: string, hint?: string, extra: ToolResult = {}): ToolResult => ({ error, ...(hint ? { hint } : {}), ...extra });

/** Every failure a tool can meet, as a result object naming the file or cause; nothing is thrown at the client. */
export function resultOfError(e: unknown): ToolResult {
  if (e instanceof ToolRefusal) return refusalResult(e.message, e.hint, e.extra);
  if (e instanceof TransitionRefusedError) {
    const check = e.details.check as TransitionCheck | undefined;
    return refusalResult(e.message, 'fix what `reasons` names, then call again; loom_get_pipeline_context shows what the stage needs', {
      // `code` and `codes` are stable English words; `error` and `reasons` are in the display language.
      code: 'transition-refused',
      reasons: e.reasons,
      codes: e.details.codes ?? [],
      ...(e.details.file ? { file: e.details.file } : {}),
      ...(check ? { unmet: check.unmet, confirmations: check.confirmations } : {}),
    });
  }
  if (e instanceof SpecLockedError)
    return refusalResult(e.message, 'another process drives this spec (a task run, loom run, another agent): wait for it to finish, then call again', {
      code: 'spec-locked',
      file: e.file,
      pid: e.pid,
    });
  if (e instanceof CorruptStateError || e instanceof CorruptArtifactError) {
    return refusalResult(e.message, 'fix or restore the file by hand (it was left untouched), then call again', { code: 'corrupt-file', ...(e.file ? { file: e.file } : {}) });
  }
  if (e instanceof OverrideRefusedError) return refusalResult(e.message, undefined, { code: 'override-refused', ...(e.file ? { file: e.file } : {}) });
  if (e instanceof LoomError) return refusalResult(e.message, undefined, { code: 'refused', ...(e.file ? { file: e.file } : {}) });
  return refusalResult(`the tool failed: ${e instanceof Error ? e.message : String(e)}`, 'nothing more was changed; the server keeps answering', { code: 'tool-failed' });
}
