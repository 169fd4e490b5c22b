import { readFileSync } from 'node:fs';
import { isFile } from '../fs/isFile';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { locateJson, type JsonPath } from '../diagnostics/jsonLocator';
import { REQUIREMENTS_FILE, type Behavior } from '../files/requirements';
import { normalizeTaskRef } from '../files/taskFile';
import { splitTestRef, TRACEABILITY_FILE, type BehaviorTrace, type TraceEntry } from '../files/traceability';
import { BEHAVIOR_CATEGORIES, categoriesImpliedBy, type BehaviorCategory, type RequirementStatus } from '../files/vocabulary';
import { repoRelative } from '../fs/paths';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { testRefChecker } from './testRefs';
import { t as text } from '../messages';

/**
 * Loom's traceability closure, one row per behavior: which tasks, tests and evidence stand behind
 * it, and whether it is closed (at least one task, one test file that exists and one evidence
 * file that exists). A behavior detail expansion settled as `applicability: not-applicable` is
 * implemented by nothing, so it is closed when it names no file that is missing: the guard that
 * asks for closure, verification and the views then agree on what is left to do.
 *
 * Decisions (loom's description leaves them open):
 * - A behavior's tasks, tests and evidence come only from its own entry under
 *   `requirements.<REQ>.behaviors.<BEH>` in traceability.json, with task refs folded to ids
 *   (`T1.md` → `T1`). Requirement-level lists are not inherited, and an entry filed under another
 *   requirement does not count for the behavior (it is an orphan).
 * - Test refs resolve exactly as loom's traceability.js resolves them (testRefs.ts): `#name` /
 *   `::name` cut, an absolute path as it is, else the spec directory, else the repository that
 *   holds `specs/` (`projectRootForSpecDir`); anything there counts, as loom's `existsSync` does.
 *   Loom never looks in the feature worktree: a test only the worktree holds is shown as such
 *   (`only-in-worktree`) and does not count, until traceability.json names it through the
 *   worktree, as the executing loop records it, or the feature is merged.
 * - Evidence refs lose `#` / `::` too, resolve against the spec directory or the repository root,
 *   and only count inside the spec's `evidence/`; they must be files (a folder does not count).
 *   `\` is read as `/`.
 * - A requirement category is covered when one of its behaviors has that category, whatever the
 *   behavior's applicability: `not-applicable` is the explicit way to settle a category, and
 *   `requires-clarification` is reported by detail expansion, not here.
 * - `behaviors_without_task` means no task at all: neither traceability.json nor any task's
 *   `behavior_ids` names the behavior.
 * - Without a readable requirements.json there are no rows, and nothing can be judged unknown.
 */

export interface TraceRef {
  ref: string;
  exists: boolean;
  /**
   * Why a ref does not count: the file is not there, evidence lies outside `evidence/`, or the
   * test is only in the feature worktree, where loom does not look.
   */
  reason?: 'missing' | 'outside-evidence' | 'only-in-worktree';
  /** Repository-relative path of the file found (for `only-in-worktree`, the worktree's copy), for opening it. */
  path?: string;
  /** With `only-in-worktree`: the ref as loom would find it, through the worktree. */
  recordAs?: string;
}

export interface BehaviorTraceRow {
  requirement: string;
  behavior: string;
  category: BehaviorCategory;
  status: RequirementStatus;
  tasks: string[];
  tests: TraceRef[];
  evidence: TraceRef[];
  closed: boolean;
  description: string;
  applicability?: Behavior['applicability'];
}

export interface RequirementCoverage {
  id: string;
  /** Declared `required_categories`, then those implied by `types`. */
  required_categories: BehaviorCategory[];
  /** Categories that have at least one behavior, in loom's category order. */
  covered_categories: BehaviorCategory[];
  missing_categories: BehaviorCategory[];
}

export interface TraceOrphans {
  /** A task's `behavior_ids` names a behavior requirements.json does not declare. */
  task_behaviors_unknown: { task: string; behavior: string }[];
  /** traceability.json has an entry for a behavior its requirement does not declare. */
  trace_behaviors_unknown: { requirement: string; behavior: string }[];
  trace_requirements_unknown: string[];
  behaviors_without_task: string[];
  /** traceability.json names a task with no `tasks/TN.md`; `behavior` is null for requirement-level lists. */
  trace_tasks_unknown: { requirement: string; behavior: string | null; task: string }[];
}

export interface TraceabilityMatrix {
  rows: BehaviorTraceRow[];
  requirements: RequirementCoverage[];
  orphans: TraceOrphans;
  summary: { behaviors: number; closed: number };
  /** The orphans as Problems, pointing into the files that hold them. */
  diagnostics: Diagnostic[];
}

export function buildTraceabilityMatrix(snapshot: SpecSnapshot): TraceabilityMatrix {
  const trace = indexTrace(snapshot.traceability?.requirements ?? []);
  const refs = refResolver(snapshot);
  const requirements = snapshot.requirements?.requirements ?? [];

  const rows: BehaviorTraceRow[] = [];
  for (const req of requirements) {
    for (const b of req.behaviors) {
      const entry = trace.behaviors.get(req.id)?.get(b.id);
      const tasks = entry ? taskIds(entry.tasks) : [];
      const tests = (entry?.tests ?? []).map(refs.test);
      const evidence = (entry?.evidence ?? []).map(refs.evidence);
      rows.push({
        requirement: req.id,
        behavior: b.id,
        category: b.category,
        status: b.status,
        tasks,
        tests,
        evidence,
        closed: b.applicability === 'not-applicable' ? [...tests, ...evidence].every((r) => r.exists) : tasks.length > 0 && tests.some((t) => t.exists) && evidence.some((e) => e.exists),
        description: b.description,
        ...(b.applicability ? { applicability: b.applicability } : {}),
      });
    }
  }

  const coverage = requirements.map((req): RequirementCoverage => {
    const required = [...new Set([...(req.required_categories ?? []), ...categoriesImpliedBy(req.types ?? [])])];
    const present = new Set(req.behaviors.map((b) => b.category));
    return {
      id: req.id,
      required_categories: required,
      covered_categories: BEHAVIOR_CATEGORIES.filter((c) => present.has(c)),
      missing_categories: required.filter((c) => !present.has(c)),
    };
  });

  const orphans = snapshot.requirements ? findOrphans(snapshot, trace, rows) : emptyOrphans(snapshot);
  return {
    rows,
    requirements: coverage,
    orphans,
    summary: { behaviors: rows.length, closed: rows.filter((r) => r.closed).length },
    diagnostics: orphanDiagnostics(snapshot, trace, orphans),
  };
}

/** traceability.json by requirement id, first entry winning, with behavior entries in Maps so any key is safe. */
interface TraceIndex {
  requirements: Map<string, { entry: TraceEntry; index: number }>;
  behaviors: Map<string, Map<string, BehaviorTrace>>;
}

function indexTrace(entries: readonly TraceEntry[]): TraceIndex {
  const index: TraceIndex = { requirements: new Map(), behaviors: new Map() };
  entries.forEach((entry, i) => {
    if (!index.requirements.has(entry.id)) index.requirements.set(entry.id, { entry, index: i });
    let byBehavior = index.behaviors.get(entry.id);
    if (!byBehavior) index.behaviors.set(entry.id, (byBehavior = new Map()));
    for (const [id, b] of Object.entries(entry.behaviors ?? {})) if (!byBehavior.has(id)) byBehavior.set(id, b);
  });
  return index;
}

const taskIds = (refs: readonly string[]) => [...new Set(refs.map(normalizeTaskRef).filter((r) => r.length > 0))];

/** Resolves test and evidence refs, asking the file system at most once per path in one build. */
function refResolver(snapshot: SpecSnapshot) {
  const known = new Map<string, boolean>();
  const isKnownFile = (abs: string) => {
    let found = known.get(abs);
    if (found === undefined) known.set(abs, (found = isFile(abs)));
    return found;
  };
  const candidates = (file: string) => {
    const clean = file.trim().replace(/\\/g, '/');
    return clean ? [resolve(snapshot.dir, clean), resolve(snapshot.repoRoot, clean)] : [];
  };
  const tests = testRefChecker(snapshot);
  const evidenceDir = join(snapshot.dir, 'evidence');
  const inEvidence = (abs: string) => {
    const r = relative(evidenceDir, abs);
    return r !== '' && r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r);
  };
  const found = (ref: string, paths: string[]): TraceRef => {
    const hit = paths.find(isKnownFile);
    return hit ? { ref, exists: true, path: repoRelative(snapshot.repoRoot, hit) } : { ref, exists: false, reason: 'missing' };
  };
  return {
    test: (ref: string): TraceRef => {
      const check = tests.traceability(ref);
      if (check.exists) return { ref, exists: true, ...(check.path ? { path: repoRelative(snapshot.repoRoot, check.path) } : {}) };
      if (!check.worktreeOnly) return { ref, exists: false, reason: 'missing' };
      return { ref, exists: false, reason: 'only-in-worktree', path: repoRelative(snapshot.repoRoot, check.worktreeOnly), ...(check.recordAs ? { recordAs: check.recordAs } : {}) };
    },
    // Loom strips `#name` / `::name` from evidence refs too.
    evidence: (ref: string): TraceRef => {
      const inside = candidates(splitTestRef(ref).file).filter(inEvidence);
      return inside.length > 0 ? found(ref, inside) : { ref, exists: false, reason: 'outside-evidence' };
    },
  };
}

function findOrphans(snapshot: SpecSnapshot, trace: TraceIndex, rows: readonly BehaviorTraceRow[]): TraceOrphans {
  const declared = new Map<string, Set<string>>();
  for (const req of snapshot.requirements?.requirements ?? []) {
    const set = declared.get(req.id) ?? new Set<string>();
    for (const b of req.behaviors) set.add(b.id);
    declared.set(req.id, set);
  }
  const knownBehaviors = new Set(rows.map((r) => r.behavior));

  const task_behaviors_unknown: TraceOrphans['task_behaviors_unknown'] = [];
  const namedByTasks = new Set<string>();
  for (const task of snapshot.tasks.values()) {
    for (const behavior of new Set(task.behavior_ids)) {
      namedByTasks.add(behavior);
      if (!knownBehaviors.has(behavior)) task_behaviors_unknown.push({ task: task.id, behavior });
    }
  }

  const trace_requirements_unknown: string[] = [];
  const trace_behaviors_unknown: TraceOrphans['trace_behaviors_unknown'] = [];
  for (const [requirement, behaviors] of trace.behaviors) {
    const known = declared.get(requirement);
    if (!known) trace_requirements_unknown.push(requirement);
    for (const behavior of behaviors.keys()) if (!known?.has(behavior)) trace_behaviors_unknown.push({ requirement, behavior });
  }

  const behaviors_without_task = [...new Set(rows.filter((r) => r.tasks.length === 0 && !namedByTasks.has(r.behavior)).map((r) => r.behavior))];

  return { task_behaviors_unknown, trace_behaviors_unknown, trace_requirements_unknown, behaviors_without_task, trace_tasks_unknown: unknownTraceTasks(snapshot) };
}

function emptyOrphans(snapshot: SpecSnapshot): TraceOrphans {
  return { task_behaviors_unknown: [], trace_behaviors_unknown: [], trace_requirements_unknown: [], behaviors_without_task: [], trace_tasks_unknown: unknownTraceTasks(snapshot) };
}

function unknownTraceTasks(snapshot: SpecSnapshot): TraceOrphans['trace_tasks_unknown'] {
  const out: TraceOrphans['trace_tasks_unknown'] = [];
  const seen = new Set<string>();
  const check = (requirement: string, behavior: string | null, refs: readonly string[]) => {
    for (const task of taskIds(refs)) {
      const key = `${requirement}\u0000${behavior ?? ''}\u0000${task}`;
      if (snapshot.tasks.has(task) || seen.has(key)) continue;
      seen.add(key);
      out.push({ requirement, behavior, task });
    }
  };
  for (const entry of snapshot.traceability?.requirements ?? []) {
    check(entry.id, null, entry.tasks);
    for (const [behavior, b] of Object.entries(entry.behaviors ?? {})) check(entry.id, behavior, b.tasks);
  }
  return out;
}

/**
 * Orphans as Problems: unknown behaviors on the task's `behavior_ids` line; unknown entries and
 * tasks on their key in traceability.json; behaviors without a task on their `id` in
 * requirements.json. Behaviors under an unknown requirement are left to that requirement's
 * diagnostic. Each JSON file is read and scanned once, and only when something points into it.
 */
function orphanDiagnostics(snapshot: SpecSnapshot, traceIndex: TraceIndex, orphans: TraceOrphans): Diagnostic[] {
  const out: Diagnostic[] = [];

  for (const { task, behavior } of orphans.task_behaviors_unknown) {
    const t = snapshot.tasks.get(task);
    if (!t) continue;
    out.push(diagnostic(t.file, text('trace.unknownBehavior', { task, behavior }), { line: t.keyLines.get('behavior_ids') ?? 1 }, 'error', 'unknown-behavior'));
  }

  const traceFile = `${snapshot.specDir}/${TRACEABILITY_FILE}`;
  const traceAt = jsonLocations(join(snapshot.dir, TRACEABILITY_FILE));
  const arrayForm = snapshot.traceability?.form === 'array';
  const entryPath = (requirement: string): JsonPath => {
    const i = traceIndex.requirements.get(requirement)?.index ?? 0;
    return arrayForm ? ['requirements', i, 'id'] : ['requirements', requirement];
  };
  const behaviorPath = (requirement: string, behavior: string): JsonPath => {
    const i = traceIndex.requirements.get(requirement)?.index ?? 0;
    return ['requirements', ...(arrayForm ? [i] : [requirement]), 'behaviors', behavior];
  };
  const unknownRequirements = new Set(orphans.trace_requirements_unknown);

  for (const requirement of orphans.trace_requirements_unknown) {
    out.push(diagnostic(traceFile, text('trace.unknownRequirement', { requirement }), traceAt(entryPath(requirement)), 'warning', 'trace-unknown-requirement'));
  }
  for (const { requirement, behavior } of orphans.trace_behaviors_unknown) {
    if (unknownRequirements.has(requirement)) continue;
    out.push(diagnostic(traceFile, text('trace.unknownTraceBehavior', { behavior, requirement }), traceAt(behaviorPath(requirement, behavior)), 'warning', 'trace-unknown-behavior'));
  }
  for (const { requirement, behavior, task } of orphans.trace_tasks_unknown) {
    const where = behavior === null ? entryPath(requirement) : behaviorPath(requirement, behavior);
    out.push(diagnostic(traceFile, text('trace.unknownTask', { item: behavior ?? requirement, task }), traceAt(where), 'error', 'trace-unknown-task'));
  }

  // Before planning no behavior has a task yet, and that is no problem.
  if (orphans.behaviors_without_task.length > 0 && snapshot.requirements && snapshot.tasks.size > 0) {
    const requirementsAt = jsonLocations(join(snapshot.dir, REQUIREMENTS_FILE));
    const arrayReqs = snapshot.requirements.form === 'array';
    const where = new Map<string, JsonPath>();
    snapshot.requirements.requirements.forEach((req, i) => {
      req.behaviors.forEach((b, j) => {
        if (!where.has(b.id)) where.set(b.id, ['requirements', arrayReqs ? i : req.id, 'behaviors', j, 'id']);
      });
    });
    for (const behavior of orphans.behaviors_without_task) {
      out.push(diagnostic(`${snapshot.specDir}/${REQUIREMENTS_FILE}`, text('trace.behaviorWithoutTask', { behavior }), requirementsAt(where.get(behavior) ?? []), 'warning', 'behavior-without-task'));
    }
  }
  return out;
}

/** Line and column of a JSON path in a file, reading and scanning the file on first use only. */
function jsonLocations(absolute: string): (path: JsonPath) => { line: number; column: number } {
  let locate: ((path: JsonPath) => { line: number; column: number }) | undefined;
  return (path) => {
    if (!locate) {
      let text = '';
      try {
        text = readFileSync(absolute, 'utf8');
      } catch {
        // Gone since the snapshot was taken: point at the top of the file.
      }
      const located = locateJson(text);
      const lineStarts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
      locate = (p) => {
        const offset = located.offsetOf(p);
        let lo = 0;
        let hi = lineStarts.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (lineStarts[mid] <= offset) lo = mid;
          else hi = mid - 1;
        }
        return { line: lo + 1, column: offset - lineStarts[lo] + 1 };
      };
    }
    return locate(path);
  };
}
