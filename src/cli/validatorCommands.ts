import { type Diagnostic, specProblems } from '../core/port/reports';
import type { SpecPipeline } from '../core/port/specs';
import { overrideAuthor, overrideFor, verificationArtifacts } from '../core/port/validators';
import { t } from '../core/port/messages';
import { request } from '../core/port/request';
import { changedOrThrow } from './answers';
import { flagValue, UsageError } from './args';
import { json, spec, type CommandCall } from './command';
import { formatDiagnostic, formatFindings } from './format';
import { verifyRun } from './verifyCommand';

/** `validate [--spec-dir D]`: the same list as the Problems panel: file diagnostics, stale facts, the stage's findings. */
export function validate({ repo, args, io, asJson }: CommandCall): number {
  const problemsOf = (s: SpecPipeline) => specProblems(s).problems;
  const perSpec = args.flags.has('--spec-dir') ? [problemsOf(spec(repo, args))] : repo.scan(problemsOf);
  const diagnostics: Diagnostic[] = [...repo.workflowProblems, ...perSpec.flat()];
  if (asJson) json(io, { diagnostics });
  else io.out(diagnostics.length ? diagnostics.map(formatDiagnostic).join('\n') : t('cli.validate.clean'));
  return diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}

/** `analyze --spec-dir D [--override F-n --reason R]`: loom's analyze-artifacts, written by the spec's actor. */
export async function analyze({ repo, args, io, asJson }: CommandCall): Promise<number> {
  const s = spec(repo, args);
  const findingId = flagValue(args, '--override');
  const reason = flagValue(args, '--reason');
  if (findingId === undefined && reason !== undefined) throw new UsageError(t('cli.usage.reasonOnlyWithOverride'));
  if (findingId !== undefined && !reason?.trim()) throw new UsageError(t('cli.usage.overrideNeedsReason'));
  const override = findingId ? { findingId, reason: reason!, by: overrideAuthor('loom-vscode analyze --override') } : undefined;
  const { report } = changedOrThrow(await request(s, { type: 'analyzeArtifacts', ...(override ? { override } : {}) }), s);
  if (asJson) json(io, report);
  else {
    const overridden = new Map(report.findings.flatMap((f) => (overrideFor(report, f) ? [[f.id, overrideFor(report, f)!] as const] : [])));
    const figures = Object.entries(report.coverage)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const still = overridden.size ? `\n${t('cli.analyze.overridesStillBlock', { count: overridden.size })}` : '';
    io.out(
      `${t('cli.analyze.summary', { specDir: s.snapshot.specDir, status: report.status, blockers: report.blocker_count })}\n  ${figures}\n${formatFindings(s.snapshot.specDir, report.findings, overridden)}${still}`,
    );
  }
  return report.status === 'pass' ? 0 : 1;
}

/** `converge --spec-dir D`: one round of loom's convergence, written by the spec's actor. */
export async function converge({ repo, args, io, asJson }: CommandCall): Promise<number> {
  const s = spec(repo, args);
  const { outcome } = changedOrThrow(await request(s, { type: 'converge' }), s);
  const { report } = outcome;
  if (asJson) json(io, report);
  else {
    const lines = [
      t('cli.converge.summary', { specDir: s.snapshot.specDir, round: report.round, status: report.status, coverage: report.coverage.behavior_coverage, blockers: report.blocker_count }),
      formatFindings(s.snapshot.specDir, report.findings),
    ];
    for (const a of outcome.appended) lines.push(t('cli.converge.appended', { task: a.id, behaviors: a.behaviors.join(', ') }));
    if (outcome.escalate) lines.push(t('cli.converge.escalate', { round: report.round }));
    io.out(lines.join('\n'));
  }
  return report.status === 'converged' ? 0 : 1;
}

/** `verify --spec-dir D [--run]`: the verification validator on the files, or with --run Verification by Loom. */
export function verify({ repo, args, io, asJson }: CommandCall): Promise<number> | number {
  const s = spec(repo, args);
  if (args.flags.has('--run')) return verifyRun(s, io, asJson);
  const result = verificationArtifacts(s.snapshot);
  if (asJson) json(io, { spec_dir: s.snapshot.specDir, validator: result.name, passed: result.passed, findings: result.findings ?? [] });
  else io.out(`${t(result.passed ? 'cli.verify.passed' : 'cli.verify.failed', { specDir: s.snapshot.specDir, validator: result.name })}\n${formatFindings(s.snapshot.specDir, result.findings ?? [])}`);
  return result.passed ? 0 : 1;
}
