/** A problem found in one of loom's files, pointing at the line that holds it (1-based). */
export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  /** Path relative to the repository root, with forward slashes. */
  file: string;
  line: number;
  column: number;
  severity: Severity;
  message: string;
  /** A stable code, e.g. `json-syntax`, `schema`, `unknown-behavior`, so views can filter and quick-fix. */
  code?: string;
}

export function diagnostic(file: string, message: string, where: { line?: number; column?: number } = {}, severity: Severity = 'error', code?: string): Diagnostic {
  return { file, line: where.line ?? 1, column: where.column ?? 1, severity, message, ...(code ? { code } : {}) };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
