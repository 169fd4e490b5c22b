import { CorruptArtifactError } from '../errors';
import type { Finding } from '../files/findings';
import { toJsonText } from '../fs/atomicWrite';
import { t as text, type Language } from '../messages';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { writeSpecFiles, type SpecFileWriter } from '../store/specFiles';
import { FINDINGS_FILE_LANGUAGE } from './artifactAnalysis';
import { buildTraceabilityMatrix, type BehaviorTraceRow } from '../trace/traceabilityMatrix';
import { testRefChecker, type TestRefChecker } from '../trace/testRefs';

export const OMISSION_HUNTER_FILE = 'findings/omission-hunter.json';

export interface OmissionHuntReport {
  stage: 'omission-hunter';
  status: 'pass' | 'blocked';
  findings: Finding[];
  checked_behaviors: number;
  blocker_count: number;
  created_at: string;
}

/** What only a person can judge in the code, by behavior category (loom's omission hunter asks the same). */
const FOR_A_PERSON: ReadonlyMap<string, 'omission.checkGuard' | 'omission.checkLock' | 'omission.checkInstrumentation'> = new Map([
  ['forbidden-behavior', 'omission.checkGuard'],
  ['concurrency', 'omission.checkLock'],
  ['atomicity', 'omission.checkLock'],
  ['observability', 'omission.checkInstrumentation'],
] as const);

type Unnumbered = Pick<Finding, 'kind' | 'severity' | 'message' | 'requirement_id' | 'behavior_id' | 'artifact' | 'suggested_fix'>;

/** The findings of one behavior: its tests and evidence named and present, and what a person must look at. */
function behaviorFindings(row: BehaviorTraceRow, tests: TestRefChecker, language: Language): Unnumbered[] {
  const on = { requirement_id: row.requirement, behavior_id: row.behavior };
  const out: Unnumbered[] = [];
  if (row.tests.length === 0)
    out.push({ kind: 'missing', severity: 'blocker', message: text('omission.noTest', { behavior: row.behavior, category: row.category }, language), ...on, artifact: 'traceability.json' });
  for (const { ref } of row.tests) {
    const check = tests.converge(ref);
    if (check.exists) continue;
    const message = check.recordAs
      ? text('omission.testOnlyInWorktree', { behavior: row.behavior, ref, through: check.recordAs }, language)
      : text('omission.testNotFound', { behavior: row.behavior, ref }, language);
    out.push({ kind: 'missing', severity: 'blocker', message, ...on, artifact: ref });
  }
  if (row.evidence.length === 0)
    out.push({ kind: 'missing', severity: 'error', message: text('omission.noEvidence', { behavior: row.behavior, category: row.category }, language), ...on, artifact: 'traceability.json' });
  for (const e of row.evidence.filter((r) => !r.exists))
    out.push({ kind: 'missing', severity: 'blocker', message: text('omission.evidenceNotFound', { behavior: row.behavior, ref: e.ref }, language), ...on, artifact: e.ref });
  const checkKey = FOR_A_PERSON.get(row.category);
  if (checkKey) {
    const check = text(checkKey, {}, language);
    out.push({
      kind: 'check',
      severity: 'info',
      message: text('omission.forAPerson', { behavior: row.behavior, category: row.category, check }, language),
      ...on,
      artifact: 'code',
      suggested_fix: { action: 'manual_review', details: text('omission.checkFor', { check, behavior: row.behavior }, language) },
    });
  }
  return out;
}

/**
 * loom's omission hunter (skills/loom-omission-hunter/scripts/omission-hunt.mjs), read-only over
 * the traceability matrix: every behavior needs a test and evidence that exist; the
 * categories only a person can judge are flagged for review. Test refs resolve as the script's
 * `fileExists` does (testRefs.ts): the spec directory or the repository root, never the worktree.
 */
export function huntOmissions(s: SpecSnapshot, now = new Date().toISOString(), language: Language = FINDINGS_FILE_LANGUAGE): OmissionHuntReport {
  // loom's omission-hunt.mjs knows no applicability: a not-applicable behavior needs its test and evidence too.
  const rows = buildTraceabilityMatrix(s).rows;
  const tests = testRefChecker(s);
  const findings = rows.flatMap((row) => behaviorFindings(row, tests, language)).map((f, i): Finding => ({ id: `F-omit-${i + 1}`, ...f }));
  const blockers = findings.filter((f) => f.severity === 'blocker').length;
  return { stage: 'omission-hunter', status: blockers === 0 ? 'pass' : 'blocked', findings, checked_behaviors: rows.length, blocker_count: blockers, created_at: now };
}

/** Writes findings/omission-hunter.json (in English, like artifact-analysis.json) atomically under the run lock; an unreadable requirements or traceability file is refused, a corrupt report left untouched. */
export function writeOmissionHunt(s: SpecSnapshot, now = new Date().toISOString(), write: SpecFileWriter = (files) => writeSpecFiles(s, files)): OmissionHuntReport {
  for (const [file, condition] of [
    ['requirements.json', s.requirementsCondition],
    ['traceability.json', s.traceabilityCondition],
  ] as const) {
    if (condition !== 'ok')
      throw new CorruptArtifactError(text(condition === 'missing' ? 'omission.inputMissing' : 'omission.inputUnreadable', { file: `${s.specDir}/${file}` }), `${s.specDir}/${file}`);
  }
  const report = `${s.specDir}/${OMISSION_HUNTER_FILE}`;
  if (s.diagnostics.some((d) => d.file === report && d.severity === 'error')) throw new CorruptArtifactError(text('analysis.corrupt', { file: report }), report);
  const hunted = huntOmissions(s, now);
  write([{ file: OMISSION_HUNTER_FILE, text: toJsonText(hunted) }]);
  return hunted;
}
