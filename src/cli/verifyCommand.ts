import { t } from '../core/port/messages';
import { readWorkspaceString } from '../core/port/tools';
import { request } from '../core/port/request';
import type { SpecPipeline } from '../core/port/specs';
import type { VerificationResult } from '../core/port/files';
import { changedOrThrow } from './answers';
import type { CliIo } from './io';

/** The setting Run Tasks reads its test command from; verification runs the same one. */
const TEST_COMMAND_SETTING = 'loom.executing.testCommand';

/**
 * `verify --spec-dir D --run`: Verification by Loom, an intent to the spec's actor. The test
 * command is the one Run Tasks uses: `loom.executing.testCommand` from the repository's
 * `.vscode/settings.json`, else the project's own test script. The person at the terminal runs
 * the project's commands on purpose, so the workspace counts as trusted. Exit 0 on PASS, 1 on FAIL.
 */
export async function verifyRun(s: SpecPipeline, io: CliIo, asJson: boolean): Promise<number> {
  const testCommand = readWorkspaceString(s.snapshot.repoRoot, TEST_COMMAND_SETTING);
  const { verification: v } = changedOrThrow(await request(s, { type: 'verify', verify: { trusted: true, writer: 'loom-vscode verify --run', ...(testCommand ? { testCommand } : {}) } }), s);
  if (asJson) io.out(JSON.stringify(verificationJson(s, v), null, 2));
  else io.out(verificationText(s, v));
  return v.verdict === 'PASS' ? 0 : 1;
}

const verificationJson = (s: SpecPipeline, v: VerificationResult) => ({
  spec_dir: s.snapshot.specDir,
  verdict: v.verdict,
  report: `${s.snapshot.specDir}/${v.report}`,
  ...(v.handoff ? { handoff: `${s.snapshot.specDir}/${v.handoff}` } : {}),
  ...(v.evidence ? { evidence: { command: v.evidence.command, exit_code: v.evidence.exitCode, file: v.evidence.file, sha256: v.evidence.sha256 } } : {}),
  ran_in: v.cwd,
  checks: v.checks.map((c) => ({ id: c.id, result: c.result, notes: c.notes })),
  coverage: v.coverage,
  fix_items: v.fixItems,
});

function verificationText(s: SpecPipeline, v: VerificationResult): string {
  const mark = { PASS: '✓', FAIL: '✗', SKIP: '–' } as const;
  const lines = [
    t(v.verdict === 'PASS' ? 'cli.verifyRun.passed' : 'cli.verifyRun.failed', { specDir: s.snapshot.specDir, files: [v.report, ...(v.handoff ? [v.handoff] : [])].join(', '), where: v.cwd }),
    ...v.checks.map((c) => `  ${mark[c.result]} ${t(`verify.check.${c.id}`)}: ${c.notes}`),
  ];
  if (v.fixItems.length)
    lines.push(t('cli.verifyRun.fixes', { count: v.fixItems.length }), ...v.fixItems.map((f, i) => `  ${i + 1}. ${f.problem}${f.file ? ` (${f.file}${f.location ? `:${f.location}` : ''})` : ''}`));
  return lines.join('\n');
}
