import { isAbsolute, relative, resolve } from 'node:path';
import { hasEvidenceReceipt, type Report } from '../files/report';
import { sha256OfFile } from '../fs/sha256';
import { isFile } from '../fs/isFile';

/**
 * What is wrong with a report's evidence receipt, as loom's validateReportEvidence sees it: the
 * command, exit code 0, a log file inside the spec directory, and that file's sha256.
 */
export function evidenceReceiptProblems(dir: string, path: string, report: Report): string[] {
  if (!hasEvidenceReceipt(report)) return [`${path} names no evidence (evidence-command, evidence-exit-code, evidence-file, evidence-sha256)`];
  const e = report.evidence;
  const reasons: string[] = [];
  if (!e.command) reasons.push(`${path} does not name its evidence-command`);
  if (e.exitCode === undefined || Number.isNaN(e.exitCode)) reasons.push(`${path} does not record evidence-exit-code`);
  else if (e.exitCode !== 0) reasons.push(`${path} records evidence-exit-code: ${e.exitCode}`);
  if (!e.file) reasons.push(`${path} does not name its evidence-file`);
  else {
    const abs = resolve(dir, e.file);
    const rel = relative(dir, abs);
    if (isAbsolute(e.file) || rel.startsWith('..') || isAbsolute(rel)) reasons.push(`${path}: evidence-file ${e.file} is outside the spec directory`);
    else if (!isFile(abs)) reasons.push(`${path}: evidence-file ${e.file} does not exist`);
    else if (!e.sha256) reasons.push(`${path} does not record evidence-sha256`);
    else if (sha256OfFile(abs) !== e.sha256) reasons.push(`${path}: the sha256 of ${e.file} does not match evidence-sha256 (the log changed after the report)`);
  }
  return reasons;
}
