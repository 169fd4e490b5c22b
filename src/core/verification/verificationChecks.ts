import { join } from 'node:path';
import { REQUIREMENTS_FILE } from '../files/requirements';
import { TRACEABILITY_FILE } from '../files/traceability';
import type { FixItem } from '../executing/dispatch/fixInstructions';
import { findPlaceholder } from '../files/placeholders';
import { readOptionalText } from '../fs/readOptional';
import { t, type Language } from '../messages';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { stageWithRole } from '../pipeline/stageRoles';
import type { Finding } from '../files/findings';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import type { ValidatorResult } from '../validators/validatorResult';
import { LOOM_PLACEHOLDER_RULE, PLACEHOLDER_SCANNED, verificationArtifacts } from '../validators/verificationArtifacts';
import { buildTraceabilityMatrix, type TraceabilityMatrix } from '../trace/traceabilityMatrix';
import type { CommandResult, VerificationRun } from './verificationRun';

export type CheckId = 'artifacts' | 'build' | 'tests' | 'placeholders' | 'traceability' | 'convergence' | 'report';
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
  /**
   * What loom 3's verify-artifacts.mjs would refuse in the spec's files as they are now (the
   * verification-artifacts validator, run once): each of its findings fails the check it belongs
   * to, so a PASS here is one loom's check accepts.
   */
  artifacts: ValidatorResult;
}

/** The validator's blocking findings on one of `files`, but those of `kinds` left to another check. */
const loomFindings = (input: CheckInput, files: readonly string[], skipKinds: readonly string[] = []): Finding[] =>
  (input.artifacts.findings ?? []).filter((f) => (f.severity === 'error' || f.severity === 'blocker') && files.includes(f.artifact ?? '') && !skipKinds.includes(f.kind));

/** A fix item for a rule of loom's that a file breaks. */
const loomRuleFix = (f: Finding, language: Language): FixItem => ({
  problem: t('verify.fix.loomRule', { file: f.artifact ?? '-', problem: f.message }, language),
  file: f.artifact ?? '-',
  ...(f.location?.line ? { location: String(f.location.line) } : {}),
  severity: t('verify.report.blocking', {}, language),
  direction: t('verify.fix.loomRuleDirection', { file: f.artifact ?? '-' }, language),
});
/** At most this many placeholders are listed; the rest are counted. */
const LISTED = 5;

const check = (id: CheckId, result: CheckResult, notes: string, fixes: FixItem[] = []): VerificationCheck => ({ id, result, notes, fixes });

/**
 * Stage artifacts present: what the verification stage requires to be entered (its step's
 * `requires`), and test-report.md as loom 3's verify-artifacts.mjs `checkReport` accepts it: a
 * PASS verdict with a valid evidence receipt, every requirement of spec.md named, no failure
 * without a known-warning context (its placeholders are the placeholder scan's).
 */
function artifactsCheck(input: CheckInput): VerificationCheck {
  const { snapshot, definition, language } = input;
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
  const report = missing.includes('test-report.md') ? [] : loomFindings(input, ['test-report.md'], ['placeholder']);
  for (const f of report) {
    fixes.push({
      problem: t('verify.fix.testReport', { reasons: f.message }, language),
      file: 'test-report.md',
      ...(f.location?.line ? { location: String(f.location.line) } : {}),
      severity: t('verify.report.blocking', {}, language),
      direction: t('verify.fix.testReportDirection', {}, language),
    });
  }
  if (fixes.length === 0) return check('artifacts', 'PASS', t('verify.note.artifactsPresent', { files: required.join(', ') }, language));
  const notes = [
    ...(missing.length ? [t('verify.note.artifactsMissing', { files: missing.join(', ') }, language)] : []),
    ...(report.length ? [t('verify.note.testReportNotPassing', { reasons: report.map((f) => f.message).join('; ') }, language)] : []),
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
 * Placeholder scan, as loom's skill asks: the artifacts loom's verify-artifacts.mjs scans with its
 * PLACEHOLDER_RE (any case), and the files the tasks own in the worktree, with loom's upper-case
 * markers (artifact-checker.js hasPlaceholder: code of a to-do app may say "todo").
 */
function placeholdersCheck({ snapshot, run, language }: CheckInput): VerificationCheck {
  const found: { file: string; line: number; placeholder: string; loomRule: boolean }[] = [];
  for (const name of PLACEHOLDER_SCANNED) {
    const text = readOptionalText(join(snapshot.dir, name));
    if (text === undefined) continue;
    text.split('\n').forEach((line, i) => {
      const m = LOOM_PLACEHOLDER_RULE.exec(line) ?? (name === 'progress.md' && /HH:mm/i.exec(line));
      if (m) found.push({ file: name, line: i + 1, placeholder: m[0], loomRule: true });
    });
  }
  const owned = [...new Set([...snapshot.tasks.values()].flatMap((task) => task.owns))].filter((p) => !p.endsWith('/'));
  for (const path of owned) {
    const text = readOptionalText(join(run.cwd, path));
    const p = text === undefined ? undefined : findPlaceholder(text);
    if (p) found.push({ file: path, line: p.line, placeholder: p.placeholder, loomRule: false });
  }
  if (found.length === 0) return check('placeholders', 'PASS', t('verify.note.placeholdersClean', { artifacts: PLACEHOLDER_SCANNED.join(', '), count: owned.length }, language));
  const places = found.slice(0, LISTED).map((f) => `${f.file}:${f.line}`);
  const more = found.length > LISTED ? ` (+${found.length - LISTED})` : '';
  // One fix item per file, with every line of it, so a file full of them reads as one task; the
  // spec's artifacts say it is loom's case-blind rule, so a domain word can be reworded.
  const files = [...new Set(found.map((f) => f.file))];
  return check(
    'placeholders',
    'FAIL',
    t('verify.note.placeholdersFound', { count: found.length, places: `${places.join(', ')}${more}` }, language),
    files.map((file) => {
      const mine = found.filter((f) => f.file === file);
      const words = [...new Set(mine.map((f) => f.placeholder))].join(', ');
      const loomRule = mine[0].loomRule;
      return {
        problem: t(loomRule ? 'verify.fix.placeholder' : 'verify.fix.codePlaceholder', { placeholder: words, file }, language),
        file,
        location: mine.map((f) => f.line).join(', '),
        severity: t('verify.report.blocking', {}, language),
        direction: t(loomRule ? 'verify.fix.placeholderDirection' : 'verify.fix.codePlaceholderDirection', {}, language),
      };
    }),
  );
}

/**
 * Traceability closed: every behavior with a task, a test file that exists and evidence (loom's
 * closure), and whatever else loom's validateRequirementsFile and validateTraceabilityFile refuse
 * (a requirement of spec.md not traced, a requirement's own links, a test or evidence not found).
 */
function traceabilityCheck(input: CheckInput): VerificationCheck {
  const { matrix, language } = input;
  const open = matrix.rows.filter((r) => !r.closed);
  const openBehaviors = new Set(open.map((r) => r.behavior));
  // A behavior's own row already says what it lacks; the rest are loom's other refusals.
  const others = loomFindings(input, [REQUIREMENTS_FILE, TRACEABILITY_FILE]).filter((f) => !(f.behavior_id && openBehaviors.has(f.behavior_id)));
  const { closed, behaviors: total } = matrix.summary;
  if (open.length === 0 && others.length === 0 && total > 0) return check('traceability', 'PASS', t('verify.note.traceabilityClosed', { closed, total }, language));
  const missing = (r: (typeof open)[number]) =>
    [
      ...(r.tasks.length ? [] : [t('verify.fix.missingTask', {}, language)]),
      ...(r.tests.some((x) => x.exists) ? [] : [t('verify.fix.missingTest', {}, language)]),
      ...(r.evidence.some((x) => x.exists) ? [] : [t('verify.fix.missingEvidence', {}, language)]),
    ].join(', ');
  const notes = [t('verify.note.traceabilityOpen', { closed, total, open: open.map((r) => r.behavior).join(', ') || '-' }, language), ...others.map((f) => f.message)];
  return check('traceability', 'FAIL', notes.join('; '), [
    ...open.map((r) => ({
      problem: t('verify.fix.openBehavior', { behavior: r.behavior, missing: missing(r) }, language),
      file: 'traceability.json',
      location: `${r.requirement}.${r.behavior}`,
      severity: t('verify.report.blocking', {}, language),
      direction: t('verify.fix.openBehaviorDirection', {}, language),
    })),
    ...others.map((f) => loomRuleFix(f, language)),
  ]);
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
export function verificationChecks(input: Omit<CheckInput, 'matrix' | 'artifacts'>): { checks: VerificationCheck[]; matrix: TraceabilityMatrix } {
  const matrix = buildTraceabilityMatrix(input.snapshot);
  const artifacts = verificationArtifacts(input.snapshot);
  return { checks: VERIFICATION_CHECKS.map((c) => c({ ...input, matrix, artifacts })), matrix };
}
