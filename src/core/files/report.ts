/**
 * Markdown reports (test-report.md, verify-report.md, review-feedback.md) are read for a verdict
 * line and, where evidence is required, an evidence receipt — the way loom's artifact-checker.js
 * and pipeline-engine.js read them, so that both tools let the same reports through.
 */
export type Verdict = 'PASS' | 'FAIL';

export interface EvidenceReceipt {
  command?: string;
  /** NaN when the field is there but is not a whole number. */
  exitCode?: number;
  file?: string;
  sha256?: string;
}

export interface Report {
  file: string;
  /** The first verdict line loom recognises (`parseVerdict`); PARTIAL and BLOCKED count as FAIL. */
  verdict?: Verdict;
  /** The verdict word as written (`PASS`, `不通过`, `PARTIAL` ...). */
  verdictText?: string;
  /** 1-based line of the verdict, for diagnostics. */
  verdictLine?: number;
  /**
   * Without a verdict line loom guesses from the words in the report: PASS when it says PASS,
   * 通过 or "all checks passed" and never FAIL, 失败, 不通过 or BLOCKER.
   */
  inferredVerdict?: Verdict;
  /** review-feedback.md's approval check: the value of the first `verdict:` line, upper-cased. */
  reviewVerdict?: string;
  evidence: EvidenceReceipt;
  /** Words that block a review (BLOCKER, FAIL, CHANGES_REQUESTED, REJECTED ...), any case, with their lines. */
  blockingMarkers: { line: number; marker: string }[];
}

// `verdict: PASS`, `**Verdict:** FAIL`, `## 结论：通过`, `裁定: 失败`: loom's parseVerdict pattern.
const VERDICT = /^[\s>*_#-]*(?:verdict|结论|裁定)\s*[:：]\s*\**\s*([A-Za-z\u4e00-\u9fa5]+)/i;
const VERDICT_WORDS: ReadonlyMap<string, Verdict> = new Map([
  ['PASS', 'PASS'],
  ['通过', 'PASS'],
  ['FAIL', 'FAIL'],
  ['失败', 'FAIL'],
  ['不通过', 'FAIL'],
  ['BLOCKED', 'FAIL'],
  ['PARTIAL', 'FAIL'],
  ['部分', 'FAIL'],
]);
const REVIEW_VERDICT = /^\s*verdict\s*:\s*([^\r\n#]+)/i;
const SAYS_FAIL = /\bFAIL\b|失败|不通过|\bBLOCKER\b/;
const SAYS_PASS = /\bPASS\b|通过|all checks passed/i;
// `- evidence-file: evidence/test.log`, optionally in backticks: loom's validateReportEvidence.
const FIELD = /^\s*(?:[-*]\s*)?(evidence-command|evidence-exit-code|evidence-file|evidence-sha256)\s*:\s*(.+?)\s*$/i;
const MARKER = /\b(BLOCKER|FAIL|FAILED|CHANGES_REQUESTED|CHANGE_REQUESTED|REQUEST_CHANGES|REJECTED)\b/gi;

export function parseReport(file: string, text: string): Report {
  const report: Report = { file, evidence: {}, blockingMarkers: [] };
  const lines = text.split('\n');
  const fields = new Map<string, string>();
  lines.forEach((line, index) => {
    // Loom takes the first recognised verdict and the first value of each field.
    if (!report.verdict) {
      const word = VERDICT.exec(line)?.[1].toUpperCase();
      const verdict = word ? VERDICT_WORDS.get(word) : undefined;
      if (verdict) {
        report.verdict = verdict;
        report.verdictText = word;
        report.verdictLine = index + 1;
      }
    }
    if (report.reviewVerdict === undefined) {
      const review = REVIEW_VERDICT.exec(line);
      if (review) report.reviewVerdict = review[1].trim().toUpperCase();
    }
    const field = FIELD.exec(line);
    if (field && !fields.has(field[1].toLowerCase())) fields.set(field[1].toLowerCase(), field[2].replace(/^`|`$/g, ''));
    for (const m of line.matchAll(MARKER)) report.blockingMarkers.push({ line: index + 1, marker: m[1].toUpperCase() });
  });
  if (!report.verdict) report.inferredVerdict = SAYS_PASS.test(text) && !SAYS_FAIL.test(text) ? 'PASS' : 'FAIL';
  const value = (name: string) => fields.get(name);
  if (value('evidence-command') !== undefined) report.evidence.command = value('evidence-command');
  const exit = value('evidence-exit-code');
  if (exit !== undefined) report.evidence.exitCode = /^-?\d+$/.test(exit) ? Number(exit) : Number.NaN;
  if (value('evidence-file') !== undefined) report.evidence.file = value('evidence-file');
  if (value('evidence-sha256') !== undefined) report.evidence.sha256 = value('evidence-sha256')!.toLowerCase();
  return report;
}

export function hasEvidenceReceipt(report: Report): boolean {
  const e = report.evidence;
  return e.command !== undefined || e.exitCode !== undefined || e.file !== undefined || e.sha256 !== undefined;
}

export const REPORT_FILES = ['test-report.md', 'verify-report.md', 'review-feedback.md', 'review-request.md', 'review-response.md'] as const;
