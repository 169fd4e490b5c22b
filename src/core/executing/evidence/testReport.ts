import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomicWrite';
import { withRunLock } from '../../store/runLock';
import type { SpecSnapshot } from '../../specdir/specSnapshot';
import type { EvidenceLog } from './testEvidence';

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
  language: 'en' | 'zh';
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
  const zh = input.language === 'zh';
  const e = input.evidence;
  const out = [
    `# ${zh ? '测试报告' : 'Test report'}: ${input.specName}`,
    '',
    `> ${zh ? '由 Loom 生成' : 'Written by Loom'} ${input.now}`,
    '',
    `## ${zh ? '已完成的 task' : 'Finished tasks'}`,
    '',
    input.finishedTasks.length ? input.finishedTasks.map((t) => `- ${t}`).join('\n') : zh ? '（无）' : '(none)',
  ];
  if (input.skippedTasks.length) out.push('', `## ${zh ? '跳过的 task' : 'Skipped tasks'}`, '', input.skippedTasks.map((t) => `- ${t}`).join('\n'));
  out.push('', `## ${zh ? 'Test reporter 的报告' : "The test reporter's report"}`, '', neutralizeReportLines(input.reporterText.trim()) || (zh ? '（无）' : '(none)'));
  if (input.reasons.length) out.push('', `## ${zh ? '判定依据' : 'Why it fails'}`, '', input.reasons.map((r) => `- ${r}`).join('\n'));
  out.push(
    '',
    `## ${zh ? '证据' : 'Evidence receipt'}`,
    '',
    `- evidence-command: \`${e.command}\``,
    `- evidence-exit-code: ${e.exitCode === null ? 'none (timed out)' : e.exitCode}`,
    `- evidence-file: ${e.file}`,
    `- evidence-sha256: ${e.sha256}`,
    '',
    zh ? `结论：${input.verdict === 'PASS' ? '通过' : '不通过'}` : `verdict: ${input.verdict}`,
    '',
  );
  return out.join('\n');
}

export function writeTestReport(snapshot: SpecSnapshot, text: string): void {
  withRunLock(snapshot, () => writeFileAtomic(join(snapshot.dir, TEST_REPORT_FILE), text));
}
