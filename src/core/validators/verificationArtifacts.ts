import { existsSync } from 'node:fs';
import { parseReport } from '../files/report';
import { REQUIREMENTS_FILE } from '../files/requirements';
import { normalizeTaskRef } from '../files/taskFile';
import { splitTestRef, TRACEABILITY_FILE } from '../files/traceability';
import { evidenceReceiptProblems } from '../specdir/evidenceReceipt';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { buildTraceabilityMatrix, type TraceRef } from '../trace/traceabilityMatrix';
import { resolveSpecReference, testRefChecker, type TestRefCheck } from '../trace/testRefs';
import { removeTraceTasks } from './findingFix';
import { FindingList, listResult, SpecLines, traceRequirementFix } from './findingSupport';
import { requirementIdsInSpec } from './requirementTaskClosure';
import type { ValidatorOptions, ValidatorResult } from './validatorResult';
import { t } from '../messages';

export const VERIFICATION_ARTIFACTS = 'verification-artifacts';

/** loom's resolveSpecReference for evidence: the spec directory (an absolute path as it is). */
function evidenceRefExists(s: SpecSnapshot, file: string): boolean {
  const path = resolveSpecReference(s.dir, file);
  return path !== undefined && existsSync(path);
}

/** A test or evidence ref loom does not find: said so, and for a test only the feature worktree has, where it is and how to name it. */
function refMissingMessage(id: string, ref: string, test?: Pick<TestRefCheck, 'recordAs'> | Pick<TraceRef, 'recordAs'>): string {
  return test?.recordAs ? t('validator.verify.testOnlyInWorktree', { behavior: id, ref, through: test.recordAs }) : t('validator.verify.refMissing', { behavior: id, ref });
}

/**
 * The placeholder phrases loom's verify-artifacts.mjs looks for (PLACEHOLDER_RE), in any case as
 * it matches them: a report of a to-do app that says "Todo" fails loom's check, so it fails here
 * too (the message says which word, so it can be reworded).
 */
export const LOOM_PLACEHOLDER_RULE = /\b(TBD|TODO|implement later|fill in details)\b/i;
const placeholderIn = (line: string) => LOOM_PLACEHOLDER_RULE.exec(line)?.[0];
/** The files verify-artifacts.mjs scans with it: its core file and its full-flow files (not verify-report.md). */
export const PLACEHOLDER_SCANNED = ['test-report.md', 'spec.md', 'plan.md', 'progress.md'] as const;
const FAILING = /FAIL|失败|不通过/i;
/** Words that make a report's failure a known, accepted one (verify-artifacts.mjs checkReport, loom 3). */
const KNOWN_FAILURE = /WARN|预先存在|known/i;
const PASS_VERDICT = /^\s*(?:verdict|结论)\s*[:：]\s*(?:PASS|通过)/im;

/** One rule of loom's checkReport a report breaks, with the 1-based line it concerns. */
export interface ReportRuleProblem {
  kind: 'contradicts' | 'missing' | 'stale';
  message: string;
  line?: number;
  requirement?: string;
}

/**
 * What loom 3's verify-artifacts.mjs `checkReport` refuses in a report (test-report.md or
 * verify-report.md): a failure without a known-warning context anywhere in it; and, when it says
 * PASS, an evidence receipt that does not hold (artifact-checker.js validateReportEvidence) and
 * a requirement of spec.md it does not name. A report without a verdict line is refused too:
 * loom's gate reads the verdict (parseVerdict) and a report without one never passes it.
 */
export function reportRuleProblems(dir: string, specDirRel: string, name: string, text: string, specIds: readonly string[]): ReportRuleProblem[] {
  const out: ReportRuleProblem[] = [];
  const lines = text.split('\n');
  const failing = lines.findIndex((l) => FAILING.test(l));
  if (failing >= 0 && !KNOWN_FAILURE.test(text)) out.push({ kind: 'contradicts', message: t('validator.verify.failure', { name, line: failing + 1 }), line: failing + 1 });
  if (!PASS_VERDICT.test(text)) return [...out, { kind: 'missing', message: t('validator.verify.noVerdict', { name }) }];
  const verdictLine = lines.findIndex((l) => PASS_VERDICT.test(l)) + 1;
  for (const problem of evidenceReceiptProblems(dir, name, parseReport(`${specDirRel}/${name}`, text))) out.push({ kind: 'stale', message: problem, line: verdictLine });
  for (const id of specIds.filter((x) => !new RegExp(`\\b${x}\\b`).test(text)))
    out.push({ kind: 'missing', message: t('validator.verify.unmentioned', { name, id }), line: verdictLine, requirement: id });
  return out;
}

/**
 * Leaving verification, as loom's verify-artifacts.mjs decides it: test-report.md and
 * verify-report.md say PASS (a verdict line, with a valid evidence receipt) and name every REQ
 * of spec.md; no report admits a failure without a known-warning context; no placeholder phrase
 * is left in the reports, spec.md, plan.md or progress.md (nor a literal HH:mm); requirements.json
 * reads; traceability.json traces every REQ and every behavior is closed (but those settled as
 * not-applicable), and every test, evidence and task it names exists.
 *
 * Decision: loom checks verify-report.md only when it exists, leaving its existence to the
 * step's gate_verdict; here both reports are required, as LOOM-FORMATS.md describes the check.
 */
export function verificationArtifacts(s: SpecSnapshot, options: ValidatorOptions = {}): ValidatorResult {
  const list = new FindingList('VA');
  const lines = new SpecLines(s, options.locate !== false);
  const specText = lines.text('spec.md');
  const specIds = specText === undefined ? [] : requirementIdsInSpec(specText);

  for (const name of ['test-report.md', 'verify-report.md']) {
    const text = lines.text(name);
    if (text === undefined) {
      list.add({ kind: 'missing', severity: 'error', artifact: name, message: t('validator.fileMissing', { file: name }), location: { file: name } });
      continue;
    }
    for (const p of reportRuleProblems(s.dir, s.specDir, name, text, specIds)) {
      list.add({
        kind: p.kind,
        severity: 'error',
        ...(p.requirement ? { requirement_id: p.requirement } : {}),
        artifact: name,
        message: p.message,
        location: { file: name, ...(p.line ? { line: p.line } : {}) },
      });
    }
  }

  for (const name of PLACEHOLDER_SCANNED) {
    const all = (lines.text(name) ?? '').split('\n');
    const index = all.findIndex((l) => placeholderIn(l) !== undefined);
    if (index >= 0) {
      const found = index + 1;
      const phrase = placeholderIn(all[index]);
      list.add({
        kind: 'placeholder',
        severity: 'error',
        artifact: name,
        message: t('validator.verify.loomPlaceholder', { name, line: found, placeholder: phrase ?? '' }),
        location: { file: name, line: found },
      });
    }
  }
  const hhmm = lines.lineOf('progress.md', /HH:mm/i);
  if (hhmm !== undefined) list.add({ kind: 'placeholder', severity: 'error', artifact: 'progress.md', message: t('validator.verify.hhmm'), location: { file: 'progress.md', line: hhmm } });

  if (!s.requirements) {
    list.add({
      kind: s.requirementsCondition === 'missing' ? 'missing' : 'format',
      severity: 'error',
      artifact: REQUIREMENTS_FILE,
      location: { file: REQUIREMENTS_FILE },
      message: t(s.requirementsCondition === 'missing' ? 'validator.fileMissing' : 'validator.fileUnreadable', { file: 'requirements.json' }),
    });
  }
  if (!s.traceability) {
    list.add({
      kind: s.traceabilityCondition === 'missing' ? 'missing' : 'format',
      severity: 'error',
      artifact: TRACEABILITY_FILE,
      location: { file: TRACEABILITY_FILE },
      message: t(s.traceabilityCondition === 'missing' ? 'validator.fileMissing' : 'validator.fileUnreadable', { file: 'traceability.json' }),
    });
  } else {
    const traced = new Set(s.traceability.requirements.map((e) => e.id));
    for (const id of [...new Set([...specIds, ...(s.requirements?.requirements ?? []).map((r) => r.id)])].filter((x) => !traced.has(x))) {
      list.add(
        {
          kind: 'missing',
          severity: 'error',
          requirement_id: id,
          artifact: TRACEABILITY_FILE,
          message: t('validator.verify.untraced', { id }),
          location: lines.at(TRACEABILITY_FILE, lines.traceLine(id)),
          suggested_fix: { action: 'update_traceability', details: t('validator.planning.addTrace', { id }) },
        },
        traceRequirementFix(s, id),
      );
    }
    const matrix = buildTraceabilityMatrix(s);
    for (const row of matrix.rows) {
      const where = lines.at(TRACEABILITY_FILE, lines.traceLine(row.requirement, row.behavior));
      const common = { requirement_id: row.requirement, behavior_id: row.behavior, artifact: TRACEABILITY_FILE, location: where } as const;
      const absent = [...row.tests, ...row.evidence].filter((r) => !r.exists);
      for (const ref of absent) {
        list.add({
          ...common,
          kind: 'missing',
          severity: 'error',
          message: ref.reason === 'outside-evidence' ? t('validator.verify.outsideEvidence', { behavior: row.behavior, ref: ref.ref }) : refMissingMessage(row.behavior, ref.ref, ref),
          suggested_fix: { action: 'update_traceability', details: t('validator.verify.pointAtFiles', { id: row.behavior }) },
        });
      }
      // loom's checkBehaviorTraceability asks every behavior for a task, a test and evidence,
      // not-applicable ones too (the matrix is kinder to those; this check is not).
      const closed = row.tasks.length > 0 && row.tests.some((test) => test.exists) && row.evidence.some((e) => e.exists);
      if (!closed && absent.length === 0) {
        const lacking = [row.tasks.length ? '' : t('guard.linkNoTask'), row.tests.length ? '' : t('guard.linkNoTest'), row.evidence.length ? '' : t('guard.linkNoEvidence')].filter(Boolean);
        list.add({
          ...common,
          kind: 'missing',
          severity: 'error',
          message: t('validator.verify.notClosed', { behavior: row.behavior, lacking: lacking.join(', ') }),
          suggested_fix: { action: 'update_traceability', details: t('validator.verify.giveLinks', { id: row.behavior }) },
        });
      }
    }
    // loom's validateTraceabilityFile (requireEvidence) asks the requirement itself for a task, a
    // test and evidence, and every test (resolveProjectReference: spec directory, then the
    // repository that holds specs/, never the feature worktree) and evidence (spec directory) it
    // names to exist, besides its behaviors.
    const tests = testRefChecker(s);
    for (const entry of s.traceability.requirements.filter((e) => specIds.includes(e.id))) {
      const where = lines.at(TRACEABILITY_FILE, lines.traceLine(entry.id));
      const common = { requirement_id: entry.id, artifact: TRACEABILITY_FILE, location: where } as const;
      const lacking = [entry.tasks.length ? '' : t('guard.linkNoTask'), entry.tests.length ? '' : t('guard.linkNoTest'), entry.evidence.length ? '' : t('guard.linkNoEvidence')].filter(Boolean);
      if (lacking.length) {
        list.add({
          ...common,
          kind: 'missing',
          severity: 'error',
          message: t('validator.verify.requirementLacks', { id: entry.id, lacking: lacking.join(', ') }),
          suggested_fix: { action: 'update_traceability', details: t('validator.verify.giveLinks', { id: entry.id }) },
        });
      }
      const absent = [
        ...entry.tests.map((ref) => ({ ref, check: tests.traceability(ref) })).filter(({ check }) => !check.exists),
        ...entry.evidence.filter((ref) => !evidenceRefExists(s, splitTestRef(ref).file)).map((ref) => ({ ref, check: undefined })),
      ];
      for (const { ref, check } of absent) {
        list.add({
          ...common,
          kind: 'missing',
          severity: 'error',
          message: refMissingMessage(entry.id, ref, check),
          suggested_fix: { action: 'update_traceability', details: t('validator.verify.pointAtFiles', { id: entry.id }) },
        });
      }
    }
    for (const { requirement, behavior, task } of matrix.orphans.trace_tasks_unknown) {
      list.add(
        {
          kind: 'missing',
          severity: 'error',
          requirement_id: requirement,
          ...(behavior ? { behavior_id: behavior } : {}),
          artifact: TRACEABILITY_FILE,
          message: t('validator.verify.taskMissing', { task, file: normalizeTaskRef(task).toUpperCase() }),
          location: lines.at(TRACEABILITY_FILE, lines.traceLine(requirement, behavior ?? undefined)),
        },
        removeTraceTasks(requirement, behavior ?? undefined, [task]),
      );
    }
  }
  return listResult(VERIFICATION_ARTIFACTS, list);
}
