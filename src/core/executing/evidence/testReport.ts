import { writeSpecFiles } from '../../store/specFiles';
import type { SpecSnapshot } from '../../specdir/specSnapshot';
import type { EvidenceLog } from './testEvidence';
import { t, type Language } from '../../messages';

/**
 * `test-report.md`, written by the core from the test reporter's answer and its own test run:
 * the reporter's text (with any verdict or receipt lines of its own neutralised, so the file has
 * exactly one of each), the core's reasons, then the verdict and the evidence receipt that the
 * `evidenceReceiptValid` guard checks against the log's sha256.
 */
export const TEST_REPORT_FILE = 'test-report.md';

export interface TestReportInput {
  specName: string;
  verdict: 'PASS' | 'FAIL';
  reporterText: string;
  /** Why the core failed the report (exit code, unclosed behaviors, the reporter's FAIL). */
  reasons: readonly string[];
  finishedTasks: readonly string[];
  /**
   * Every requirement of the spec with its behaviors and whether traceability closes them: loom 3's
   * verify-artifacts.mjs refuses a PASS test report that does not name each requirement of spec.md.
   */
  requirements: readonly { id: string; behaviors: readonly string[]; closed: boolean }[];
  skippedTasks: readonly string[];
  evidence: EvidenceLog;
  now: string;
  language: Language;
}

/** The reporter may not write the verdict or the receipt: those lines are quoted, not parsed. */
export function neutralizeReportLines(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      if (/^[\s>*_`#-]*(verdict|结论)[\s*_`]*[:：]/i.test(line)) return line.replace(/(verdict|结论)/i, (m) => (m === '结论' ? '测试者结论' : "reporter's verdict"));
      if (/^[\s>*_`-]*evidence-(command|exit-code|file|sha256)/i.test(line)) return line.replace(/evidence-/i, 'reported evidence-');
      return line;
    })
    .join('\n');
}

export function renderTestReport(input: TestReportInput): string {
  const lang = input.language;
  const none = t('prompt.none', {}, lang);
  const e = input.evidence;
  const out = [
    t('testReport.title', { spec: input.specName }, lang),
    '',
    t('testReport.writtenBy', { time: input.now }, lang),
    '',
    t('testReport.finished', {}, lang),
    '',
    input.finishedTasks.length ? input.finishedTasks.map((task) => `- ${task}`).join('\n') : none,
  ];
  if (input.requirements.length) {
    out.push('', t('testReport.requirements', {}, lang), '', t('testReport.requirementsHeader', {}, lang), '|---|---|---|');
    for (const r of input.requirements) out.push(`| ${r.id} | ${r.behaviors.join(', ') || '-'} | ${t(r.closed ? 'testReport.closed' : 'testReport.open', {}, lang)} |`);
  }
  if (input.skippedTasks.length) out.push('', t('testReport.skipped', {}, lang), '', input.skippedTasks.map((task) => `- ${task}`).join('\n'));
  out.push('', t('testReport.reporterReport', {}, lang), '', neutralizeReportLines(input.reporterText.trim()) || none);
  if (input.reasons.length) out.push('', t('testReport.reasons', {}, lang), '', input.reasons.map((r) => `- ${r}`).join('\n'));
  out.push(
    '',
    t('testReport.evidence', {}, lang),
    '',
    `- evidence-command: \`${e.command}\``,
    `- evidence-exit-code: ${e.exitCode === null ? t('testReport.noExitCode', {}, lang) : e.exitCode}`,
    `- evidence-file: ${e.file}`,
    `- evidence-sha256: ${e.sha256}`,
    '',
    t('testReport.verdict', { verdict: input.verdict }, lang),
    '',
  );
  return out.join('\n');
}

const FAILURE_WORD = /FAIL|失败|不通过/i;
const KNOWN_WARNING = /WARN|预先存在|known/i;

/**
 * A failure word in the reporter's text of a passing report, as loom 3's verify-artifacts.mjs
 * `checkReport` finds it (any case, anywhere, unless the report also says WARN or known): such a
 * PASS would be refused there, so it is none here. The line is the text's own, 1-based.
 */
export function failureWordIn(reporterText: string): { word: string; line: number } | undefined {
  if (KNOWN_WARNING.test(reporterText)) return undefined;
  const lines = reporterText.split(/\r?\n/);
  const i = lines.findIndex((l) => FAILURE_WORD.test(l));
  return i < 0 ? undefined : { word: FAILURE_WORD.exec(lines[i])![0], line: i + 1 };
}

export function writeTestReport(snapshot: SpecSnapshot, text: string): void {
  writeSpecFiles(snapshot, [{ file: TEST_REPORT_FILE, text }]);
}
