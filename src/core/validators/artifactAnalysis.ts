import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { lazySchema } from '../../shared/lazySchema';
import { CorruptArtifactError, OverrideRefusedError } from '../errors';
import { ARTIFACT_ANALYSIS_FILE, FindingOverrideSchema, type Finding, type FindingOverride } from '../files/findings';
import { findPlaceholder } from '../files/placeholders';
import { REQUIREMENTS_FILE } from '../files/requirements';
import { normalizeTaskRef } from '../files/taskFile';
import { TRACEABILITY_FILE } from '../files/traceability';
import { categoriesImpliedBy } from '../files/vocabulary';
import { toJsonText, writeFileAtomic } from '../fs/atomicWrite';
import { displayLanguage, t as text, type Language } from '../messages';
import { withRunLock } from '../store/runLock';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { planTaskBatches } from '../tasks/taskBatches';
import { addToTask, removeFromTask, removeTraceTasks, type FindingFix } from './findingFix';
import { FindingList, isBlocking, percent, sameApartFromTime, SpecLines, traceRequirementFix, traceTasksFix } from './findingSupport';
import { requirementIdsInSpec } from './requirementTaskClosure';
import type { ValidatorResult } from './validatorResult';

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
  coverage: {
    requirement_coverage: string;
    behavior_coverage: string;
    required_category_coverage: string;
    traceability_req_coverage: string;
    traceability_behavior_coverage: string;
  };
  findings: Finding[];
  /** Blocker and error findings, overridden or not (loom's count). */
  blocker_count: number;
  created_at: string;
  /** Not written to artifact-analysis.json: kept in artifact-analysis.overrides.json. */
  overrides?: FindingOverride[];
}

/** Declared types whose category must have a behavior before the plan is approved. */
const CRITICAL_TYPES = ['performance', 'security', 'observable'];

const taskFile = (id: string) => `tasks/${id}.md`;
/** `T1.md` for `specs/x/tasks/T1.md`: the file name as it is on disk. */
const taskFileName = (file: string) => file.slice(file.lastIndexOf('/') + 1);

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
 * The analysis, and the fixes of its findings that need no judgment (kept out of the report).
 * Worded in `language`: FINDINGS_FILE_LANGUAGE for the file, the display language for the user.
 */
function analyze(s: SpecSnapshot, now: string, language: Language): { report: ArtifactAnalysisReport; fixes: ReadonlyMap<string, FindingFix> } {
  const list = new FindingList('F');
  const lines = new SpecLines(s);
  const add = list.add.bind(list);

  const specText = lines.text('spec.md');
  if (specText === undefined) add({ kind: 'missing', severity: 'blocker', artifact: 'spec.md', message: text('analysis.specMissing', {}, language), location: { file: 'spec.md' } });
  if (!s.requirements) {
    const missing = s.requirementsCondition === 'missing';
    add({
      kind: missing ? 'missing' : 'format',
      severity: missing ? 'blocker' : 'error',
      artifact: REQUIREMENTS_FILE,
      location: { file: REQUIREMENTS_FILE },
      message: missing ? text('analysis.requirementsMissing', {}, language) : text('analysis.requirementsUnreadable', {}, language),
    });
  }
  if (!s.traceability) {
    const missing = s.traceabilityCondition === 'missing';
    add({
      kind: missing ? 'missing' : 'format',
      severity: missing ? 'blocker' : 'error',
      artifact: TRACEABILITY_FILE,
      location: { file: TRACEABILITY_FILE },
      message: missing ? text('analysis.traceabilityMissing', {}, language) : text('analysis.traceabilityUnreadable', {}, language),
    });
  }

  const requirements = s.requirements?.requirements ?? [];
  const specIds = specText === undefined ? [] : requirementIdsInSpec(specText);
  const specSet = new Set(specIds);
  const reqById = new Map(requirements.map((r) => [r.id, r]));
  const knownReqs = new Set([...specIds, ...reqById.keys()]);
  const behaviors = requirements.flatMap((r) => r.behaviors.map((b) => ({ req: r.id, b })));
  const behaviorIds = new Set(behaviors.map((x) => x.b.id));
  const tasks = [...s.tasks.values()];
  const taskLine = (id: string, key: string) => s.tasks.get(id)?.keyLines.get(key) ?? 1;

  // spec.md and requirements.json must name the same requirements.
  if (s.requirements && specText !== undefined) {
    for (const id of specIds.filter((x) => !reqById.has(x))) {
      add({
        kind: 'missing',
        severity: 'blocker',
        requirement_id: id,
        artifact: REQUIREMENTS_FILE,
        message: text('analysis.undeclared', { id }, language),
        location: lines.at('spec.md', lines.lineOf('spec.md', id)),
        suggested_fix: { action: 'update_requirement', details: text('analysis.addRequirement', { id }, language) },
      });
    }
    for (const r of requirements.filter((x) => !specSet.has(x.id))) {
      add({
        kind: 'unrequested',
        severity: 'error',
        requirement_id: r.id,
        artifact: REQUIREMENTS_FILE,
        message: text('analysis.unnamed', { id: r.id }, language),
        location: lines.at(REQUIREMENTS_FILE, lines.requirementLine(r.id)),
        suggested_fix: { action: 'update_requirement', details: text('analysis.removeOrDescribe', { id: r.id }, language) },
      });
    }
  }

  // plan.md and tasks/ must agree.
  const plan = lines.text('plan.md');
  if (plan === undefined) {
    add({ kind: 'missing', severity: 'blocker', artifact: 'plan.md', message: text('analysis.planMissing', {}, language), location: { file: 'plan.md' } });
  } else {
    for (const t of tasks) {
      // loom's analyze-artifacts.mjs (orphan_task): plan.md must contain the task's file name as it is on disk.
      const name = taskFileName(t.file);
      if (!plan.includes(name)) {
        add({
          kind: 'unrequested',
          severity: 'error',
          task_id: t.id,
          artifact: 'plan.md',
          message: text('analysis.unlistedTask', { task: t.id, name }, language),
          location: { file: taskFile(t.id), line: 1 },
          suggested_fix: { details: text('analysis.listOrRemove', { task: t.id, name, file: taskFile(t.id) }, language) },
        });
      }
    }
    for (const id of [...new Set([...plan.matchAll(/\bT(\d+)\b/g)].map((m) => `T${m[1]}`))]) {
      if (!s.tasks.has(id)) {
        add({
          kind: 'missing',
          severity: 'blocker',
          task_id: id,
          artifact: 'plan.md',
          message: text('analysis.planTaskMissing', { task: id, file: taskFile(id) }, language),
          location: lines.at('plan.md', lines.lineOf('plan.md', id)),
          suggested_fix: { action: 'create_task', details: text('analysis.createFile', { file: taskFile(id) }, language) },
        });
      }
    }
  }

  // Tasks may only name what was asked for.
  for (const t of tasks) {
    for (const id of t.behavior_ids.filter((x) => !behaviorIds.has(x))) {
      add(
        {
          kind: 'unrequested',
          severity: 'blocker',
          task_id: t.id,
          behavior_id: id,
          artifact: taskFile(t.id),
          message: text('analysis.unknownBehavior', { task: t.id, id }, language),
          location: { file: taskFile(t.id), line: taskLine(t.id, 'behavior_ids') },
          suggested_fix: { action: 'update_task', details: text('analysis.removeBehaviorId', { task: t.id, id }, language) },
        },
        removeFromTask(t.id, 'behavior_ids', id),
      );
    }
    for (const id of t.requirements.filter((x) => !knownReqs.has(x))) {
      add(
        {
          kind: 'unrequested',
          severity: 'blocker',
          task_id: t.id,
          requirement_id: id,
          artifact: taskFile(t.id),
          message: text('analysis.unknownRequirement', { task: t.id, id }, language),
          location: { file: taskFile(t.id), line: taskLine(t.id, 'requirements') },
          suggested_fix: { action: 'update_task', details: text('analysis.removeRequirementRef', { task: t.id, id }, language) },
        },
        removeFromTask(t.id, 'requirements', id),
      );
    }
  }

  // Every requirement and behavior needs a task.
  const tasksOfReq = (id: string) => tasks.filter((t) => t.requirements.includes(id)).map((t) => t.id);
  for (const id of knownReqs) {
    if (tasksOfReq(id).length > 0) continue;
    const where = specSet.has(id) ? lines.at('spec.md', lines.lineOf('spec.md', id)) : lines.at(REQUIREMENTS_FILE, lines.requirementLine(id));
    add(
      {
        kind: 'missing',
        severity: 'blocker',
        requirement_id: id,
        artifact: 'tasks/',
        message: text('analysis.requirementUntasked', { id }, language),
        location: where,
        suggested_fix: { action: 'update_task', details: tasks[0] ? text('analysis.addRequirementOrCreate', { id, task: tasks[0].id }, language) : text('analysis.createTaskFor', { id }, language) },
      },
      tasks[0] ? addToTask(tasks[0].id, 'requirements', id) : undefined,
    );
  }
  const mapped = new Set(tasks.flatMap((t) => t.behavior_ids));
  const traceByReq = new Map((s.traceability?.requirements ?? []).map((e) => [e.id, e]));
  for (const { req, b } of behaviors) {
    // loom's analyze-artifacts.mjs knows no applicability: every behavior needs a task.
    if (mapped.has(b.id)) continue;
    const traced = traceByReq.get(req)?.behaviors;
    const candidate = tasksOfReq(req)[0] ?? (traced && Object.hasOwn(traced, b.id) ? traced[b.id].tasks.map(normalizeTaskRef)[0] : undefined);
    add(
      {
        kind: 'missing',
        severity: 'blocker',
        requirement_id: req,
        behavior_id: b.id,
        artifact: 'tasks/',
        message: text('analysis.behaviorUntasked', { id: b.id }, language),
        location: lines.at(REQUIREMENTS_FILE, lines.requirementLine(req, b.id)),
        suggested_fix: candidate
          ? { action: 'update_task', details: text('analysis.addBehaviorId', { id: b.id, task: candidate }, language) }
          : { action: 'create_task', details: text('analysis.createTaskImplementing', { id: b.id }, language) },
      },
      candidate && s.tasks.has(candidate) ? addToTask(candidate, 'behavior_ids', b.id) : undefined,
    );
  }

  // The task graph must be plannable.
  const batches = planTaskBatches(tasks);
  if (batches.cycle?.length) {
    const first = batches.cycle[0];
    add({
      kind: 'contradicts',
      severity: 'blocker',
      task_id: first,
      artifact: 'tasks/',
      message: text('analysis.cycle', { tasks: batches.cycle.join(', ') }, language),
      location: { file: taskFile(first), line: taskLine(first, 'depends_on') },
      suggested_fix: { action: 'update_task', details: text('analysis.breakCycle', { tasks: batches.cycle.join(', ') }, language) },
    });
  }
  for (const u of batches.unknown_dependencies) {
    add(
      {
        kind: 'missing',
        severity: 'error',
        task_id: u.task,
        artifact: taskFile(u.task),
        message: text('analysis.unknownDependency', { task: u.task, dependency: u.depends_on }, language),
        location: { file: taskFile(u.task), line: taskLine(u.task, 'depends_on') },
        suggested_fix: { action: 'update_task', details: text('analysis.removeDependency', { task: u.task, dependency: u.depends_on }, language) },
      },
      removeFromTask(u.task, 'depends_on', u.depends_on),
    );
  }
  for (const c of batches.conflicts) {
    add({
      kind: 'contradicts',
      severity: 'error',
      task_id: c.a,
      artifact: taskFile(c.a),
      message: text('analysis.conflict', { a: c.a, b: c.b, paths: c.paths.join(', ') }, language),
      location: { file: taskFile(c.a), line: taskLine(c.a, 'owns') },
      suggested_fix: { action: 'update_task', details: text('analysis.serialize', { a: c.a, b: c.b }, language) },
    });
  }

  // traceability.json must trace every requirement and behavior, to tasks that exist.
  if (s.traceability) {
    for (const id of knownReqs) {
      const entry = traceByReq.get(id);
      if (!entry) {
        add(
          {
            kind: 'missing',
            severity: 'blocker',
            requirement_id: id,
            artifact: TRACEABILITY_FILE,
            message: text('analysis.untraced', { id }, language),
            location: lines.at(TRACEABILITY_FILE, lines.traceLine(id)),
            suggested_fix: { action: 'update_traceability', details: text('analysis.traceWithTasks', { id }, language) },
          },
          traceRequirementFix(s, id),
        );
        continue;
      }
      if (entry.tasks.length === 0) {
        add(
          {
            kind: 'missing',
            severity: 'error',
            requirement_id: id,
            artifact: TRACEABILITY_FILE,
            message: text('analysis.tracedToNoTask', { id }, language),
            location: lines.at(TRACEABILITY_FILE, lines.traceLine(id)),
            suggested_fix: {
              action: 'update_traceability',
              details: tasksOfReq(id).length ? text('analysis.addTasksTo', { tasks: tasksOfReq(id).join(', '), id }, language) : text('analysis.addItsTasks', { id }, language),
            },
          },
          traceTasksFix(s, id),
        );
      }
      const traced = entry.behaviors ?? {};
      for (const b of reqById.get(id)?.behaviors ?? []) {
        const own = Object.hasOwn(traced, b.id) ? traced[b.id] : undefined;
        if (!own || own.tasks.length === 0) {
          add(
            {
              kind: 'missing',
              severity: 'error',
              requirement_id: id,
              behavior_id: b.id,
              artifact: TRACEABILITY_FILE,
              message: own ? text('analysis.tracedToNoTask', { id: b.id }, language) : text('analysis.untraced', { id: b.id }, language),
              location: lines.at(TRACEABILITY_FILE, lines.traceLine(id, own ? b.id : undefined)),
              suggested_fix: { action: 'update_traceability', details: text('analysis.traceToImplementer', { id: b.id }, language) },
            },
            traceTasksFix(s, id, b.id),
          );
        }
      }
      for (const bid of Object.keys(traced).filter((x) => reqById.has(id) && !(reqById.get(id)?.behaviors ?? []).some((b) => b.id === x))) {
        add({
          kind: 'unrequested',
          severity: 'error',
          requirement_id: id,
          artifact: TRACEABILITY_FILE,
          message: text('analysis.foreignBehavior', { behavior: bid, id }, language),
          location: lines.at(TRACEABILITY_FILE, lines.traceLine(id, bid)),
          suggested_fix: { action: 'update_traceability', details: text('analysis.removeFromTrace', { id: bid }, language) },
        });
      }
      const refs = [...entry.tasks.map((t) => ({ t, b: undefined as string | undefined })), ...Object.entries(traced).flatMap(([bid, bt]) => bt.tasks.map((t) => ({ t, b: bid })))];
      for (const { t, b } of refs) {
        const ref = normalizeTaskRef(t);
        if (!/^T\d+$/i.test(ref) || s.tasks.has(ref.toUpperCase())) continue;
        add(
          {
            kind: 'missing',
            severity: 'error',
            requirement_id: id,
            ...(b ? { behavior_id: b } : {}),
            artifact: TRACEABILITY_FILE,
            message: text('analysis.traceTaskMissing', { id: b ?? id, task: t, file: taskFile(ref.toUpperCase()) }, language),
            location: lines.at(TRACEABILITY_FILE, lines.traceLine(id, b)),
            suggested_fix: { action: 'update_traceability', details: text('analysis.removeTraceTask', { task: t, id: b ?? id }, language) },
          },
          removeTraceTasks(id, b, [t]),
        );
      }
    }
    for (const e of s.traceability.requirements.filter((x) => !knownReqs.has(x.id))) {
      add({
        kind: 'unrequested',
        severity: 'error',
        requirement_id: e.id,
        artifact: TRACEABILITY_FILE,
        message: text('analysis.unrequestedTrace', { id: e.id }, language),
        location: lines.at(TRACEABILITY_FILE, lines.traceLine(e.id)),
        suggested_fix: { action: 'update_traceability', details: text('analysis.removeFromTrace', { id: e.id }, language) },
      });
    }
  }

  // Declared critical types need a behavior of their category.
  for (const r of requirements) {
    const present = new Set(r.behaviors.map((b) => b.category));
    for (const category of categoriesImpliedBy((r.types ?? []).filter((t) => CRITICAL_TYPES.includes(t.trim().toLowerCase())))) {
      if (present.has(category)) continue;
      add({
        kind: 'missing',
        severity: 'error',
        requirement_id: r.id,
        artifact: REQUIREMENTS_FILE,
        message: text('analysis.noCategory', { id: r.id, declared: category === 'observability' ? 'observable' : category, category }, language),
        location: lines.at(REQUIREMENTS_FILE, lines.requirementLine(r.id)),
        suggested_fix: { action: 'update_requirement', details: text('analysis.addCategory', { id: r.id, category }, language) },
      });
    }
  }

  // Ambiguity: placeholders left in the planning artifacts.
  for (const file of ['spec.md', 'plan.md', ...tasks.map((t) => taskFile(t.id))]) {
    const found = findPlaceholder(lines.text(file) ?? '');
    if (found) {
      add({
        kind: 'placeholder',
        severity: 'error',
        artifact: file,
        message: text('analysis.placeholder', { file, line: found.line, placeholder: found.placeholder }, language),
        location: { file, line: found.line },
        ...(file.startsWith('tasks/') ? { task_id: file.slice(6, -3) } : {}),
      });
    }
  }

  // Warnings: duplicates and partial under-specification.
  const seen = new Map<string, string>();
  for (const { req, b } of behaviors) {
    const key = `${req}\u0000${b.description.trim().toLowerCase()}`;
    const twin = seen.get(key);
    if (twin) {
      add({
        kind: 'contradicts',
        severity: 'warning',
        requirement_id: req,
        behavior_id: b.id,
        artifact: REQUIREMENTS_FILE,
        message: text('analysis.sameDescription', { id: b.id, twin }, language),
        location: lines.at(REQUIREMENTS_FILE, lines.requirementLine(req, b.id)),
        suggested_fix: { action: 'update_requirement', details: text('analysis.mergeOrDistinguish', { id: b.id, twin }, language) },
      });
    } else seen.set(key, b.id);
  }
  const counts = new Map<string, number>();
  for (const { b } of behaviors) counts.set(b.id, (counts.get(b.id) ?? 0) + 1);
  for (const [id, n] of counts) {
    if (n > 1)
      add({
        kind: 'contradicts',
        severity: 'warning',
        behavior_id: id,
        artifact: REQUIREMENTS_FILE,
        message: text('analysis.declaredTwice', { id, count: n }, language),
        location: { file: REQUIREMENTS_FILE },
      });
  }
  for (const r of requirements) {
    if (r.acceptance.length === 0) {
      add({
        kind: 'partial',
        severity: 'warning',
        requirement_id: r.id,
        artifact: REQUIREMENTS_FILE,
        message: text('analysis.noAcceptance', { id: r.id }, language),
        location: lines.at(REQUIREMENTS_FILE, lines.requirementLine(r.id)),
        suggested_fix: { action: 'update_requirement', details: text('analysis.stateDone', { id: r.id }, language) },
      });
    }
    for (const b of r.behaviors) {
      if (b.test_plan && (!Array.isArray(b.test_plan.expected) || b.test_plan.expected.length === 0)) {
        add({
          kind: 'partial',
          severity: 'warning',
          requirement_id: r.id,
          behavior_id: b.id,
          artifact: REQUIREMENTS_FILE,
          message: text('analysis.expectsNothing', { id: b.id }, language),
          location: lines.at(REQUIREMENTS_FILE, lines.requirementLine(r.id, b.id)),
          suggested_fix: { action: 'update_requirement', details: text('analysis.fillExpected', { id: b.id }, language) },
        });
      }
    }
  }

  // Coverage figures.
  const allReqs = [...knownReqs];
  const required = requirements.flatMap((r) => {
    const present = new Set(r.behaviors.map((b) => b.category));
    return [...new Set([...(r.required_categories ?? []), ...categoriesImpliedBy(r.types ?? [])])].map((c) => present.has(c));
  });
  const tracedToTask = (req: string, bid: string) => {
    const traced = traceByReq.get(req)?.behaviors;
    return Boolean(traced && Object.hasOwn(traced, bid) && traced[bid].tasks.length > 0);
  };
  // Every behavior counts, not-applicable ones too, as in loom's figures.
  const coverage = {
    requirement_coverage: percent(specIds.filter((id) => reqById.has(id)).length, specIds.length),
    behavior_coverage: percent(behaviors.filter(({ b }) => mapped.has(b.id)).length, behaviors.length),
    required_category_coverage: percent(required.filter(Boolean).length, required.length),
    traceability_req_coverage: percent(allReqs.filter((id) => traceByReq.has(id)).length, allReqs.length),
    traceability_behavior_coverage: percent(behaviors.filter(({ req, b }) => tracedToTask(req, b.id)).length, behaviors.length),
  };

  const previous = storedOverrides(s);
  const report = withStatus({ stage: 'analyze-artifacts', status: 'pass', coverage, findings: list.findings, blocker_count: 0, created_at: now, overrides: previous });
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
export function writeArtifactAnalysis(s: SpecSnapshot, options: { now?: string; override?: { findingId: string; reason: string; by?: string } } = {}): WrittenReport<ArtifactAnalysisReport> {
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
  withRunLock(s, () => {
    if (!unchanged) writeFileAtomic(join(s.dir, ARTIFACT_ANALYSIS_FILE), toJsonText(file));
    if (sideChanged) writeFileAtomic(join(s.dir, ANALYSIS_OVERRIDES_FILE), toJsonText({ overrides: kept }));
  });
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
