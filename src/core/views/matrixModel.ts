import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MatrixFileRef, MatrixGap, MatrixModel, MatrixRow } from '../../shared/matrixModel';
import { REQUIREMENTS_FILE } from '../files/requirements';
import { TRACEABILITY_FILE } from '../files/traceability';
import { BEHAVIOR_CATEGORIES, REQUIREMENT_STATUSES } from '../files/vocabulary';
import { byTaskNumber } from '../specdir/loadSpec';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { buildTraceabilityMatrix, type BehaviorTraceRow, type TraceabilityMatrix, type TraceRef } from '../trace/traceabilityMatrix';

/**
 * The matrix webview's model: the core's TraceabilityMatrix with every reference turned into
 * something the webview can link to or highlight. The closure itself is the core's; this only
 * names the gaps it already found.
 */
export function buildMatrixModel(snapshot: SpecSnapshot, matrix: TraceabilityMatrix = buildTraceabilityMatrix(snapshot)): MatrixModel {
  const lines = snapshot.requirements ? behaviorLines(join(snapshot.dir, REQUIREMENTS_FILE)) : new Map<string, number>();
  const taskFiles = new Map<string, string>();
  for (const [id, task] of snapshot.tasks) if (task.file) taskFiles.set(id, task.file);
  const paths = new PathTable();
  const rows = matrix.rows.map((r) => toRow(r, (id) => taskFiles.has(id), paths, lines.get(r.behavior)));

  const closedBy = new Map<string, number>();
  const countBy = new Map<string, number>();
  for (const r of rows) {
    countBy.set(r.requirement, (countBy.get(r.requirement) ?? 0) + 1);
    if (r.closed) closedBy.set(r.requirement, (closedBy.get(r.requirement) ?? 0) + 1);
  }
  const tasks = new Set<string>(snapshot.tasks.keys());
  for (const r of rows) for (const t of r.tasks) tasks.add(t);

  const o = matrix.orphans;
  return {
    kind: 'matrix',
    specDir: snapshot.specDir,
    specName: snapshot.name,
    ...notice(snapshot),
    requirements: matrix.requirements.map((c) => ({
      id: c.id,
      requiredCategories: [...c.required_categories],
      coveredCategories: [...c.covered_categories],
      missingCategories: [...c.missing_categories],
      behaviors: countBy.get(c.id) ?? 0,
      closed: closedBy.get(c.id) ?? 0,
    })),
    rows,
    requirementsPath: `${snapshot.specDir}/${REQUIREMENTS_FILE}`,
    // fromEntries defines each id as an own property, whatever it is called.
    taskFiles: Object.fromEntries(taskFiles),
    paths: paths.list,
    orphans: {
      taskBehaviorsUnknown: o.task_behaviors_unknown.map((x) => ({ ...x })),
      traceBehaviorsUnknown: o.trace_behaviors_unknown.map((x) => ({ ...x })),
      traceRequirementsUnknown: [...o.trace_requirements_unknown],
      behaviorsWithoutTask: [...o.behaviors_without_task],
      traceTasksUnknown: o.trace_tasks_unknown.map((x) => ({ ...x })),
    },
    summary: { ...matrix.summary },
    vocabulary: { categories: [...BEHAVIOR_CATEGORIES], statuses: [...REQUIREMENT_STATUSES], tasks: [...tasks].sort(byTaskNumber) },
  };
}

/** Each file the rows link, numbered once: a ledger's thousands of rows link a few hundred files. */
class PathTable {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();

  of(path: string): number {
    let i = this.index.get(path);
    if (i === undefined) {
      i = this.list.push(path) - 1;
      this.index.set(path, i);
    }
    return i;
  }
}

function toRow(r: BehaviorTraceRow, hasFile: (task: string) => boolean, paths: PathTable, line: number | undefined): MatrixRow {
  const tests = r.tests.map((t) => fileRef(t, paths));
  const evidence = r.evidence.map((e) => fileRef(e, paths));
  const exists = (t: TraceRef) => t.exists;
  const gaps = matrixGaps(r.tasks.map(hasFile), r.tests.map(exists), r.evidence.map(exists), r.applicability);
  return {
    requirement: r.requirement,
    behavior: r.behavior,
    category: r.category,
    status: r.status,
    description: r.description,
    ...(r.applicability ? { applicability: r.applicability } : {}),
    tasks: [...r.tasks],
    tests,
    evidence,
    closed: r.closed,
    gaps,
    ...(line ? { line } : {}),
  };
}

function fileRef(t: TraceRef, paths: PathTable): MatrixFileRef {
  return {
    ref: t.ref,
    ...(t.path ? { path: paths.of(t.path) } : {}),
    // The model says a file exists by giving no reason it does not count.
    ...(t.exists ? {} : { reason: t.reason ?? 'missing' }),
    ...(t.recordAs ? { recordAs: t.recordAs } : {}),
  };
}

function notice(s: SpecSnapshot): { notice?: string } {
  if (s.requirementsCondition === 'missing') return { notice: `${REQUIREMENTS_FILE} does not exist yet, so there are no behaviors to trace.` };
  if (s.requirementsCondition === 'invalid') return { notice: `${REQUIREMENTS_FILE} could not be read; see the Problems panel.` };
  if (s.traceabilityCondition === 'missing') return { notice: `${TRACEABILITY_FILE} does not exist yet: no behavior is linked to tasks, tests or evidence.` };
  if (s.traceabilityCondition === 'invalid') return { notice: `${TRACEABILITY_FILE} could not be read; see the Problems panel.` };
  return {};
}

/**
 * The 1-based line where each behavior id first appears in requirements.json, in one pass over
 * the text: a behavior's `"id"` comes before anything else that could name it.
 */
export function behaviorLines(path: string): Map<string, number> {
  const out = new Map<string, number>();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return out;
  }
  const pattern = /"(REQ-\d{3,}-B\d{2,})"/g;
  let line = 1;
  let at = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    for (let i = text.indexOf('\n', at); i !== -1 && i < m.index; i = text.indexOf('\n', i + 1)) line++;
    at = m.index;
    if (!out.has(m[1])) out.set(m[1], line);
  }
  return out;
}

/**
 * What a behavior's row lacks: no link at all, or a link to something that does not exist (each
 * list says, link by link, whether it exists). A behavior settled as not-applicable lacks no
 * link, only files it names that are missing.
 */
export function matrixGaps(tasks: readonly boolean[], tests: readonly boolean[], evidence: readonly boolean[], applicability?: MatrixRow['applicability']): MatrixGap[] {
  const gaps: MatrixGap[] = [];
  const needsLinks = applicability !== 'not-applicable';
  const missing = (exists: boolean) => !exists;
  if (needsLinks && tasks.length === 0) gaps.push('no-task');
  if (tasks.some(missing)) gaps.push('unknown-task');
  if (needsLinks && tests.length === 0) gaps.push('no-test');
  if (tests.some(missing)) gaps.push('missing-test');
  if (needsLinks && evidence.length === 0) gaps.push('no-evidence');
  if (evidence.some(missing)) gaps.push('missing-evidence');
  return gaps;
}
