import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTaskFile } from '../../../src/core/files/taskFile';
import { findOwnsConflicts, planTaskBatches, taskDependencyDiagnostics, taskOwnershipDiagnostics, type BatchableTask } from '../../../src/core/tasks/taskBatches';

const task = (id: string, lists: Partial<Omit<BatchableTask, 'id'>> = {}): BatchableTask => ({
  id,
  owns: lists.owns ?? [`src/${id}.ts`],
  reads: lists.reads ?? [],
  depends_on: lists.depends_on ?? [],
});

/** A real task file, so key lines come from the parser. */
const taskFile = (id: string, frontmatter: string) => parseTaskFile(`specs/s/tasks/${id}.md`, id, `---\n${frontmatter}\n---\n# ${id}\n\nDoes a thing.\n`).task;

/** Whether two tasks owning one path each are told they conflict. */
const pathsOverlap = (a: string, b: string) => findOwnsConflicts([task('T1', { owns: [a] }), task('T2', { owns: [b] })]).length > 0;

describe('owned paths overlap', () => {
  it('matches equal paths and directory prefixes only', () => {
    assert.equal(pathsOverlap('src/a.ts', 'src/a.ts'), true);
    assert.equal(pathsOverlap('src/a/', 'src/a/b.ts'), true);
    assert.equal(pathsOverlap('src/a/b.ts', 'src/a'), true);
    assert.equal(pathsOverlap('src/ab.ts', 'src/a'), false);
    assert.equal(pathsOverlap('src/a', 'src/ab/c.ts'), false);
    assert.equal(pathsOverlap('src/a.ts', 'src/b.ts'), false);
  });

  it('normalises trailing slashes, backslashes and a leading ./', () => {
    assert.equal(pathsOverlap('src/a/', 'src/a'), true);
    assert.equal(pathsOverlap('src\\a\\', 'src/a/b.ts'), true);
    assert.equal(pathsOverlap('src\\a\\b.ts', 'src/a/b.ts'), true);
    assert.equal(pathsOverlap('./src/a', 'src/a/x'), true);
    assert.equal(pathsOverlap('src\\ab', 'src/a'), false);
  });

  it('treats the repository root as overlapping everything', () => {
    assert.equal(pathsOverlap('./', 'src/a.ts'), true);
    assert.equal(pathsOverlap('docs/x.md', '/'), true);
  });
});

describe('planTaskBatches', () => {
  it('puts independent tasks in one parallel batch, with the exact JSON shape', () => {
    const plan = planTaskBatches([task('T1'), task('T2', { reads: ['src/T1.md'] }), task('T3')]);
    assert.deepEqual(plan, {
      tasks: [
        { id: 'T1', owns: ['src/T1.ts'], reads: [], depends_on: [] },
        { id: 'T2', owns: ['src/T2.ts'], reads: ['src/T1.md'], depends_on: [] },
        { id: 'T3', owns: ['src/T3.ts'], reads: [], depends_on: [] },
      ],
      conflicts: [],
      batches: [{ type: 'parallel', tasks: ['T1', 'T2', 'T3'] }],
      cycle: null,
      unknown_dependencies: [],
    });
    assert.deepEqual(JSON.parse(JSON.stringify(plan)), plan);
  });

  it('orders tasks by number, not by input order or string order', () => {
    const plan = planTaskBatches([task('T10'), task('T2'), task('T1')]);
    assert.deepEqual(
      plan.tasks.map((t) => t.id),
      ['T1', 'T2', 'T10'],
    );
    assert.deepEqual(plan.batches, [{ type: 'parallel', tasks: ['T1', 'T2', 'T10'] }]);
  });

  it('runs dependent tasks in later rounds; a lone ready task is a parallel batch of one, as in loom', () => {
    const plan = planTaskBatches([task('T1'), task('T2'), task('T3', { depends_on: ['T1'] }), task('T4', { depends_on: ['T2', 'T3'] }), task('T5', { depends_on: ['T1'] })]);
    assert.deepEqual(plan.batches, [
      { type: 'parallel', tasks: ['T1', 'T2'] },
      { type: 'parallel', tasks: ['T3', 'T5'] },
      { type: 'parallel', tasks: ['T4'] },
    ]);
    assert.equal(plan.cycle, null);
  });

  it('accepts T1.md as a dependency and reports it as the id', () => {
    const plan = planTaskBatches([task('T1'), task('T2', { depends_on: ['T1.md', 'T1'] })]);
    assert.deepEqual(plan.tasks[1].depends_on, ['T1']);
    assert.deepEqual(plan.batches, [
      { type: 'parallel', tasks: ['T1'] },
      { type: 'parallel', tasks: ['T2'] },
    ]);
    assert.deepEqual(plan.unknown_dependencies, []);
  });

  it("runs both tasks of an owns↔owns directory-prefix conflict serially, after the parallel batch (loom's buildBatches)", () => {
    const plan = planTaskBatches([task('T1', { owns: ['src/a/'] }), task('T2', { owns: ['src/a/b.ts'] }), task('T3', { owns: ['docs/'] }), task('T4', { owns: ['src/ab.ts'] })]);
    assert.deepEqual(plan.conflicts, [{ a: 'T1', b: 'T2', paths: ['src/a/b.ts'] }]);
    assert.deepEqual(plan.tasks[0].owns, ['src/a/'], 'paths are echoed as declared');
    assert.deepEqual(plan.batches, [
      { type: 'parallel', tasks: ['T3', 'T4'] },
      { type: 'serial', tasks: ['T1', 'T2'] },
    ]);
  });

  it('treats owns↔reads as a conflict in either direction, but not reads↔reads', () => {
    const plan = planTaskBatches([
      task('T1', { owns: ['src/x.ts'], reads: ['src/shared/'] }),
      task('T2', { owns: ['src/y.ts'], reads: ['src\\x.ts'] }),
      task('T3', { owns: ['src/z.ts'], reads: ['src/shared/util.ts'] }),
      task('T4', { owns: ['src/shared/util.ts'] }),
    ]);
    assert.deepEqual(plan.conflicts, [
      { a: 'T1', b: 'T2', paths: ['src/x.ts'] },
      { a: 'T1', b: 'T4', paths: ['src/shared/util.ts'] },
      { a: 'T3', b: 'T4', paths: ['src/shared/util.ts'] },
    ]);
    assert.deepEqual(plan.batches, [{ type: 'serial', tasks: ['T1', 'T2', 'T3', 'T4'] }]);
  });

  it('never lets a task conflict with itself', () => {
    const plan = planTaskBatches([task('T1', { owns: ['src/a', 'src\\a\\'], reads: ['src/a/b.ts'] }), task('T2')]);
    assert.deepEqual(plan.conflicts, []);
    assert.deepEqual(plan.batches, [{ type: 'parallel', tasks: ['T1', 'T2'] }]);
  });

  it('lets a task owning the repository root conflict with every other task', () => {
    const plan = planTaskBatches([task('T1', { owns: ['./'] }), task('T2', { owns: ['docs/a.md'] }), task('T3', { owns: ['b'], reads: ['c'] })]);
    assert.deepEqual(plan.conflicts, [
      { a: 'T1', b: 'T2', paths: ['docs/a.md'] },
      { a: 'T1', b: 'T3', paths: ['b', 'c'] },
    ]);
    assert.deepEqual(plan.batches, [{ type: 'serial', tasks: ['T1', 'T2', 'T3'] }]);
  });

  it('makes a round serial when its ready tasks all conflict', () => {
    const plan = planTaskBatches([task('T1', { owns: ['src/'] }), task('T2', { owns: ['src/b.ts'] })]);
    assert.deepEqual(plan.batches, [{ type: 'serial', tasks: ['T1', 'T2'] }]);
  });

  it('reports conflicts between tasks that may run together, not between tasks ordered by dependencies', () => {
    const plan = planTaskBatches([
      task('T1', { owns: ['src/a.ts', 'src/b/'] }),
      task('T2', { owns: ['src/a.ts/', 'src/b/c.ts', 'src/b/d.ts'], depends_on: ['T1'] }),
      task('T3', { owns: ['src/c.ts'], reads: ['src/b/'], depends_on: ['T2'] }),
      task('T4', { owns: ['src/b/e.ts'] }),
    ]);
    // T3 waits for T2 which waits for T1: reading what they own is what a dependency is for.
    assert.deepEqual(plan.conflicts, [
      { a: 'T1', b: 'T4', paths: ['src/b/e.ts'] },
      { a: 'T3', b: 'T4', paths: ['src/b/e.ts'] },
    ]);
    assert.deepEqual(findOwnsConflicts(plan.tasks), plan.conflicts);
  });

  it('reports only the tasks on a cycle, not those waiting behind it', () => {
    const plan = planTaskBatches([task('T1', { depends_on: ['T2'] }), task('T2', { depends_on: ['T1'] }), task('T3', { depends_on: ['T1'] }), task('T4'), task('T5', { depends_on: ['T4'] })]);
    assert.deepEqual(plan.batches, [
      { type: 'parallel', tasks: ['T4'] },
      { type: 'parallel', tasks: ['T5'] },
    ]);
    assert.deepEqual(plan.cycle, ['T1', 'T2']);
  });

  it('finds every cycle, longer ones and self-dependencies included', () => {
    const plan = planTaskBatches([
      task('T1', { depends_on: ['T3'] }),
      task('T2', { depends_on: ['T1'] }),
      task('T3', { depends_on: ['T2'] }),
      task('T4', { depends_on: ['T4.md'] }),
      task('T5', { depends_on: ['T3', 'T4'] }),
    ]);
    assert.deepEqual(plan.batches, []);
    assert.deepEqual(plan.cycle, ['T1', 'T2', 'T3', 'T4']);
  });

  it('reports an unknown dependency as such, never as a cycle', () => {
    const plan = planTaskBatches([task('T1'), task('T2', { depends_on: ['T9'] }), task('T3', { depends_on: ['T2'] })]);
    assert.deepEqual(plan.unknown_dependencies, [{ task: 'T2', depends_on: 'T9' }]);
    assert.equal(plan.cycle, null);
    assert.deepEqual(plan.batches, [{ type: 'parallel', tasks: ['T1'] }]);
  });

  it('keeps an unknown dependency out of a cycle found beside it', () => {
    const plan = planTaskBatches([task('T1', { depends_on: ['T2'] }), task('T2', { depends_on: ['T1'] }), task('T3', { depends_on: ['T8.md'] })]);
    assert.deepEqual(plan.unknown_dependencies, [{ task: 'T3', depends_on: 'T8' }]);
    assert.deepEqual(plan.cycle, ['T1', 'T2']);
  });

  it('does not trip over ids that name Object.prototype members', () => {
    const plan = planTaskBatches([
      task('constructor', { owns: ['src/shared/'], depends_on: ['__proto__'] }),
      task('__proto__'),
      task('toString', { owns: ['src/shared/x.ts'], depends_on: ['hasOwnProperty'] }),
      task('valueOf', { depends_on: ['valueOf'] }),
    ]);
    assert.deepEqual(
      plan.tasks.map((t) => t.id),
      ['__proto__', 'constructor', 'toString', 'valueOf'],
    );
    assert.deepEqual(plan.batches, [
      { type: 'parallel', tasks: ['__proto__'] },
      { type: 'parallel', tasks: ['constructor'] },
    ]);
    assert.deepEqual(plan.unknown_dependencies, [{ task: 'toString', depends_on: 'hasOwnProperty' }]);
    assert.deepEqual(plan.cycle, ['valueOf']);
    assert.deepEqual(plan.conflicts, [{ a: 'constructor', b: 'toString', paths: ['src/shared/x.ts'] }]);
  });

  it('keeps the first of two tasks with the same id', () => {
    const plan = planTaskBatches([task('T1', { owns: ['a'] }), task('T1', { owns: ['b'] })]);
    assert.deepEqual(plan.tasks, [{ id: 'T1', owns: ['a'], reads: [], depends_on: [] }]);
  });

  it('handles a long dependency chain without recursion', () => {
    const chain = Array.from({ length: 5000 }, (_, i) => task(`T${i + 1}`, { depends_on: [`T${i === 0 ? 5000 : i}`] }));
    const plan = planTaskBatches(chain);
    assert.equal(plan.cycle?.length, 5000);
    assert.deepEqual(plan.batches, []);
  });
});

describe('taskOwnershipDiagnostics', () => {
  it('flags a task without owns at its owns line, or line 1 when the key is absent', () => {
    const empty = taskFile('T1', 'complexity: low\nowns: []\nreads: [src/a.ts]');
    const absent = taskFile('T2', 'reads: [src/b.ts]');
    const fine = taskFile('T3', 'owns: [src/c.ts]');
    const found = taskOwnershipDiagnostics([empty, absent, fine]);
    assert.deepEqual(
      found.map((d) => [d.file, d.line, d.code, d.severity]),
      [
        ['specs/s/tasks/T1.md', 3, 'task-without-owns', 'error'],
        ['specs/s/tasks/T2.md', 1, 'task-without-owns', 'error'],
      ],
    );
    assert.match(found[0].message, /^T1 owns no paths/);
  });

  it('reports a conflict in both task files, on the key holding the path', () => {
    const owner = taskFile('T1', 'depends_on: []\nowns: [src/a/]');
    const reader = taskFile('T2', 'owns: [src/b.ts]\nreads:\n  - src/a/x.ts');
    const found = taskOwnershipDiagnostics([reader, owner]);
    assert.deepEqual(found, [
      { file: 'specs/s/tasks/T1.md', line: 3, column: 1, severity: 'error', code: 'owns-conflict', message: 'T1 and T2 overlap on src/a/x.ts: they cannot run in parallel' },
      { file: 'specs/s/tasks/T2.md', line: 3, column: 1, severity: 'error', code: 'owns-conflict', message: 'T2 and T1 overlap on src/a/x.ts: they cannot run in parallel' },
    ]);
  });

  it('is silent for a valid task set', () => {
    assert.deepEqual(taskOwnershipDiagnostics([taskFile('T1', 'owns: [src/a.ts]'), taskFile('T2', 'owns: [src/ab.ts]\nreads: [src/a.tsx]')]), []);
  });
});

describe('taskDependencyDiagnostics', () => {
  it('points unknown dependencies and cycle members at their depends_on line', () => {
    const tasks = [taskFile('T1', 'owns: [a]\ndepends_on: [T2]'), taskFile('T2', 'owns: [b]\ndepends_on: [T1.md]'), taskFile('T3', 'owns: [c]\n\ndepends_on: [T7]')];
    const found = taskDependencyDiagnostics(tasks, planTaskBatches(tasks));
    assert.deepEqual(
      found.map((d) => [d.file, d.line, d.code]),
      [
        ['specs/s/tasks/T3.md', 4, 'unknown-dependency'],
        ['specs/s/tasks/T1.md', 3, 'dependency-cycle'],
        ['specs/s/tasks/T2.md', 3, 'dependency-cycle'],
      ],
    );
    assert.equal(found[0].message, 'T3 depends on T7, which is not a task of this spec: it can never start');
  });
});
