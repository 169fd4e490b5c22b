import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomicWrite';
import { withRunLock } from '../../store/runLock';
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

export function writeTestReport(snapshot: SpecSnapshot, text: string): void {
  withRunLock(snapshot, () => writeFileAtomic(join(snapshot.dir, TEST_REPORT_FILE), text));
}
