import { type Diagnostic, onlyCompressionMissing, type RefusalCode } from '../core/port/reports';
import { PIPELINE_STATE_FILE } from '../core/port/vocabulary';
import { t } from '../core/port/messages';
import type { Answer, Changed, NeedsConfirmation, Refused } from '../core/port/answer';
import type { IntentType } from '../core/port/intent';
import type { SpecPipeline } from '../core/port/specs';
import { formatDiagnostic } from './format';
import type { CliIo } from './io';

/** Refusals about the input itself (a file that does not read, a name the spec lacks): exit 2, as bad usage. */
const BAD_INPUT: ReadonlySet<RefusalCode> = new Set<RefusalCode>(['state-unreadable', 'invalid-request', 'unknown-task', 'unknown-stage', 'invalid-handoff', 'corrupt-file']);

/** The actor's answer was not a change: main() prints it and exits with its code. */
export class NotChanged extends Error {
  constructor(
    readonly answer: Refused | NeedsConfirmation,
    /** The diagnostics that say where a file stops being readable. */
    readonly details: readonly Diagnostic[],
    /** The spec asked about, for a remedy said as a command. */
    readonly specDir: string,
  ) {
    super(answer.kind === 'refused' ? answer.message : answer.question.title);
  }
}

/** The change the actor made; anything else is thrown to main() to print. */
export function changedOrThrow<T extends IntentType>(answer: Answer<T>, spec: SpecPipeline): Changed<T> {
  if (answer.kind === 'changed') return answer;
  const stateFile = `${spec.snapshot.specDir}/${PIPELINE_STATE_FILE}`;
  // Where the input stops being readable: the workflow's own problems, else the state file's.
  const unreadable = answer.kind === 'refused' && answer.code === 'state-unreadable';
  const details = !unreadable ? [] : spec.definition.problems?.length ? spec.definition.problems.slice(1) : spec.diagnostics.filter((d) => d.file === stateFile);
  throw new NotChanged(answer, details, spec.snapshot.specDir);
}

/**
 * Prints an answer that is not a change as a person at a terminal and a script both need it: the
 * sentence and each reason on stderr; with `--json`, one document with the stable codes. Where
 * only a person's word is missing, the CLI cannot ask: it says what is to be confirmed and how.
 * Returns the exit code: 2 for unusable input, 1 otherwise.
 */
export function printNotChanged(e: NotChanged, io: CliIo, asJson: boolean): number {
  const a = e.answer;
  if (a.kind === 'needs-confirmation') {
    const f = a.facts;
    const message = f.verb === 'complete' ? t('refusal.cannotComplete', { specDir: f.specDir, stage: f.from }) : t('refusal.cannotMove', { specDir: f.specDir, from: f.from, to: f.to });
    const reasons = f.confirmations.length ? f.confirmations : a.question.lines;
    if (asJson) io.out(JSON.stringify({ error: message, code: 'transition-refused', codes: ['confirmation-required'], reasons }, null, 2));
    io.err(`loom-vscode: ${message}${reasons.map((r) => `\n  - ${r}`).join('')}\n${t('cli.confirmHint')}`);
    return 1;
  }
  if (BAD_INPUT.has(a.code)) {
    if (asJson) io.out(JSON.stringify({ error: a.message, code: 'unreadable-input', codes: a.codes, reasons: a.reasons }, null, 2));
    io.err(`loom-vscode: ${a.message}${e.details.length ? e.details.map((d) => `\n  ${formatDiagnostic(d)}`).join('') : a.reasons.map((r) => `\n  - ${r}`).join('')}`);
    return 2;
  }
  // Only the caller's word on compression is missing: loom 3's compression_required refusal.
  const compressionOnly = onlyCompressionMissing(a, a.reasons);
  // The remedy of a gate Advance does not pass, said as this CLI's command (loom's "Use: loom run --approve").
  // The word on compression is this CLI's flag; the actor's reason names no surface's way of giving it.
  const hint = a.remedies.some((r) => r.kind === 'approve')
    ? t('cli.approveHint', { specDir: e.specDir })
    : a.remedies.some((r) => r.kind === 'compress-context')
      ? t('cli.compressionHint')
      : undefined;
  if (asJson)
    io.out(
      JSON.stringify(
        {
          error: a.message,
          code: compressionOnly ? 'compression-required' : 'transition-refused',
          codes: a.codes.filter((c) => c !== 'transition-refused'),
          reasons: a.reasons,
          ...(compressionOnly ? { compression_required: true, required_action: 'compress_closed_stage_context' } : {}),
          ...(hint ? { hint } : {}),
        },
        null,
        2,
      ),
    );
  io.err(`loom-vscode: ${a.message}${a.reasons.map((r) => `\n  - ${r}`).join('')}${hint ? `\n${hint}` : ''}`);
  return 1;
}
