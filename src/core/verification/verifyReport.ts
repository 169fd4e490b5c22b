import { join } from 'node:path';
import type { FixItem } from '../executing/dispatch/fixInstructions';
import { splitTestRef } from '../files/traceability';
import { readOptionalText } from '../fs/readOptional';
import { t, type Language } from '../messages';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { featureOf } from '../specdir/specName';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { requirementIdsInSpec } from '../validators/requirementTaskClosure';
import { reportRuleProblems } from '../validators/verificationArtifacts';
import { verificationChecks, type VerificationCheck } from './verificationChecks';
import type { VerificationRun } from './verificationRun';

/** The report loom's verification skill writes, and the handoff that hands it on. */
export const VERIFY_REPORT_FILE = 'verify-report.md';

/** One requirement of the report's coverage table. */
export interface RequirementCoverageRow {
  requirement: string;
  tasks: string[];
  /** Test files that exist, as traceability.json names them. */
  tests: string[];
  /** Every behavior of the requirement is closed. */
  covered: boolean;
}

/** loom's evidence receipt: the test command, its exit code, its log and the log's sha256. */
export interface EvidenceReceiptFields {
  command: string;
  exitCode: number;
  file: string;
  sha256: string;
}

/** What a verification found, and the report that says it. */
export interface VerificationOutcome {
  verdict: 'PASS' | 'FAIL';
  checks: VerificationCheck[];
  coverage: RequirementCoverageRow[];
  evidence?: EvidenceReceiptFields;
  /** Every check's fix items, in the report's order; empty on PASS. */
  fixItems: FixItem[];
  /** verify-report.md as written. */
  text: string;
  /** The handoff's summary: the verdict, the evidence command, the figures. */
  summary: string;
  behaviors: { closed: number; total: number };
}

/** A cell of a Markdown table: one line, no column break. */
const cell = (s: string) => s.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');

const resultWord = (r: VerificationCheck['result'], language: Language) => (r === 'SKIP' ? t('verify.report.skip', {}, language) : r);

function coverageOf(snapshot: SpecSnapshot, rows: ReturnType<typeof verificationChecks>['matrix']['rows']): RequirementCoverageRow[] {
  const specText = readOptionalText(join(snapshot.dir, 'spec.md')) ?? '';
  // Every REQ spec.md names is in the table: loom's verify-artifacts.mjs refuses a PASS that leaves one out.
  const ids = [...new Set([...(snapshot.requirements?.requirements.map((r) => r.id) ?? []), ...requirementIdsInSpec(specText)])];
  return ids.map((requirement) => {
    const mine = rows.filter((r) => r.requirement === requirement);
    return {
      requirement,
      tasks: [...new Set(mine.flatMap((r) => r.tasks))],
      tests: [...new Set(mine.flatMap((r) => r.tests.filter((x) => x.exists).map((x) => splitTestRef(x.ref).file)))],
      covered: mine.length > 0 && mine.every((r) => r.closed),
    };
  });
}

function renderFix(item: FixItem, n: number, language: Language): string[] {
  const field = (key: 'verify.report.problem' | 'verify.report.file' | 'verify.report.location' | 'verify.report.severity' | 'verify.report.direction', value: string | undefined) =>
    value ? [`- **${t(key, {}, language)}**: ${value}`] : [];
  return [
    t('verify.report.fixItem', { n }, language),
    '',
    ...field('verify.report.problem', item.problem),
    ...field('verify.report.file', item.file),
    ...field('verify.report.location', item.location),
    ...field('verify.report.severity', item.severity),
    ...field('verify.report.direction', item.direction),
    '',
  ];
}

/**
 * verify-report.md as loom's verification skill writes it (the sample's report, the skill's
 * template): the title, the checks with their results and notes, every requirement with the
 * tasks and tests that cover it, the evidence receipt loom's isReportPassing reads with
 * `requireEvidence`, fix instructions when a check failed, and the verdict line last.
 */
export function verificationOutcome(input: { snapshot: SpecSnapshot; definition: PipelineDefinition; run: VerificationRun; now: string; language: Language; writer: string }): VerificationOutcome {
  const { snapshot, run, language } = input;
  const { checks: ran, matrix } = verificationChecks(input);
  const coverage = coverageOf(snapshot, matrix.rows);
  const test = run.test;
  const evidence = test && test.exitCode !== null ? { command: test.command, exitCode: test.exitCode, file: test.log, sha256: test.sha256 } : undefined;
  // A requirement spec.md names that no behavior of requirements.json covers is open too; the traceability rows cannot show it.
  const uncovered = coverage.filter((c) => !c.covered && !matrix.rows.some((r) => r.requirement === c.requirement));
  const fixItems = [
    ...ran.flatMap((c) => c.fixes),
    ...uncovered.map((c) => ({
      problem: t('verify.fix.requirementUncovered', { requirement: c.requirement }, language),
      file: 'requirements.json',
      severity: t('verify.report.blocking', {}, language),
      direction: t('verify.fix.requirementUncoveredDirection', {}, language),
    })),
  ];
  const passing = !ran.some((c) => c.result === 'FAIL') && !coverage.some((c) => !c.covered);
  const time = `${input.now.slice(0, 16).replace('T', ' ')} UTC`;
  const where = t(run.where === 'worktree' ? 'verify.report.where.worktree' : 'verify.report.where.repository', {}, language);
  const compose = (checks: readonly VerificationCheck[], verdict: 'PASS' | 'FAIL', fixes: readonly FixItem[]) =>
    [
      t('verify.report.title', { feature: featureOf(snapshot.name) }, language),
      '',
      t('verify.report.byline', { writer: input.writer, where, time }, language),
      '',
      t('verify.report.checks', {}, language),
      '',
      t('verify.report.checksHeader', {}, language),
      '|-------|--------|-------|',
      ...checks.map((c) => `| ${t(`verify.check.${c.id}`, {}, language)} | ${resultWord(c.result, language)} | ${cell(c.notes)} |`),
      '',
      t('verify.report.coverage', {}, language),
      '',
      t('verify.report.coverageHeader', {}, language),
      '|-------------|-------|-------|--------|',
      ...coverage.map((c) => `| ${c.requirement} | ${c.tasks.join(', ') || '-'} | ${cell(c.tests.join(', ') || '-')} | ${c.covered ? 'PASS' : 'FAIL'} |`),
      '',
      t('verify.report.evidence', {}, language),
      '',
      ...(evidence
        ? [`- evidence-command: \`${evidence.command}\``, `- evidence-exit-code: ${evidence.exitCode}`, `- evidence-file: ${evidence.file}`, `- evidence-sha256: ${evidence.sha256}`]
        : [t('verify.report.noEvidence', {}, language)]),
      '',
      ...(verdict === 'FAIL' && fixes.length ? [t('verify.report.fixes', {}, language), '', ...fixes.flatMap((f, i) => renderFix(f, i + 1, language))] : []),
      `verdict: ${verdict}`,
      '',
    ].join('\n');

  let checks: VerificationCheck[] = ran;
  let verdict: 'PASS' | 'FAIL' = 'FAIL';
  let text = compose(checks, verdict, fixItems);
  if (passing) {
    // The PASS is read back as loom 3's verify-artifacts.mjs checkReport reads verify-report.md:
    // a PASS loom would refuse (a requirement not named, a failure word, a broken receipt) is none.
    const accepted: VerificationCheck = { id: 'report', result: 'PASS', notes: t('verify.note.reportAccepted', {}, language), fixes: [] };
    const passText = compose([...ran, accepted], 'PASS', []);
    const specIds = requirementIdsInSpec(readOptionalText(join(snapshot.dir, 'spec.md')) ?? '');
    const refused = reportRuleProblems(snapshot.dir, snapshot.specDir, VERIFY_REPORT_FILE, passText, specIds);
    if (refused.length === 0) {
      checks = [...ran, accepted];
      verdict = 'PASS';
      text = passText;
    } else {
      const fixes = refused.map((p) => ({
        problem: t('verify.fix.report', { problem: p.message }, language),
        file: VERIFY_REPORT_FILE,
        severity: t('verify.report.blocking', {}, language),
        direction: t('verify.fix.reportDirection', {}, language),
      }));
      checks = [...ran, { id: 'report', result: 'FAIL', notes: t('verify.note.reportRefused', { problems: refused.map((p) => p.message).join('; ') }, language), fixes }];
      fixItems.push(...fixes);
      text = compose(checks, 'FAIL', fixItems);
    }
  }
  const behaviors = { closed: matrix.summary.closed, total: matrix.summary.behaviors };
  const summary = t(
    'verify.handoff.summary',
    { verdict, command: test?.command ?? '-', code: test ? String(test.exitCode ?? 'timeout') : '-', closed: behaviors.closed, total: behaviors.total },
    language,
  );
  return { verdict, checks, coverage, ...(evidence ? { evidence } : {}), fixItems, text, summary, behaviors };
}
