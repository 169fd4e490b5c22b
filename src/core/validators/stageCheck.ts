import type { SpecFileWriter } from '../store/specFiles';
import { ARTIFACT_ANALYSIS_FILE, CONVERGENCE_REPORT_FILE } from '../files/findings';
import { displayLanguage, t } from '../messages';
import { analyzeArtifacts, ARTIFACT_ANALYSIS_PASS, blockingFindings, blockingProblem, FINDINGS_FILE_LANGUAGE, overrideFor, writeArtifactAnalysis } from './artifactAnalysis';
import { CONVERGENCE_PASS, writeConvergence } from './convergence';
import { isBlocking } from './findingSupport';
import { HANDOFFS_DIR, type Handoff } from '../files/handoff';
import { stageCheckValidatorNames, type StagedSpec } from './stageFindings';
import { VALIDATORS } from './validators';
import { specLanguage } from '../specdir/specLanguage';

export interface StageValidatorOutcome {
  name: string;
  passed: boolean;
  /** Blocker and error findings, overridden or not (or problems, for validators without findings). */
  blocking: number;
  problems: string[];
  /** The report the validator wrote (spec-relative); absent when it writes none. */
  report?: string;
  /** false when the report already said the same and was left as it was. */
  written?: boolean;
  /** convergence-pass: tasks appended for the next round, and whether the last round was reached. */
  appended?: string[];
  escalate?: boolean;
}

export interface StageCheckResult {
  stage: string | null;
  validators: StageValidatorOutcome[];
  passed: boolean;
  blocking: number;
  /** The stage handoff written because the stage's report passed (spec-relative). */
  handoff?: string;
}

/** Where a stage's handoff goes: the state store, through the spec's actor. */
export type HandoffWriter = (name: string, handoff: Handoff) => unknown;

/**
 * Runs the validators of the spec's current stage the way the CLI runs them: artifact-analysis-pass
 * writes artifact-analysis.json (`analyze`), convergence-pass writes convergence-report.json and
 * appends the tasks for its gaps (`converge`), the others only check (`verify` and the closures).
 * Reports are written atomically under the run lock, by `write` (the state store's) when given; a
 * corrupt report is left untouched and throws.
 */
export function checkStage(spec: StagedSpec, now: string, writeHandoff: HandoffWriter, write?: SpecFileWriter): StageCheckResult {
  const outcomes = stageCheckValidatorNames(spec).map((name): StageValidatorOutcome => {
    if (name === ARTIFACT_ANALYSIS_PASS) {
      const { report, written } = writeArtifactAnalysis(spec.snapshot, { now, ...(write ? { write } : {}) });
      // loom's rule: every blocker and error blocks, overridden or not (an override is only shown).
      const open = blockingFindings(report);
      // The file is in English; the problems are told in the display language.
      const shown = FINDINGS_FILE_LANGUAGE === displayLanguage() ? undefined : new Map(analyzeArtifacts(spec.snapshot, now, displayLanguage()).findings.map((f) => [f.id, f.message]));
      const problems = open.map((f) => blockingProblem(f, overrideFor(report, f), shown?.get(f.id)));
      return { name, passed: open.length === 0, blocking: open.length, problems, report: ARTIFACT_ANALYSIS_FILE, written };
    }
    if (name === CONVERGENCE_PASS) {
      const { report, written, appended, escalate } = writeConvergence(spec.snapshot, { now, ...(write ? { write } : {}) });
      const open = report.findings.filter((f) => f.severity === 'blocker');
      return {
        name,
        passed: report.status === 'converged',
        blocking: open.length,
        problems: open.map((f) => `${f.id} ${f.message}`),
        report: CONVERGENCE_REPORT_FILE,
        written,
        appended: appended.map((t) => t.id),
        escalate,
      };
    }
    const result = VALIDATORS.get(name)!.check(spec.snapshot);
    const blocking = result.findings ? result.findings.filter(isBlocking).length : result.problems.length;
    return { name, passed: result.passed, blocking, problems: result.problems };
  });
  const passed = outcomes.every((o) => o.passed);
  const reports = outcomes.flatMap((o) => (o.report ? [o.report] : []));
  const handoff = passed && spec.stage && reports.length ? writeStageHandoff(spec, spec.stage, reports, now, writeHandoff) : undefined;
  return { stage: spec.stage, validators: outcomes, passed, blocking: outcomes.reduce((n, o) => n + o.blocking, 0), ...(handoff ? { handoff } : {}) };
}

/**
 * A stage whose work is a report (analyze-artifacts, converge) hands over as loom's skills do:
 * `handoffs/<stage>.json` naming the report, once it passes, with the fingerprints loom's
 * writeHandoff records for the stage (spec.md and plan.md; the report itself is a mutable
 * ledger loom leaves out). Its summary is in the spec's language.
 */
function writeStageHandoff(spec: StagedSpec, stage: string, reports: readonly string[], now: string, write: HandoffWriter): string {
  const handoff: Handoff = {
    stage,
    status: 'done',
    // Words for loom's agents to read follow the spec's language, as the converge tasks do.
    summary: t('stageCheck.handoffSummary', { reports: reports.join(', ') }, specLanguage(spec.snapshot)),
    artifacts: [...reports],
    written_at: now,
    written_by: 'loom-vscode checkStage',
  };
  write(stage, handoff);
  return `${HANDOFFS_DIR}/${stage}.json`;
}
