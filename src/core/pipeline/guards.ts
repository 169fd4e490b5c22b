import { existsSync } from 'node:fs';
import { readTextOnce } from '../fs/requestReads';
import { join } from 'node:path';
import { findPlaceholder } from '../files/placeholders';
import { parseReport, type Report } from '../files/report';
import { evidenceReceiptProblems } from '../specdir/evidenceReceipt';
import { staleHandoffs } from '../specdir/handoffStaleness';
import { staleApprovals } from '../specdir/staleness';
import { PIPELINE_STATE_FILE } from '../files/pipelineState';
import type { Diagnostic } from '../diagnostics/diagnostic';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { FOLDERS_LISTED, FOLDERS_READ } from '../specdir/loadSpec';
import { findWorktree } from '../specdir/worktree';
import { buildTraceabilityMatrix } from '../trace/traceabilityMatrix';
import { blockingDescription, blockingFindings, overrideFor, storedOverrides } from '../validators/artifactAnalysis';
import { convergenceRound } from '../validators/convergence';
import { VALIDATORS } from '../validators/validators';
import type { GuardCall, GuardName } from './guardCall';
import { t } from '../messages';
import { openThreadsOn } from '../review/openThreads';
import type { TeamRules } from './teamRules';

/**
 * What a guard reads: the spec's facts, nothing else. Whether the user confirmed is not a fact
 * of the spec; a guard that a person can satisfy says so with `needsConfirmation`, so that one
 * evaluation per snapshot serves every question (confirmed or not).
 */
export interface GuardContext {
  snapshot: SpecSnapshot;
  /** The team's rules for the repository, the same whichever surface asks (none: the defaults). */
  rules?: TeamRules;
}

export interface GuardOutcome {
  ok: boolean;
  /** Why the guard does not hold, in a sentence a user understands. */
  reasons: string[];
  /** The guard holds once the user confirms it. */
  needsConfirmation?: boolean;
  /** The guard holds once the caller confirms it compressed the closed stage's context. */
  needsCompression?: boolean;
  /** A spec-relative file the user can open to fix it. */
  file?: string;
  /** What kind of fault, for a surface that offers a remedy (Approve Again for a stale approval). */
  code?: 'stale-approval' | 'stale-handoff' | 'unreadable-input' | 'compression-required' | 'open-threads';
}

/** Whether the guard lets the transition through, given the user's confirmation (and the caller's word on compression) or their absence. */
export const holds = (outcome: GuardOutcome, confirmed: boolean, compressed = false) =>
  outcome.ok || (outcome.needsConfirmation === true && confirmed) || (outcome.needsCompression === true && compressed);

const pass: GuardOutcome = { ok: true, reasons: [] };
const fail = (reasons: string | string[], file?: string): GuardOutcome => ({ ok: false, reasons: Array.isArray(reasons) ? reasons : [reasons], file });

type Impl<N extends GuardName> = (params: Extract<GuardCall, { type: N }>['params'], ctx: GuardContext) => GuardOutcome;
/** The folders whose entries loadSpec lists into a snapshot's `files`: one of them with no entry there is empty. */
const LISTED_BY_LOADER: ReadonlySet<string> = new Set([...FOLDERS_READ, ...FOLDERS_LISTED]);

/** The meaning of every named guard; tests may swap in their own (counting, say). */
export type GuardRegistry = { [N in GuardName]: Impl<N> };

function specFileExists(s: SpecSnapshot, path: string): boolean {
  if (path.endsWith('/')) {
    const folder = path.slice(0, -1);
    if (s.files.has(path)) {
      for (const f of s.files) if (f.startsWith(path)) return true;
      // Folders the loader does not list are checked on disk.
      return !LISTED_BY_LOADER.has(folder) && existsSync(join(s.dir, folder));
    }
    return false;
  }
  if (s.files.has(path)) return true;
  // In a folder the loader listed, a name not among its entries is not there: no need to look on disk.
  const folder = path.includes('/') ? path.slice(0, path.indexOf('/')) : undefined;
  return folder !== undefined && !(LISTED_BY_LOADER.has(folder) && s.files.has(`${folder}/`)) && existsSync(join(s.dir, path));
}

/** A report not loaded with the snapshot (any gate_verdict file loom may name), read from disk. */
function reportOf(s: SpecSnapshot, path: string): Report | undefined {
  const loaded = s.reports.get(path);
  if (loaded || !path.endsWith('.md')) return loaded;
  try {
    return parseReport(`${s.specDir}/${path}`, readTextOnce(join(s.dir, path)));
  } catch {
    return undefined;
  }
}

/** Loom's isReportPassing: the first verdict line decides; without one, the report's own words. */
function reportVerdict(s: SpecSnapshot, path: string): GuardOutcome {
  const report = reportOf(s, path);
  if (!report) return fail(specFileExists(s, path) ? t('guard.fileUnreadable', { path }) : t('guard.fileMissing', { path }), path);
  if (report.verdict === 'PASS') return pass;
  if (report.verdict) return fail(t('guard.reportVerdict', { path, verdict: report.verdictText ?? report.verdict }), path);
  if (report.inferredVerdict === 'PASS') return pass;
  return fail(t('guard.reportNoVerdict', { path }), path);
}

/** Each guard by name; the machine references them by these names. */
export const GUARDS: GuardRegistry = {
  fileExists: ({ path, noPlaceholders }, { snapshot }) => {
    if (!specFileExists(snapshot, path)) {
      return fail(path.endsWith('/') && snapshot.files.has(path) ? t('guard.folderEmpty', { path }) : t('guard.fileMissing', { path }), path);
    }
    if (noPlaceholders && !path.endsWith('/')) {
      let text = '';
      try {
        text = readTextOnce(join(snapshot.dir, path));
      } catch {
        // A folder named like a file: loom only reads files.
      }
      const found = findPlaceholder(text);
      if (found) return fail(t('guard.placeholder', { path, line: found.line, placeholder: found.placeholder }), path);
    }
    return pass;
  },

  reportPasses: ({ path }, { snapshot }) => reportVerdict(snapshot, path),

  // Loom checks a receipt only where the step says evidence_required (validateReportEvidence).
  evidenceReceiptValid: ({ path, required }, { snapshot }) => {
    if (!required) return pass;
    const report = reportOf(snapshot, path);
    if (!report) return fail(t('guard.receiptMissing', { path }), path);
    const reasons = evidenceReceiptProblems(snapshot.dir, path, report);
    return reasons.length ? fail(reasons, path) : pass;
  },

  // Reads only: `analyze` (or advancing from analyze-artifacts) writes the file. As loom's
  // runAnalyzeArtifacts decides: any blocker or error blocks, overridden or not (loom re-runs the
  // analysis and reads no override); an overridden one says so.
  analysisHasNoBlocker: (_p, { snapshot: s }) => {
    const file = 'artifact-analysis.json';
    if (s.artifactAnalysisCondition === 'missing') return fail(t('guard.analysisMissing', { file }), file);
    if (!s.artifactAnalysis) return fail(t('guard.fileUnreadable', { path: file }), file);
    const blocking = blockingFindings(s.artifactAnalysis);
    const count = Math.max(s.artifactAnalysis.blocker_count, blocking.length);
    if (count > 0 || s.artifactAnalysis.status !== 'pass') {
      const status = s.artifactAnalysis.status;
      const first = blocking[0];
      return fail(
        first
          ? t('guard.analysisBlockersFirst', { file, count, status, first: blockingDescription(first, overrideFor({ overrides: storedOverrides(s) }, first)) })
          : t('guard.analysisBlockers', { file, count, status }),
        file,
      );
    }
    return pass;
  },

  convergenceConverged: (_p, { snapshot: s }) => {
    const file = 'convergence-report.json';
    if (s.convergenceReportCondition === 'missing') return fail(t('guard.convergenceMissing', { file }), file);
    if (!s.convergenceReport) return fail(t('guard.fileUnreadable', { path: file }), file);
    if (s.convergenceReport.status !== 'converged') return fail(t('guard.convergenceStatus', { file, status: s.convergenceReport.status }), file);
    if (s.convergenceReport.blocker_count > 0) return fail(t('guard.convergenceBlockers', { file, count: s.convergenceReport.blocker_count }), file);
    return pass;
  },

  // Loom's convergence-pass: round = convergence_round + 1; a failing round 3 escalates instead of going back.
  convergenceRoundsLeft: ({ max }, { snapshot: s }) => {
    const rounds = convergenceRound(s);
    return rounds + 1 < max ? pass : fail(t('guard.convergenceRoundsSpent', { rounds, round: rounds + 1, max }));
  },

  // Loom's approval check of review-feedback.md: the first `verdict:` line says exactly PASS and
  // no BLOCKER, FAIL, FAILED, CHANGES_REQUESTED, REQUEST_CHANGES or REJECTED appears, in any case.
  reviewFeedbackPasses: (_p, { snapshot: s }) => {
    const file = 'review-feedback.md';
    const report = s.reports.get(file);
    if (!report) return fail(specFileExists(s, file) ? t('guard.fileUnreadable', { path: file }) : t('guard.fileMissing', { path: file }), file);
    const reasons: string[] = [];
    if (report.reviewVerdict === undefined) reasons.push(t('guard.reviewNoVerdict', { file }));
    else if (report.reviewVerdict !== 'PASS') reasons.push(t('guard.reportVerdict', { path: file, verdict: report.reviewVerdict }));
    for (const m of report.blockingMarkers) reasons.push(t('guard.reviewMarker', { file, line: m.line, marker: m.marker }));
    return reasons.length ? fail([...new Set(reasons)], file) : pass;
  },

  reviewerPassed: (_p, { snapshot: s }) => {
    if (s.tasks.size === 0) return fail(t('guard.noTaskFiles'), 'tasks/');
    const reasons: string[] = [];
    for (const id of s.tasks.keys()) {
      const state = s.taskStates.get(id);
      const result = (state?.last_reviewer_result ?? '').trim();
      if (!state || state.status !== 'done') reasons.push(t('guard.taskNotReviewed', { task: id, status: state?.status ?? t('guard.taskNoState') }));
      else if (/^(FAIL|不通过)/i.test(result)) reasons.push(t('guard.reviewerFailed', { task: id, result }));
    }
    return reasons.length ? fail(reasons) : pass;
  },

  testsExitZero: (_p, { snapshot: s }) => {
    const report = s.reports.get('test-report.md');
    if (!report) return fail(t('guard.testReportMissing'), 'test-report.md');
    const code = report.evidence.exitCode;
    if (code !== undefined && !Number.isNaN(code)) return code === 0 ? pass : fail(t('guard.testExitCode', { code }), 'test-report.md');
    // Without a recorded exit code the report's own verdict stands for the suite.
    return reportVerdict(s, 'test-report.md');
  },

  traceabilityClosed: (_p, { snapshot: s }) => {
    if (!s.traceability) return fail(t(s.traceabilityCondition === 'missing' ? 'guard.fileMissing' : 'guard.fileUnreadable', { path: 'traceability.json' }), 'traceability.json');
    if (!s.requirements) return fail(t(s.requirementsCondition === 'missing' ? 'guard.fileMissing' : 'guard.fileUnreadable', { path: 'requirements.json' }), 'requirements.json');
    // A behavior settled as not-applicable counts as closed in the matrix (planning-artifacts,
    // artifact analysis and converge ask no task of it either).
    const open = buildTraceabilityMatrix(s).rows.filter((r) => !r.closed);
    if (open.length === 0) return pass;
    const shown = open.slice(0, 5).map((r) => t('guard.behaviorOpen', { behavior: r.behavior, links: missingLinks(r).join(', ') }));
    if (open.length > 5) shown.push(t('guard.behaviorsMore', { count: open.length - 5 }));
    return fail(shown, 'traceability.json');
  },

  handoffsFresh: (_p, { snapshot: s }) => {
    const stale = staleHandoffs(s);
    return stale.length
      ? {
          ...fail(
            stale.map((h) => t('guard.handoffStale', { handoff: h.handoff, changed: h.changed.join(', ') })),
            stale[0].handoff,
          ),
          code: 'stale-handoff',
        }
      : pass;
  },

  // Loom's run --advance makes no worktree check, and a worktree made by another tool or under
  // another branch name cannot always be found: when none is found, the user confirms it.
  // Loom's run --advance refuses while any recorded approval is stale; only --approve
  // (passing a gate, which records fresh fingerprints) does not look.
  approvalsFresh: (_p, { snapshot: s }) => {
    const stale = staleApprovals(s);
    return stale.length
      ? {
          ...fail(
            stale.map((a) => t('guard.approvalStale', { stage: a.stage, changed: a.changed.join(', ') })),
            PIPELINE_STATE_FILE,
          ),
          code: 'stale-approval',
        }
      : pass;
  },

  worktreeExists: (_p, { snapshot: s }) => (findWorktree(s) ? pass : { ok: false, reasons: [t('guard.noWorktree')], needsConfirmation: true }),

  // A file the transition reads that exists but cannot be read (cut-off JSON, a task state with
  // an unknown status) would be read as absent or empty by the other guards: never "ready".
  inputsReadable: ({ paths }, { snapshot: s }) => {
    // A spec read on demand (status) reads them now: the check is about every one of them.
    s.readInputs?.(paths);
    return unreadableAmongRead(s, paths);
  },

  validatorPasses: ({ name, stage }, ctx) => {
    const validator = VALIDATORS.get(name);
    if (!validator) return fail(t('guard.validatorUnknown', { name }));
    if (stage !== undefined && stage !== validator.stage) return pass;
    // Pass or fail is all a guard needs: no finding is located (see ValidatorOptions).
    const result = validator.check(ctx.snapshot, { locate: false });
    return result.passed ? pass : fail(result.problems.map((problem) => t('guard.validatorFinding', { name, problem })));
  },

  validatorFails: ({ name, stage }, ctx) => {
    const validator = VALIDATORS.get(name);
    if (!validator || validator.stage !== stage) return fail(t('guard.validatorNotHere', { name, stage }));
    const result = validator.check(ctx.snapshot, { locate: false });
    return result.passed ? fail(t('guard.validatorPasses', { name })) : pass;
  },

  // A team rule, not loom's: leaving an interactive stage waits until its review is answered. A
  // review-comments.json that does not parse holds no thread that can be counted; it is reported
  // where comments are shown, and never blocks on its own.
  threadsAnswered: ({ files }, { snapshot: s, rules }) => {
    if (!rules?.blockOnOpenThreads) return pass;
    const open = openThreadsOn(s, files);
    if (open.length === 0) return pass;
    // One reason per thread; the refusal's sentence says how many and which rule (refusals.ts).
    return {
      ...fail(
        open.map((o) => t('guard.threadOpen', { place: o.place, comment: o.comment })),
        open[0].file,
      ),
      code: 'open-threads',
    };
  },

  confirmed: ({ stage }) => ({ ok: false, reasons: [t('guard.confirmDone', { stage })], needsConfirmation: true }),

  // Not a fact of the spec: the caller's word, as loom's advance takes compressionConfirmed.
  compressionConfirmed: ({ stage }) => ({ ok: false, reasons: [t('guard.compressionRequired', { stage })], needsCompression: true, code: 'compression-required' }),
};

/**
 * inputsReadable's verdict on the files under `paths` the spec has read so far: all of them for a
 * spec read in full; for one read on demand, those the checks made until one did not hold read
 * (firstBlocker), no file read for it.
 */
export function unreadableAmongRead(s: SpecSnapshot, paths: readonly string[]): GuardOutcome {
  const unreadable = unreadableInputs(s, paths);
  return unreadable.length
    ? {
        ...fail(
          unreadable.map((d) => unreadableReason(d, d.file.slice(s.specDir.length + 1))),
          unreadable[0].file.slice(s.specDir.length + 1),
        ),
        code: 'unreadable-input',
      }
    : pass;
}

/**
 * One unreadable input in a sentence: a JSON syntax error says where (line and column) and what
 * the parser found wrong there, as the Problems panel does, not "line 16: is not valid JSON".
 */
function unreadableReason(d: Diagnostic, file: string): string {
  // The loader words a syntax error as files.notJson with the parser's reason last: taken back from the same sentence.
  const prefix = t('files.notJson', { file: d.file, reason: '' });
  if (d.code === 'json-syntax' && d.message.startsWith(prefix)) return t('guard.notJsonAt', { file, line: d.line, column: d.column, reason: d.message.slice(prefix.length) });
  return t('guard.unreadableInput', { file, line: d.line, detail: withoutFile(d.message, d.file) });
}

/** The loader's messages start with the file's path; the reason names it already. */
const withoutFile = (message: string, file: string) => (message.startsWith(file) ? message.slice(file.length).replace(/^:?\s*/, '') : message);

/** Errors the loader found in the spec files under `paths` (spec-relative; a folder ends in `/`). */
function unreadableInputs(s: SpecSnapshot, paths: readonly string[]) {
  const prefix = `${s.specDir}/`;
  return s.diagnostics.filter((d) => {
    if (d.severity !== 'error' || !d.file.startsWith(prefix)) return false;
    const rel = d.file.slice(prefix.length);
    return paths.some((p) => (p.endsWith('/') ? rel.startsWith(p) : rel === p));
  });
}

function missingLinks(row: { tasks: string[]; tests: { exists: boolean; recordAs?: string }[]; evidence: { exists: boolean }[] }): string[] {
  const out: string[] = [];
  if (row.tasks.length === 0) out.push(t('guard.linkNoTask'));
  // A test only the feature worktree has is not found by loom: say where it is and how to name it.
  const throughWorktree = row.tests.flatMap((test) => (test.recordAs ? [test.recordAs] : []));
  if (!row.tests.some((t) => t.exists))
    out.push(throughWorktree.length ? t('guard.linkTestsOnlyInWorktree', { through: throughWorktree.join(', ') }) : t(row.tests.length ? 'guard.linkTestsMissing' : 'guard.linkNoTest'));
  if (!row.evidence.some((e) => e.exists)) out.push(t(row.evidence.length ? 'guard.linkEvidenceMissing' : 'guard.linkNoEvidence'));
  return out;
}

/** How many times converge has sent the spec back to executing (defined beside the convergence validator). */
export { convergenceRound };

export function evaluateGuard(call: GuardCall, ctx: GuardContext, registry: GuardRegistry = GUARDS): GuardOutcome {
  return (registry[call.type] as Impl<GuardName>)(call.params as never, ctx);
}
