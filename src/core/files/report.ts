/**
 * Markdown reports (test-report.md, verify-report.md, review-feedback.md) are read for a verdict
 * line and, where evidence is required, an evidence receipt.
 */
export type Verdict = 'PASS' | 'FAIL';

export interface EvidenceReceipt {
  command?: string;
  exitCode?: number;
  file?: string;
  sha256?: string;
}

export interface Report {
  file: string;
  verdict?: Verdict;
  /** 1-based line of the verdict, for diagnostics. */
  verdictLine?: number;
  evidence: EvidenceReceipt;
  /** review-feedback.md: lines naming BLOCKER / FAIL / CHANGES_REQUESTED. */
  blockingMarkers: { line: number; marker: string }[];
}

// `verdict: PASS`, `**Verdict**: FAIL`, `- verdict：PASS`, and loom's Chinese form `结论：通过` / `结论：不通过`.
const VERDICT_EN = /^[\s>*_`#-]*verdict[\s*_`]*[:：][\s*_`]*(PASS|FAIL)\b/i;
const VERDICT_ZH = /^[\s>*_`#-]*结论[\s*_`]*[:：][\s*_`]*(不通过|通过)/;
// `**evidence-file:** x` closes its emphasis after the colon, like `**Verdict:** PASS`.
const FIELD = /^[\s>*_`-]*(evidence-command|evidence-exit-code|evidence-file|evidence-sha256)[\s*_`]*[:：](?:\s*(?:\*\*|__)(?=\s))?\s*(.*?)\s*$/i;
const MARKER = /\b(BLOCKER|CHANGES_REQUESTED|FAIL)\b/;

// Only a matching pair: `npm test -- --grep "login"` keeps its closing quote.
const unquote = (s: string) => s.replace(/^([`'"])(.*)\1$/, '$2').trim();

export function parseReport(file: string, text: string): Report {
  const report: Report = { file, evidence: {}, blockingMarkers: [] };
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    const en = VERDICT_EN.exec(line);
    const zh = en ? null : VERDICT_ZH.exec(line);
    if (en || zh) {
      // The last verdict wins: reports are appended to when re-run.
      report.verdict = en ? (en[1].toUpperCase() as Verdict) : zh![1] === '通过' ? 'PASS' : 'FAIL';
      report.verdictLine = index + 1;
      return;
    }
    const field = FIELD.exec(line);
    if (field) {
      const value = unquote(field[2]);
      switch (field[1].toLowerCase()) {
        case 'evidence-command': report.evidence.command = value; break;
        case 'evidence-exit-code': report.evidence.exitCode = Number.parseInt(value, 10); break;
        case 'evidence-file': report.evidence.file = value; break;
        case 'evidence-sha256': report.evidence.sha256 = value.toLowerCase(); break;
      }
      return;
    }
    const marker = MARKER.exec(line);
    if (marker) report.blockingMarkers.push({ line: index + 1, marker: marker[1] });
  });
  return report;
}

export function hasEvidenceReceipt(report: Report): boolean {
  const e = report.evidence;
  return e.command !== undefined || e.exitCode !== undefined || e.file !== undefined || e.sha256 !== undefined;
}

export const REPORT_FILES = ['test-report.md', 'verify-report.md', 'review-feedback.md', 'review-request.md', 'review-response.md'] as const;
