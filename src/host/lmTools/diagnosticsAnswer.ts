import type { Diagnostic } from '../../core/port/reports';

/** More problems than this would crowd the model's context; the count says how many were left out. */
export const MAX_DIAGNOSTICS = 100;

/** Problems as a model reads them, errors first, at most MAX_DIAGNOSTICS of them. */
export function diagnosticsForModel(all: readonly Diagnostic[]): { problems: Diagnostic[]; total: number; errors: number } {
  const rank = (d: Diagnostic) => (d.severity === 'error' ? 0 : d.severity === 'warning' ? 1 : 2);
  const sorted = [...all].sort((a, b) => rank(a) - rank(b));
  return { problems: sorted.slice(0, MAX_DIAGNOSTICS), total: all.length, errors: all.filter((d) => d.severity === 'error').length };
}
