import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptArtifactError, LoomError } from '../errors';
import { CONVERGENCE_REPORT_FILE, type Finding } from '../files/findings';
import { PIPELINE_STATE_FILE } from '../files/pipelineState';
import { REQUIREMENTS_FILE } from '../files/requirements';
import { normalizeTaskRef, TASKS_DIR } from '../files/taskFile';
import { TRACEABILITY_FILE } from '../files/traceability';
import { toJsonText } from '../fs/atomicWrite';
import { writeSpecFiles, type SpecFileWriter } from '../store/specFiles';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { buildTraceabilityMatrix } from '../trace/traceabilityMatrix';
import { testRefChecker } from '../trace/testRefs';
import { FindingList, percent, sameApartFromTime, SpecLines } from './findingSupport';
import type { ValidatorResult } from './validatorResult';
import { t, type Language } from '../messages';
import { specLanguage } from '../specdir/specLanguage';

export const CONVERGENCE_PASS = 'convergence-pass';

/** Loom sends a spec back from converge to executing at most this many times, then escalates. */
export const MAX_CONVERGENCE_ROUNDS = 3;

export type Classification = 'covered' | 'missing' | 'partial' | 'contradicts' | 'unrequested';

/** convergence-report.json as loom's converge.mjs writes it. */
export interface ConvergenceReportFile {
  stage: 'converge';
  round: number;
  status: 'converged' | 'needs_another_round';
  classification: Record<string, Classification>;
  findings: Finding[];
  coverage: { behavior_coverage: string; missing_count: number; partial_count: number; contradicts_count: number; unrequested_count: number };
  blocker_count: number;
  created_at: string;
}

/** How many times converge has sent the spec back to executing: `metadata.convergence_round`, as loom counts it. */
export function convergenceRound(s: Pick<SpecSnapshot, 'state'>): number {
  const meta = s.state?.metadata ?? {};
  const recorded = Object.hasOwn(meta, 'convergence_round') ? Number(meta.convergence_round) : 0;
  return Number.isFinite(recorded) && recorded > 0 ? recorded : 0;
}

/**
 * Loom's converge (skills/loom-converge/scripts/converge.mjs): every behavior of requirements.json
 * is covered when traceability.json gives it tests and evidence and every one of them is a real
 * file, partial when it gives some but not all of that, missing when it gives none; a behavior
 * traced but not declared is unrequested (a warning). Missing and partial are blockers, so the
 * round needs another round. Reads only.
 *
 * Test refs resolve as converge.mjs's `fileExists` resolves them (testRefs.ts): URL-like refs
 * count, the ref is cut at its first `#` or `:`, then the spec directory or the repository root;
 * never the feature worktree, and a test only the worktree has is said to be there.
 *
 * Decisions: evidence files resolve as the traceability matrix resolves them (spec directory or
 * repository root, only under `evidence/`). Behaviors
 * marked `applicability: not-applicable` are classified like any other (loom's converge.mjs
 * knows no applicability). Like loom, nothing is classified
 * `contradicts` yet: no deterministic rule says when a behavior contradicts its implementation.
 */
export function classifyConvergence(s: SpecSnapshot, round = convergenceRound(s) + 1, now = new Date().toISOString()): ConvergenceReportFile {
  const list = new FindingList('F-conv');
  const lines = new SpecLines(s);
  const matrix = buildTraceabilityMatrix(s);
  const tests = testRefChecker(s);
  const classification: Record<string, Classification> = {};
  const counts = { covered: 0, missing: 0, partial: 0, contradicts: 0, unrequested: 0 };
  for (const row of matrix.rows) {
    const listed = row.tests.length + row.evidence.length > 0;
    const testChecks = row.tests.map((r) => ({ ref: r.ref, check: tests.converge(r.ref) }));
    const covered = row.tests.length > 0 && row.evidence.length > 0 && testChecks.every((c) => c.check.exists) && row.evidence.every((r) => r.exists);
    const kind: Classification = covered ? 'covered' : listed ? 'partial' : 'missing';
    classification[row.behavior] = kind;
    counts[kind]++;
    if (kind === 'covered') continue;
    const absent = [...testChecks.filter((c) => !c.check.exists && !c.check.recordAs).map((c) => c.ref), ...row.evidence.filter((r) => !r.exists).map((r) => r.ref)];
    const lacking = [
      row.tests.length ? '' : t('validator.converge.noTest'),
      row.evidence.length ? '' : t('validator.converge.noEvidence'),
      absent.length ? t('validator.converge.notFound', { refs: absent.join(', ') }) : '',
      ...testChecks.flatMap((c) => (c.check.recordAs ? [t('validator.converge.onlyInWorktree', { ref: c.ref, through: c.check.recordAs })] : [])),
    ].filter(Boolean);
    list.add({
      kind,
      severity: 'blocker',
      requirement_id: row.requirement,
      behavior_id: row.behavior,
      artifact: TRACEABILITY_FILE,
      message: t('validator.converge.gap', { behavior: row.behavior, kind, lacking: lacking.join('; ') }),
      location: lines.at(TRACEABILITY_FILE, lines.traceLine(row.requirement, row.behavior)),
      suggested_fix: { action: 'create_task', details: t('validator.converge.addTask', { behavior: row.behavior }) },
    });
  }
  for (const { requirement, behavior } of matrix.orphans.trace_behaviors_unknown) {
    classification[behavior] = 'unrequested';
    counts.unrequested++;
    list.add({
      kind: 'unrequested',
      severity: 'warning',
      requirement_id: requirement,
      behavior_id: behavior,
      artifact: TRACEABILITY_FILE,
      message: t('validator.converge.unrequested', { behavior }),
      location: lines.at(TRACEABILITY_FILE, lines.traceLine(requirement, behavior)),
      suggested_fix: { action: 'update_traceability', details: t('validator.converge.removeTrace', { behavior }) },
    });
  }
  const blockers = list.findings.filter((f) => f.severity === 'blocker').length;
  const classified = counts.covered + counts.missing + counts.partial + counts.contradicts;
  return {
    stage: 'converge',
    round,
    status: blockers === 0 ? 'converged' : 'needs_another_round',
    classification,
    findings: list.findings,
    coverage: {
      behavior_coverage: percent(counts.covered, classified),
      missing_count: counts.missing,
      partial_count: counts.partial,
      contradicts_count: counts.contradicts,
      unrequested_count: counts.unrequested,
    },
    blocker_count: blockers,
    created_at: now,
  };
}

/** The registered validator: the classification computed afresh, in memory. */
export function convergencePass(s: SpecSnapshot): ValidatorResult {
  if (!s.requirements || !s.traceability) {
    const missing = !s.requirements ? REQUIREMENTS_FILE : TRACEABILITY_FILE;
    return {
      name: CONVERGENCE_PASS,
      passed: false,
      problems: [t((!s.requirements ? s.requirementsCondition : s.traceabilityCondition) === 'missing' ? 'validator.fileMissing' : 'guard.fileUnreadable', { file: missing, path: missing })],
    };
  }
  const report = classifyConvergence(s);
  const blocking = report.findings.filter((f) => f.severity === 'blocker');
  return { name: CONVERGENCE_PASS, passed: blocking.length === 0, problems: blocking.map((f) => f.message), findings: report.findings };
}

export interface AppendedTask {
  id: string;
  requirement: string;
  behaviors: string[];
}

export interface ConvergenceOutcome {
  report: ConvergenceReportFile;
  written: boolean;
  /** Tasks appended for the next round (none when converged, or at the last round). */
  appended: AppendedTask[];
  /** The last round did not converge: loom stops sending the spec back; the user decides. */
  escalate: boolean;
}

const taskNumber = (id: string) => Number(/^T(\d+)$/i.exec(id)?.[1] ?? 0);

/** `[a, b]`, as loom's own frontmatter reader understands lists. */
const inline = (items: readonly string[]) => `[${items.join(', ')}]`;

/**
 * The converge step: writes convergence-report.json for round `convergence_round + 1` and, when it
 * needs another round and rounds are left, appends one task per requirement for its missing and
 * partial behaviors (the next free T number; owning what the tasks that implemented the
 * requirement own, and depending on them), lists it in plan.md and traces it in traceability.json
 * in the ledger's own form. A behavior an unfinished task already names gets no second task, so
 * running it twice appends nothing more. Everything is written atomically under the run lock;
 * a corrupt state file, report or ledger is left untouched.
 */
export function writeConvergence(s: SpecSnapshot, options: { now?: string; write?: SpecFileWriter } = {}): ConvergenceOutcome {
  const corrupt = [
    s.stateCondition === 'invalid' ? PIPELINE_STATE_FILE : undefined,
    s.convergenceReportCondition === 'invalid' ? CONVERGENCE_REPORT_FILE : undefined,
    s.requirementsCondition === 'invalid' ? REQUIREMENTS_FILE : undefined,
    s.traceabilityCondition === 'invalid' ? TRACEABILITY_FILE : undefined,
  ].filter((f): f is string => f !== undefined);
  if (corrupt.length) {
    throw new CorruptArtifactError(`${corrupt.map((f) => `${s.specDir}/${f}`).join(' and ')} cannot be read; fix them first (nothing was written)`, `${s.specDir}/${corrupt[0]}`);
  }
  for (const [file, condition] of [
    [REQUIREMENTS_FILE, s.requirementsCondition],
    [TRACEABILITY_FILE, s.traceabilityCondition],
  ] as const) {
    if (condition === 'missing') throw new LoomError(`${s.specDir}/${file} does not exist; converge needs it (nothing was written)`, `${s.specDir}/${file}`);
  }
  const now = options.now ?? new Date().toISOString();
  const report = classifyConvergence(s, convergenceRound(s) + 1, now);
  const escalate = report.status === 'needs_another_round' && report.round >= MAX_CONVERGENCE_ROUNDS;
  const appended = report.status === 'needs_another_round' && !escalate ? tasksToAppend(s, report) : [];

  const unchanged = appended.length === 0 ? sameApartFromTime(join(s.dir, CONVERGENCE_REPORT_FILE), report) : undefined;
  if (unchanged) return { report: unchanged, written: false, appended, escalate };
  // What converge writes for the implementer reads in the spec's language, as the prompts do.
  const language = specLanguage(s);
  const planPath = join(s.dir, 'plan.md');
  // The state store writes them (the actor's store, under the request's lock), the report last.
  const write = options.write ?? ((files) => writeSpecFiles(s, files));
  write([
    ...appended.map((task) => ({ file: `${TASKS_DIR}/${task.id}.md`, text: taskText(s, task, report.round, language) })),
    ...(appended.length
      ? [
          { file: TRACEABILITY_FILE, text: toJsonText(tracedWith(readFileSync(join(s.dir, TRACEABILITY_FILE), 'utf8'), appended)) },
          { file: 'plan.md', text: planWith(existsSync(planPath) ? readFileSync(planPath, 'utf8') : '', appended, report.round, language) },
        ]
      : []),
    { file: CONVERGENCE_REPORT_FILE, text: toJsonText(report) },
  ]);
  return { report, written: true, appended, escalate };
}

function tasksToAppend(s: SpecSnapshot, report: ConvergenceReportFile): AppendedTask[] {
  const open = new Set([...s.tasks.values()].filter((t) => s.taskStates.get(t.id)?.status !== 'done').flatMap((t) => t.behavior_ids));
  const byRequirement = new Map<string, string[]>();
  for (const f of report.findings) {
    if (f.severity !== 'blocker' || !f.behavior_id || !f.requirement_id || open.has(f.behavior_id)) continue;
    byRequirement.set(f.requirement_id, [...(byRequirement.get(f.requirement_id) ?? []), f.behavior_id]);
  }
  let next = Math.max(0, ...[...s.tasks.keys(), ...s.taskStates.keys()].map(taskNumber), ...[...s.files].map((f) => taskNumber(/^tasks\/(T\d+)\.md$/i.exec(f)?.[1] ?? ''))) + 1;
  return [...byRequirement].map(([requirement, behaviors]) => ({ id: `T${next++}`, requirement, behaviors }));
}

function taskText(s: SpecSnapshot, task: AppendedTask, round: number, language: Language): string {
  const earlier = [...s.tasks.values()].filter((t) => t.requirements.includes(task.requirement) || t.behavior_ids.some((b) => task.behaviors.includes(b)));
  const owns = [...new Set(earlier.flatMap((t) => t.owns))];
  const kinds = task.behaviors.join(', ');
  return [
    '---',
    `owns: ${inline(owns)}`,
    'reads: []',
    `depends_on: ${inline(earlier.map((t) => t.id))}`,
    `requirements: ${inline([task.requirement])}`,
    `behavior_ids: ${inline(task.behaviors)}`,
    'complexity: low',
    '---',
    t('validator.converge.taskHeading', { task: task.id, requirement: task.requirement }, language),
    '',
    t('validator.converge.taskBody', { round, behaviors: kinds }, language),
    '',
  ].join('\n');
}

function planWith(plan: string, appended: readonly AppendedTask[], round: number, language: Language): string {
  const items = appended.map((a) => t('validator.converge.planItem', { task: a.id, requirement: a.requirement, behaviors: a.behaviors.join(', ') }, language));
  const base = plan.length === 0 || plan.endsWith('\n') ? plan : `${plan}\n`;
  return `${base}${base ? '\n' : ''}${t('validator.converge.planHeading', { round }, language)}\n\n${items.join('\n')}\n`;
}

type Json = Record<string, unknown>;

/** Adds `task` to a reference list under the name the entry already uses (`tasks` or `task_ids`). */
function addTask(entry: Json, task: string): void {
  const key = Object.hasOwn(entry, 'tasks') || !Object.hasOwn(entry, 'task_ids') ? 'tasks' : 'task_ids';
  const list = Array.isArray(entry[key]) ? (entry[key] as unknown[]) : [];
  if (!list.some((x) => typeof x === 'string' && normalizeTaskRef(x) === task)) list.push(task);
  entry[key] = list;
}

/** traceability.json with the appended tasks traced, in the form (object or array) the file has. */
function tracedWith(text: string, appended: readonly AppendedTask[]): unknown {
  const data = JSON.parse(text) as { requirements: Json | Json[] };
  const requirementEntry = (id: string): Json => {
    if (Array.isArray(data.requirements)) {
      let entry = data.requirements.find((e) => e.id === id);
      if (!entry) data.requirements.push((entry = { id, tasks: [], tests: [], evidence: [] }));
      return entry;
    }
    if (!Object.hasOwn(data.requirements, id)) data.requirements[id] = { tasks: [], tests: [], evidence: [] };
    return data.requirements[id] as Json;
  };
  for (const task of appended) {
    const entry = requirementEntry(task.requirement);
    addTask(entry, task.id);
    for (const b of task.behaviors) {
      if (Array.isArray(entry.behaviors)) {
        const list = entry.behaviors as Json[];
        let own = list.find((x) => x.id === b);
        if (!own) list.push((own = { id: b, tasks: [], tests: [], evidence: [] }));
        addTask(own, task.id);
        continue;
      }
      const behaviors = (entry.behaviors && typeof entry.behaviors === 'object' ? entry.behaviors : (entry.behaviors = {})) as Json;
      if (!Object.hasOwn(behaviors, b)) behaviors[b] = { tasks: [], tests: [], evidence: [] };
      addTask(behaviors[b] as Json, task.id);
    }
  }
  return data;
}
