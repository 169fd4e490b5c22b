/** Synthetic matrix models of any size, with every kind of gap, for the browser tests and the benchmark. */
import { matrixGaps } from '../../../src/core/views/matrixModel';
import type { MatrixModel, MatrixRow } from '../../../src/shared/matrixModel';

export const CATEGORIES = ['happy-path', 'boundary', 'invalid-input', 'authorization', 'security', 'performance'];
export const STATUSES = ['failing', 'in_progress', 'candidate_implemented', 'passing', 'blocked', 'superseded'];
const SPEC = 'specs/2026-11-29+login';

/**
 * `behaviors` rows, ten per requirement. Row i: task T(i%7+1) (none when i%11==5, an unknown task
 * T99 when i%13==7), a test (none when i%9==4, a missing file when i%9==8), evidence (none when
 * i%5==3). Closed when it has a task file, an existing test and evidence.
 */
export function matrixModel(behaviors: number): MatrixModel {
  const rows: MatrixRow[] = [];
  const paths: string[] = [];
  const pathOf = (path: string) => (paths.includes(path) ? paths.indexOf(path) : paths.push(path) - 1);
  for (let i = 0; i < behaviors; i++) {
    const req = `REQ-${String(Math.floor(i / 10) + 1).padStart(3, '0')}`;
    const behavior = `${req}-B${String((i % 10) + 1).padStart(2, '0')}`;
    const task = `T${(i % 7) + 1}`;
    const tasks = i % 11 === 5 ? [] : i % 13 === 7 ? ['T99'] : [task];
    const testFile = `tests/auth/login${i % 4}.test.ts`;
    const tests = i % 9 === 4 ? [] : i % 9 === 8 ? [{ ref: 'tests/auth/gone.test.ts', reason: 'missing' as const }] : [{ ref: `${testFile}#case ${i}`, path: pathOf(testFile) }];
    const evidence = i % 5 === 3 ? [] : [{ ref: `evidence/run-${i % 3}.log`, path: pathOf(`${SPEC}/evidence/run-${i % 3}.log`) }];
    const taskExists = tasks.map((t) => t !== 'T99');
    const testExists = tests.map((t) => !('reason' in t));
    const gaps = matrixGaps(
      taskExists,
      testExists,
      evidence.map(() => true),
    );
    const closed = taskExists.includes(true) && testExists.includes(true) && evidence.length > 0;
    rows.push({
      requirement: req,
      behavior,
      category: CATEGORIES[i % CATEGORIES.length],
      status: STATUSES[i % STATUSES.length],
      description: i === 0 ? 'A signed-in user sees the dashboard, with a description long enough to be cut off at the edge of its column' : `Behavior number ${i} of the login feature`,
      tasks,
      tests,
      evidence,
      closed,
      gaps,
      line: 10 + i * 12,
    });
  }
  const requirements = [...new Set(rows.map((r) => r.requirement))].map((id, k) => {
    const mine = rows.filter((r) => r.requirement === id);
    const covered = [...new Set(mine.map((r) => r.category))];
    const required = k % 3 === 0 ? ['happy-path', 'security', 'observability'] : ['happy-path'];
    return {
      id,
      requiredCategories: required,
      coveredCategories: covered,
      missingCategories: required.filter((c) => !covered.includes(c)),
      behaviors: mine.length,
      closed: mine.filter((r) => r.closed).length,
    };
  });
  return {
    kind: 'matrix',
    specDir: SPEC,
    specName: '2026-11-29+login',
    requirements,
    rows,
    requirementsPath: `${SPEC}/requirements.json`,
    taskFiles: Object.fromEntries(['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7'].map((t) => [t, `${SPEC}/tasks/${t}.md`])),
    paths,
    orphans: {
      taskBehaviorsUnknown: [],
      traceBehaviorsUnknown: [],
      traceRequirementsUnknown: [],
      behaviorsWithoutTask: [],
      traceTasksUnknown: behaviors > 7 ? [{ requirement: 'REQ-001', behavior: 'REQ-001-B08', task: 'T99' }] : [],
    },
    summary: { behaviors: rows.length, closed: rows.filter((r) => r.closed).length },
    vocabulary: { categories: CATEGORIES, statuses: STATUSES, tasks: ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T99'] },
  };
}

/** The number of `path` in the model's table of linked files, added if it is not there yet. */
export function pathIn(model: MatrixModel, path: string): number {
  const known = model.paths.indexOf(path);
  return known >= 0 ? known : model.paths.push(path) - 1;
}
