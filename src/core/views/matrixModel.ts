import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MatrixFileRef, MatrixGap, MatrixModel, MatrixRow } from '../../shared/matrixModel';
import { REQUIREMENTS_FILE } from '../files/requirements';
import { splitTestRef, TRACEABILITY_FILE } from '../files/traceability';
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
  const requirementsPath = `${snapshot.specDir}/${REQUIREMENTS_FILE}`;
  const lines = snapshot.requirements ? behaviorLines(join(snapshot.dir, REQUIREMENTS_FILE)) : new Map<string, number>();
  const rows = matrix.rows.map((r) => toRow(r, snapshot, requirementsPath, lines.get(r.behavior)));

  const closedBy = new Map<string, number>();
  const countBy = new Map<string, number>();
  for (const r of rows) {
    countBy.set(r.requirement, (countBy.get(r.requirement) ?? 0) + 1);
    if (r.closed) closedBy.set(r.requirement, (closedBy.get(r.requirement) ?? 0) + 1);
  }
  const tasks = new Set<string>(snapshot.tasks.keys());
  for (const r of rows) for (const t of r.tasks) tasks.add(t.id);

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

function toRow(r: BehaviorTraceRow, snapshot: SpecSnapshot, requirementsPath: string, line: number | undefined): MatrixRow {
  const tasks = r.tasks.map((id) => {
    const file = snapshot.tasks.get(id)?.file;
    return file ? { id, path: file, exists: true } : { id, exists: false };
  });
  const tests = r.tests.map((t) => fileRef(t, splitTestRef(t.ref).name));
  const evidence = r.evidence.map((e) => fileRef(e));
  const gaps = matrixGaps(tasks, tests, evidence, r.applicability);
  return {
    requirement: r.requirement,
    behavior: r.behavior,
    category: r.category,
    status: r.status,
    description: r.description,
    ...(r.applicability ? { applicability: r.applicability } : {}),
    tasks,
    tests,
    evidence,
    closed: r.closed,
    gaps,
    source: line ? { path: requirementsPath, line } : { path: requirementsPath },
  };
}

function fileRef(t: TraceRef, testName?: string): MatrixFileRef {
  return {
    ref: t.ref,
    ...(t.path ? { path: t.path } : {}),
    ...(testName ? { testName } : {}),
    exists: t.exists,
    ...(t.reason ? { reason: t.reason } : {}),
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
 * What a behavior's row lacks: no link at all, or a link to something that does not exist. A
 * behavior settled as not-applicable lacks no link, only files it names that are missing.
 */
export function matrixGaps(
  tasks: readonly { exists: boolean }[],
  tests: readonly { exists: boolean }[],
  evidence: readonly { exists: boolean }[],
  applicability?: MatrixRow['applicability'],
): MatrixGap[] {
  const gaps: MatrixGap[] = [];
  const needsLinks = applicability !== 'not-applicable';
  if (needsLinks && tasks.length === 0) gaps.push('no-task');
  if (tasks.some((t) => !t.exists)) gaps.push('unknown-task');
  if (needsLinks && tests.length === 0) gaps.push('no-test');
  if (tests.some((t) => !t.exists)) gaps.push('missing-test');
  if (needsLinks && evidence.length === 0) gaps.push('no-evidence');
  if (evidence.some((e) => !e.exists)) gaps.push('missing-evidence');
  return gaps;
}
