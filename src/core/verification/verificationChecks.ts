import { join } from 'node:path';
import type { FixItem } from '../executing/dispatch/fixInstructions';
import { findPlaceholder } from '../files/placeholders';
import { readOptionalText } from '../fs/readOptional';
import { t, type Language } from '../messages';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { stageWithRole } from '../pipeline/stageRoles';
import { evidenceReceiptProblems } from '../specdir/evidenceReceipt';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { buildTraceabilityMatrix, type TraceabilityMatrix } from '../trace/traceabilityMatrix';
import type { CommandResult, VerificationRun } from './verificationRun';

export type CheckId = 'artifacts' | 'build' | 'tests' | 'placeholders' | 'traceability' | 'convergence';
/** SKIP: nothing to check (no build configured); it never makes the verdict FAIL. */
export type CheckResult = 'PASS' | 'FAIL' | 'SKIP';

/** One row of the report's checks, with the fix items its failure asks for. */
export interface VerificationCheck {
  id: CheckId;
  result: CheckResult;
  notes: string;
  fixes: FixItem[];
}

/** What the checks read: the spec's files, its pipeline, the commands that ran, and the language of the report. */
export interface CheckInput {
  snapshot: SpecSnapshot;
  definition: PipelineDefinition;
  run: VerificationRun;
  language: Language;
  /** The traceability matrix of the snapshot, built once for the checks and the coverage. */
  matrix: TraceabilityMatrix;
}

/** The files loom's verify-artifacts.mjs scans for placeholder phrases, in any case (a report of a to-do app saying "Todo" fails there too). */
const SCANNED_ARTIFACTS = ['test-report.md', 'spec.md', 'plan.md', 'progress.md'];
const ARTIFACT_PLACEHOLDER = /\b(TBD|TODO|implement later|fill in details)\b/i;
/** At most this many placeholders are listed; the rest are counted. */
const LISTED = 5;

const check = (id: CheckId, result: CheckResult, notes: string, fixes: FixItem[] = []): VerificationCheck => ({ id, result, notes, fixes });

/**
 * Stage artifacts present: what the verification stage requires to be entered (its step's
 * `requires`), and test-report.md saying PASS with a valid evidence receipt, as loom's skill reads
 * the earlier report before it claims anything.
 */
function artifactsCheck({ snapshot, definition, language }: CheckInput): VerificationCheck {
  const stage = stageWithRole(definition, 'verification');
  const required = stage?.requires.length ? stage.requires : ['spec.md', 'requirements.json', 'traceability.json', 'test-report.md', 'convergence-report.json'];
  const present = (p: string) => snapshot.files.has(p) || snapshot.files.has(p.endsWith('/') ? p : `${p}/`);
  const missing = required.filter((p) => !present(p));
  const fixes: FixItem[] = missing.map((file) => ({
    problem: t('verify.fix.missingArtifact', { file }, language),
    file,
    severity: t('verify.report.blocking', {}, language),
    direction: t('verify.fix.missingArtifactDirection', {}, language),
  }));
  const report = snapshot.reports.get('test-report.md');
  const reasons = report
    ? [...(report.verdict === 'PASS' ? [] : [`verdict ${report.verdictText ?? report.inferredVerdict ?? '-'}`]), ...evidenceReceiptProblems(snapshot.dir, 'test-report.md', report)]
    : [];
  if (report && reasons.length) {
    fixes.push({
      problem: t('verify.fix.testReport', { reasons: reasons.join('; ') }, language),
      file: 'test-report.md',
      severity: t('verify.report.blocking', {}, language),
      direction: t('verify.fix.testReportDirection', {}, language),
    });
  }
  if (fixes.length === 0) return check('artifacts', 'PASS', t('verify.note.artifactsPresent', { files: required.join(', ') }, language));
  const notes = [
    ...(missing.length ? [t('verify.note.artifactsMissing', { files: missing.join(', ') }, language)] : []),
    ...(report && reasons.length ? [t('verify.note.testReportNotPassing', { reasons: reasons.join('; ') }, language)] : []),
  ];
  return check('artifacts', 'FAIL', notes.join('; '), fixes);
}

/** A command that ran: its note, and the fix item when it did not exit 0. */
function commandOutcome(r: CommandResult, minutes: number, language: Language): { ok: boolean; note: string; fix?: FixItem } {
  const seconds = (r.durationMs / 1000).toFixed(1);
  if (r.exitCode === 0) return { ok: true, note: t('verify.note.commandPassed', { command: r.command, seconds, log: r.log }, language) };
  const severity = t('verify.report.blocking', {}, language);
  if (r.timedOut) {
    return {
      ok: false,
      note: t('verify.note.commandTimedOut', { command: r.command, minutes, log: r.log }, language),
      fix: { problem: t('verify.fix.timeout', { command: r.command, minutes }, language), file: r.log, severity, direction: t('verify.fix.timeoutDirection', {}, language) },
    };
  }
  return {
    ok: false,
    note: t('verify.note.commandBroke', { command: r.command, code: String(r.exitCode), log: r.log }, language),
    fix: {
      problem: t('verify.fix.command', { command: r.command, code: String(r.exitCode) }, language),
      file: r.log,
      severity,
      direction: t('verify.fix.commandDirection', { excerpt: r.excerpt }, language),
    },
  };
}

/** The project's build and type checks, where configured (loom's BUILD_CMD and VET_CMD). */
function buildCheck({ run, language }: CheckInput): VerificationCheck {
  if (run.checks.length === 0) return check('build', 'SKIP', t('verify.note.noBuild', {}, language));
  const outcomes = run.checks.map((r) => commandOutcome(r, run.timeoutMinutes, language));
  const notes = outcomes.map((o) => o.note).join('; ');
  return outcomes.every((o) => o.ok)
    ? check('build', 'PASS', notes)
    : check(
        'build',
        'FAIL',
        notes,
        outcomes.flatMap((o) => (o.fix ? [o.fix] : [])),
      );
}

/** The test command re-run in the worktree: its log is the evidence the receipt cites. */
function testsCheck({ run, language }: CheckInput): VerificationCheck {
  if (!run.test) {
    return check('tests', 'FAIL', t('verify.note.noTestCommand', {}, language), [
      {
        problem: t('verify.fix.noTestCommand', {}, language),
        file: '.vscode/settings.json',
        severity: t('verify.report.blocking', {}, language),
        direction: t('verify.fix.noTestCommandDirection', {}, language),
      },
    ]);
  }
  const o = commandOutcome(run.test, run.timeoutMinutes, language);
  return check('tests', o.ok ? 'PASS' : 'FAIL', o.note, o.fix ? [o.fix] : []);
}

/**
 * Placeholder scan, as loom's skill asks: the artifacts loom's verify-artifacts.mjs scans (any
 * case), and the files the tasks own in the worktree, with loom's upper-case markers
 * (artifact-checker.js hasPlaceholder: code of a to-do app may say "todo").
 */
function placeholdersCheck({ snapshot, run, language }: CheckInput): VerificationCheck {
  const found: { file: string; line: number; placeholder: string }[] = [];
  for (const name of SCANNED_ARTIFACTS) {
    const text = readOptionalText(join(snapshot.dir, name));
    if (text === undefined) continue;
    text.split('\n').forEach((line, i) => {
      const m = ARTIFACT_PLACEHOLDER.exec(line) ?? (name === 'progress.md' && /HH:mm/i.exec(line));
      if (m) found.push({ file: name, line: i + 1, placeholder: m[0] });
    });
  }
  const owned = [...new Set([...snapshot.tasks.values()].flatMap((task) => task.owns))].filter((p) => !p.endsWith('/'));
  for (const path of owned) {
    const text = readOptionalText(join(run.cwd, path));
    const p = text === undefined ? undefined : findPlaceholder(text);
    if (p) found.push({ file: path, line: p.line, placeholder: p.placeholder });
  }
  if (found.length === 0) return check('placeholders', 'PASS', t('verify.note.placeholdersClean', { artifacts: SCANNED_ARTIFACTS.join(', '), count: owned.length }, language));
  const places = found.slice(0, LISTED).map((f) => `${f.file}:${f.line}`);
  const more = found.length > LISTED ? ` (+${found.length - LISTED})` : '';
  // One fix item per file, with every line of it, so a file full of them reads as one task.
  const files = [...new Set(found.map((f) => f.file))];
  return check(
    'placeholders',
    'FAIL',
    t('verify.note.placeholdersFound', { count: found.length, places: `${places.join(', ')}${more}` }, language),
    files.map((file) => {
      const mine = found.filter((f) => f.file === file);
      return {
        problem: t('verify.fix.placeholder', { placeholder: [...new Set(mine.map((f) => f.placeholder))].join(', '), file }, language),
        file,
        location: mine.map((f) => f.line).join(', '),
        severity: t('verify.report.blocking', {}, language),
        direction: t('verify.fix.placeholderDirection', {}, language),
      };
    }),
  );
}

/** Traceability closed: every behavior with a task, a test file that exists and evidence (loom's closure). */
function traceabilityCheck({ matrix, language }: CheckInput): VerificationCheck {
  const open = matrix.rows.filter((r) => !r.closed);
  const { closed, behaviors: total } = matrix.summary;
  if (open.length === 0 && total > 0) return check('traceability', 'PASS', t('verify.note.traceabilityClosed', { closed, total }, language));
  const missing = (r: (typeof open)[number]) =>
    [
      ...(r.tasks.length ? [] : [t('verify.fix.missingTask', {}, language)]),
      ...(r.tests.some((x) => x.exists) ? [] : [t('verify.fix.missingTest', {}, language)]),
      ...(r.evidence.some((x) => x.exists) ? [] : [t('verify.fix.missingEvidence', {}, language)]),
    ].join(', ');
  return check(
    'traceability',
    'FAIL',
    t('verify.note.traceabilityOpen', { closed, total, open: open.map((r) => r.behavior).join(', ') || '-' }, language),
    open.map((r) => ({
      problem: t('verify.fix.openBehavior', { behavior: r.behavior, missing: missing(r) }, language),
      file: 'traceability.json',
      location: `${r.requirement}.${r.behavior}`,
      severity: t('verify.report.blocking', {}, language),
      direction: t('verify.fix.openBehaviorDirection', {}, language),
    })),
  );
}

/** Convergence: the converge stage's report says converged. */
function convergenceCheck({ snapshot, language }: CheckInput): VerificationCheck {
  const report = snapshot.convergenceReport;
  const severity = t('verify.report.blocking', {}, language);
  if (!report) {
    return check('convergence', 'FAIL', t('verify.note.noConvergence', {}, language), [
      { problem: t('verify.fix.noConvergence', {}, language), file: 'convergence-report.json', severity, direction: t('verify.fix.convergenceDirection', {}, language) },
    ]);
  }
  const round = report.round ?? 1;
  if (report.status === 'converged') return check('convergence', 'PASS', t('verify.note.converged', { round }, language));
  return check('convergence', 'FAIL', t('verify.note.notConverged', { status: report.status, round }, language), [
    { problem: t('verify.fix.convergence', { status: report.status, round }, language), file: 'convergence-report.json', severity, direction: t('verify.fix.convergenceDirection', {}, language) },
  ]);
}

/** Every check of loom's verification skill, in the report's order. */
export const VERIFICATION_CHECKS: readonly ((input: CheckInput) => VerificationCheck)[] = [artifactsCheck, buildCheck, testsCheck, placeholdersCheck, traceabilityCheck, convergenceCheck];

/** The checks of a verification run over the spec as it is now. */
export function verificationChecks(input: Omit<CheckInput, 'matrix'>): { checks: VerificationCheck[]; matrix: TraceabilityMatrix } {
  const matrix = buildTraceabilityMatrix(input.snapshot);
  return { checks: VERIFICATION_CHECKS.map((c) => c({ ...input, matrix })), matrix };
}
