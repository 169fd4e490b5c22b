import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { lazySchema } from '../../shared/lazySchema';
import { CorruptArtifactError, OverrideRefusedError } from '../errors';
import { ARTIFACT_ANALYSIS_FILE, FindingOverrideSchema, type Finding, type FindingOverride } from '../files/findings';
import { toJsonText } from '../fs/atomicWrite';
import { displayLanguage, t as text, type Language } from '../messages';
import { writeSpecFiles, type SpecFileWriter } from '../store/specFiles';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import type { FindingFix } from './findingFix';
import { FindingList, isBlocking, sameApartFromTime, SpecLines } from './findingSupport';
import type { ValidatorResult } from './validatorResult';
import { analysisCoverage, type AnalysisCoverage } from './analysis/analysisCoverage';
import { analysisFacts, type AnalysisFacts } from './analysis/analysisFacts';
import { criticalTypesHaveTheirCategory, noDuplicateBehaviors, noPlaceholders, requiredFilesPresent, requirementsFullySpecified, specAndRequirementsAgree } from './analysis/specRules';
import { everyBehaviorHasATask, everyRequirementHasATask, planAndTasksAgree, taskGraphIsPlannable, tasksNameOnlyWhatWasAsked } from './analysis/taskRules';
import { traceabilityTracesEverything } from './analysis/traceabilityRules';

export const ARTIFACT_ANALYSIS_PASS = 'artifact-analysis-pass';

/**
 * The findings files (artifact-analysis.json, omission-hunter.json) are written in English, as
 * loom's own scripts write them: their fingerprint (which approvals record) and the overrides
 * matched by message must not change with the display language or with an upgrade.
 */
export const FINDINGS_FILE_LANGUAGE: Language = 'en';

/** artifact-analysis.json as loom writes it; in memory, with the overrides the extension keeps beside it. */
export interface ArtifactAnalysisReport {
  stage: 'analyze-artifacts';
  status: 'pass' | 'blocked';
  coverage: AnalysisCoverage;
  findings: Finding[];
  /** Blocker and error findings, overridden or not (loom's count). */
  blocker_count: number;
  created_at: string;
  /** Not written to artifact-analysis.json: kept in artifact-analysis.overrides.json. */
  overrides?: FindingOverride[];
}

/**
 * Loom's analyze-artifacts (skills/loom-analyze-artifacts/scripts/analyze-artifacts.mjs), a
 * read-only cross-check of spec.md, requirements.json, plan.md, tasks/ and traceability.json.
 * Nothing is written here: `writeArtifactAnalysis` writes the result.
 *
 * Decisions where loom's script and LOOM-FORMATS.md differ or say nothing:
 * - Kinds and suggested_fix actions stay inside finding.schema.json (loom's script writes
 *   `orphan_task`, `unknown_behavior` … which its own schema does not allow): unmapped things
 *   are `missing`, things nobody asked for are `unrequested`, cycles and conflicts `contradicts`.
 * - Severities follow LOOM-FORMATS.md: a task file traceability.json names but that does not
 *   exist is an error (overridable), not a blocker.
 * - A task counts as listed in plan.md only when plan.md contains its file name as it is on disk
 *   (`T1.md`, case kept), as loom's orphan_task check does: the word `T1` alone is not enough.
 * - Behaviors marked `applicability: not-applicable` need a task like any other: loom's
 *   analyze-artifacts.mjs knows no applicability.
 * - A constitution conflict cannot be decided deterministically; the analysing skill reports it.
 * - "Ambiguity" is a placeholder (TBD, TODO …) left in spec.md, plan.md or a task.
 */
export function analyzeArtifacts(s: SpecSnapshot, now = new Date().toISOString(), language: Language = FINDINGS_FILE_LANGUAGE): ArtifactAnalysisReport {
  return analyze(s, now, language).report;
}

/**
 * The rules of the analysis, each with its own findings. Their order numbers the findings (F-1,
 * F-2 …), which overrides name and approvals fingerprint: a new rule goes at the end.
 */
const ANALYSIS_RULES: readonly ((facts: AnalysisFacts) => void)[] = [
  requiredFilesPresent,
  specAndRequirementsAgree,
  planAndTasksAgree,
  tasksNameOnlyWhatWasAsked,
  everyRequirementHasATask,
  everyBehaviorHasATask,
  taskGraphIsPlannable,
  traceabilityTracesEverything,
  criticalTypesHaveTheirCategory,
  noPlaceholders,
  noDuplicateBehaviors,
  requirementsFullySpecified,
];

/**
 * The analysis, and the fixes of its findings that need no judgment (kept out of the report).
 * Worded in `language`: FINDINGS_FILE_LANGUAGE for the file, the display language for the user.
 */
function analyze(s: SpecSnapshot, now: string, language: Language): { report: ArtifactAnalysisReport; fixes: ReadonlyMap<string, FindingFix> } {
  const list = new FindingList('F');
  const facts = analysisFacts(s, new SpecLines(s), list, language);
  for (const rule of ANALYSIS_RULES) rule(facts);
  const report = withStatus({
    stage: 'analyze-artifacts',
    status: 'pass',
    coverage: analysisCoverage(facts),
    findings: list.findings,
    blocker_count: 0,
    created_at: now,
    overrides: storedOverrides(s),
  });
  return { report, fixes: list.fixes };
}

const overrideOf = (overrides: readonly FindingOverride[], f: Finding) => overrides.find((o) => o.finding_id === f.id && (o.message === undefined || o.message === f.message));

/**
 * Status and blocker_count as loom's runAnalyzeArtifacts counts them: every blocker and error
 * finding, overridden or not. loom's run --advance re-runs that script at analyze-artifacts and
 * reads no override, so an override changes what the extension shows, never the verdict. The
 * overrides kept are those that still match an error finding: one whose finding is gone, or now
 * says something else, is dropped.
 */
function withStatus(report: ArtifactAnalysisReport): ArtifactAnalysisReport {
  const overrides = (report.overrides ?? []).filter((o) => report.findings.some((f) => f.severity === 'error' && overrideOf([o], f)));
  const blocking = blockingFindings(report);
  const { overrides: _dropped, ...rest } = report;
  return { ...rest, status: blocking.length ? 'blocked' : 'pass', blocker_count: blocking.length, ...(overrides.length ? { overrides } : {}) };
}

/** The findings that block leaving analyze-artifacts, as loom's runAnalyzeArtifacts decides: every blocker and error. */
export function blockingFindings(report: { findings: readonly Finding[] }): Finding[] {
  return report.findings.filter(isBlocking);
}

/** The override recorded for a finding, when it still matches it (only error findings take one). */
export function overrideFor(report: { overrides?: readonly FindingOverride[] }, f: Finding): FindingOverride | undefined {
  return f.severity === 'error' ? overrideOf(report.overrides ?? [], f) : undefined;
}

/** The blocker and error findings nobody has accepted with an override yet (what Override Finding offers). */
export function openBlockingFindings(report: { findings: readonly Finding[]; overrides?: readonly FindingOverride[] }): Finding[] {
  return report.findings.filter((f) => isBlocking(f) && !overrideFor(report, f));
}

/**
 * A blocking finding as a refusal states it: an overridden one says that the override is the
 * extension's only, and that loom re-runs the analysis and must find the artifact fixed.
 */
export function blockingDescription(f: Finding, override: FindingOverride | undefined, message = f.message): string {
  if (!override) return message;
  return override.by ? text('analysis.overriddenStillBlocksBy', { message, reason: override.reason, by: override.by }) : text('analysis.overriddenStillBlocks', { message, reason: override.reason });
}

/** The same, after the finding's id. */
export const blockingProblem = (f: Finding, override: FindingOverride | undefined, message = f.message) => `${f.id} ${blockingDescription(f, override, message)}`;

/**
 * Records that the user accepts one error finding, with their reason and who they are. It does
 * not let the finding through: loom's run --advance re-runs analyze-artifacts.mjs, which knows no
 * override, so the gate still refuses until the artifact is fixed; the finding is shown as
 * accepted, with the reason, at a lower severity. Blockers take no override (loom: "an error
 * blocks unless the user records an override with a reason"); warnings never block. Pure.
 */
export function recordOverride(report: ArtifactAnalysisReport, findingId: string, reason: string, at: string, by?: string): ArtifactAnalysisReport {
  const finding = report.findings.find((f) => f.id === findingId);
  if (!finding) throw new OverrideRefusedError(text('analysis.noSuchFinding', { file: ARTIFACT_ANALYSIS_FILE, id: findingId }), ARTIFACT_ANALYSIS_FILE);
  if (finding.severity !== 'error') {
    throw new OverrideRefusedError(
      finding.severity === 'blocker' ? text('analysis.blockerNoOverride', { id: findingId }) : text('analysis.doesNotBlock', { id: findingId, severity: finding.severity }),
      ARTIFACT_ANALYSIS_FILE,
    );
  }
  if (!reason.trim()) throw new OverrideRefusedError(text('analysis.overrideNeedsReason', { id: findingId }), ARTIFACT_ANALYSIS_FILE);
  const others = (report.overrides ?? []).filter((o) => o.finding_id !== findingId);
  return withStatus({ ...report, overrides: [...others, { finding_id: findingId, message: finding.message, reason: reason.trim(), at, ...(by?.trim() ? { by: by.trim() } : {}) }] });
}

/** Who records an override: the account's user name (best effort), and the surface used. */
export function overrideAuthor(via: string): string {
  let user = process.env.USER ?? process.env.USERNAME ?? '';
  try {
    user = userInfo().username || user;
  } catch {
    // No account entry (some containers): the environment's name, or the surface alone.
  }
  return user ? `${user} (${via})` : via;
}

/** The registered validator: the analysis computed afresh, in memory; an override changes only how a finding is shown. */
export function artifactAnalysisPass(s: SpecSnapshot): ValidatorResult {
  const now = new Date().toISOString();
  // Overrides are matched in the file's language; the findings are shown in the display language
  // (the same analysis twice, so the same ids in the same order).
  const { report, fixes } = analyze(s, now, FINDINGS_FILE_LANGUAGE);
  const shown = FINDINGS_FILE_LANGUAGE === displayLanguage() ? { report, fixes } : analyze(s, now, displayLanguage());
  const shownMessage = new Map(shown.report.findings.map((f) => [f.id, f.message]));
  const overridden = new Map<string, { reason: string; by?: string }>();
  for (const f of report.findings) {
    const o = overrideFor(report, f);
    if (o) overridden.set(f.id, { reason: o.reason, ...(o.by ? { by: o.by } : {}) });
  }
  const blocking = blockingFindings(report);
  return {
    name: ARTIFACT_ANALYSIS_PASS,
    passed: blocking.length === 0,
    problems: blocking.map((f) => blockingProblem(f, overrideFor(report, f), shownMessage.get(f.id))),
    findings: shown.report.findings,
    fixes: shown.fixes,
    overridden,
  };
}

export interface WrittenReport<T> {
  report: T;
  /** false when the file already said the same (only its created_at would have changed). */
  written: boolean;
}

/**
 * Runs the analysis and writes artifact-analysis.json atomically under the run lock, as loom's
 * script writes it (no overrides in it); the overrides that still match a finding are kept in
 * artifact-analysis.overrides.json, and with `override` that one is recorded first. The returned
 * report carries them. A corrupt artifact-analysis.json is left untouched. An unchanged analysis
 * is not rewritten, so that the file's fingerprint (which approvals record) only changes when the
 * findings do.
 */
export function writeArtifactAnalysis(
  s: SpecSnapshot,
  options: { now?: string; override?: { findingId: string; reason: string; by?: string }; write?: SpecFileWriter } = {},
): WrittenReport<ArtifactAnalysisReport> {
  if (s.artifactAnalysisCondition === 'invalid') {
    throw new CorruptArtifactError(text('analysis.corrupt', { file: `${s.specDir}/${ARTIFACT_ANALYSIS_FILE}` }), `${s.specDir}/${ARTIFACT_ANALYSIS_FILE}`);
  }
  const side = readOverridesFile(s);
  if (side === 'corrupt') {
    throw new CorruptArtifactError(text('analysis.corrupt', { file: `${s.specDir}/${ANALYSIS_OVERRIDES_FILE}` }), `${s.specDir}/${ANALYSIS_OVERRIDES_FILE}`);
  }
  const now = options.now ?? new Date().toISOString();
  let report = analyzeArtifacts(s, now, FINDINGS_FILE_LANGUAGE);
  if (options.override) report = recordOverride(report, options.override.findingId, options.override.reason, now, options.override.by);
  const kept = report.overrides ?? [];
  const { overrides: _kept, ...file } = report;
  // The overrides live beside the report, where loom's rewrite of it does not reach them.
  const sideChanged = (side !== undefined || kept.length > 0) && JSON.stringify(side ?? []) !== JSON.stringify(kept);
  const unchanged = sameApartFromTime(join(s.dir, ARTIFACT_ANALYSIS_FILE), file);
  const withOverrides = (r: ArtifactAnalysisReport): ArtifactAnalysisReport => ({ ...r, ...(kept.length ? { overrides: kept } : {}) });
  if (unchanged && !sideChanged) return { report: withOverrides(unchanged), written: false };
  // The state store writes them (the actor's store, under the request's lock).
  const write = options.write ?? ((files) => writeSpecFiles(s, files));
  write([...(unchanged ? [] : [{ file: ARTIFACT_ANALYSIS_FILE, text: toJsonText(file) }]), ...(sideChanged ? [{ file: ANALYSIS_OVERRIDES_FILE, text: toJsonText({ overrides: kept }) }] : [])]);
  return unchanged ? { report: withOverrides(unchanged), written: false } : { report, written: true };
}

/**
 * Where the overrides `analyze --override` records are kept besides artifact-analysis.json: loom's
 * analyze-artifacts.mjs rewrites that file without them on every run --advance at analyze-artifacts,
 * and does not know this one.
 */
export const ANALYSIS_OVERRIDES_FILE = 'artifact-analysis.overrides.json';

const OverridesFileSchema = lazySchema((z) => z.looseObject({ overrides: z.array(FindingOverrideSchema()) }));

/** The overrides file: undefined when absent, 'corrupt' when it does not read. */
function readOverridesFile(s: SpecSnapshot): FindingOverride[] | undefined | 'corrupt' {
  const path = join(s.dir, ANALYSIS_OVERRIDES_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const parsed = OverridesFileSchema().safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data.overrides : 'corrupt';
  } catch {
    return 'corrupt';
  }
}

/** The recorded overrides: those kept beside the report and an older report's own (the newer of two for one finding). */
export function storedOverrides(s: SpecSnapshot): FindingOverride[] {
  const side = readOverridesFile(s);
  const byFinding = new Map<string, FindingOverride>();
  for (const o of [...(s.artifactAnalysis?.overrides ?? []), ...(Array.isArray(side) ? side : [])]) {
    const known = byFinding.get(o.finding_id);
    if (!known || known.at < o.at) byFinding.set(o.finding_id, o);
  }
  return [...byFinding.values()];
}
