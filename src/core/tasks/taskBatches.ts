import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { normalizeTaskRef } from '../files/taskFile';
import { normalizeOwnedPath } from '../fs/paths';
import { t } from '../messages';
import { byTaskNumber } from '../specdir/loadSpec';

/**
 * What `loom tasks --spec-dir <dir>` computes: which tasks may run side by side, round by round.
 *
 * Decisions (loom's description leaves them open):
 * - Tasks are taken in task-number order (T2 before T10), whatever order they arrive in; a
 *   repeated id keeps its first occurrence.
 * - Within a round, as loom's `buildBatches` does: the ready tasks that conflict with no other
 *   ready task form the parallel batch (even a lone one), and every ready task that conflicts
 *   with another runs after it in one serial batch, both in task order.
 * - A dependency on a task that does not exist can never be satisfied: the task waits forever
 *   (and so does everything behind it) rather than run before a prerequisite someone meant to
 *   name. It is reported in `unknown_dependencies`, never as part of a cycle.
 * - `cycle` lists only tasks that lie on a dependency cycle (including a task depending on
 *   itself), in task order; tasks merely waiting behind a cycle are not members.
 * - A path that normalises to nothing (`/`, `./`) names the repository root and overlaps every path.
 * - `tasks` echoes `owns` and `reads` as declared; `depends_on` is given as ids (`T1.md` → `T1`).
 */

/** The part of a task file that batching reads; `TaskFile` satisfies it. */
export interface BatchableTask {
  id: string;
  owns: readonly string[];
  reads: readonly string[];
  depends_on: readonly string[];
}

/** A task that can be pointed at in diagnostics; `TaskFile` satisfies it. */
export interface LocatableTask extends BatchableTask {
  /** Repository-relative path of `tasks/TN.md`. */
  file: string;
  keyLines: ReadonlyMap<string, number>;
  /** false when the frontmatter could not be read, so its lists say nothing. */
  frontmatterValid?: boolean;
}

export interface TaskBatch {
  type: 'parallel' | 'serial';
  tasks: string[];
}

/** Two tasks whose paths overlap; `paths` are the overlapping regions (the narrower path of each overlapping pair, normalised, sorted). */
export interface OwnsConflict {
  a: string;
  b: string;
  paths: string[];
}

export interface UnknownDependency {
  task: string;
  depends_on: string;
}

/** Exactly the JSON `loom tasks` prints. */
export interface TaskBatchPlan {
  tasks: { id: string; owns: string[]; reads: string[]; depends_on: string[] }[];
  conflicts: OwnsConflict[];
  batches: TaskBatch[];
  /** Members of the dependency cycle(s) that stopped the plan, or null when none did. */
  cycle: string[] | null;
  unknown_dependencies: UnknownDependency[];
}

/** `src/a/b.ts` → `''` (the root), `src`, `src/a`, `src/a/b.ts`: every normalised path it overlaps as the narrower side. */
function ancestorsOrSelf(path: string): string[] {
  const out = [''];
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) out.push(path.slice(0, i));
  if (path !== '') out.push(path);
  return out;
}

type PathKey = 'owns' | 'reads';

interface Overlap {
  /** The narrower of the two paths, normalised. */
  path: string;
  aKey: PathKey;
  bKey: PathKey;
}

interface PathClaim {
  task: number;
  key: PathKey;
  path: string;
}

/**
 * Every pair of tasks (by index into `tasks`, a < b) that overlaps, with the overlaps. Paths are
 * indexed so that each path looks up only its own ancestors, instead of comparing every pair of
 * tasks; reads↔reads is harmless and skipped.
 */
function overlappingPairs(tasks: readonly BatchableTask[]): { a: number; b: number; overlaps: Overlap[] }[] {
  const claims: PathClaim[] = [];
  const byPath = new Map<string, PathClaim[]>();
  tasks.forEach((t, task) => {
    const seen = new Set<string>();
    for (const key of ['owns', 'reads'] as const) {
      for (const raw of t[key]) {
        const path = normalizeOwnedPath(raw);
        if (seen.has(`${key}:${path}`)) continue;
        seen.add(`${key}:${path}`);
        const claim = { task, key, path };
        claims.push(claim);
        const list = byPath.get(path);
        if (list) list.push(claim);
        else byPath.set(path, [claim]);
      }
    }
  });

  const pairs = new Map<number, { a: number; b: number; overlaps: Overlap[] }>();
  for (const narrow of claims) {
    for (const ancestor of ancestorsOrSelf(narrow.path)) {
      for (const wide of byPath.get(ancestor) ?? []) {
        if (wide.task === narrow.task || (wide.key === 'reads' && narrow.key === 'reads')) continue;
        // Equal paths are met from both sides; count them once.
        if (ancestor === narrow.path && wide.task > narrow.task) continue;
        const [first, second] = wide.task < narrow.task ? [wide, narrow] : [narrow, wide];
        const id = first.task * tasks.length + second.task;
        let pair = pairs.get(id);
        if (!pair) pairs.set(id, (pair = { a: first.task, b: second.task, overlaps: [] }));
        pair.overlaps.push({ path: narrow.path, aKey: first.key, bKey: second.key });
      }
    }
  }
  return [...pairs.values()].sort((x, y) => x.a - y.a || x.b - y.b);
}

/** The overlapping paths of one pair, each once, sorted. */
const uniquePaths = (overlaps: readonly Overlap[]) => [...new Set(overlaps.map((o) => o.path))].sort();

/** Each id once (its first occurrence), in task-number order. */
function uniqueInTaskOrder<T extends { id: string }>(tasks: Iterable<T>): T[] {
  const byId = new Map<string, T>();
  for (const t of tasks) if (!byId.has(t.id)) byId.set(t.id, t);
  return [...byId.values()].sort((a, b) => byTaskNumber(a.id, b.id));
}

/** Unique tasks in task-number order, with `depends_on` folded to ids (`T1.md` → `T1`). */
function orderedTasks(tasks: Iterable<BatchableTask>): BatchableTask[] {
  return uniqueInTaskOrder(tasks).map((t) => ({
    ...t,
    depends_on: [...new Set(t.depends_on.map(normalizeTaskRef).filter((d) => d.length > 0))],
  }));
}

/**
 * Every conflicting pair of tasks that could run at the same time: what `--validate` checks.
 * Two tasks ordered by `depends_on` (directly or through others) never run together, so a task
 * may own or read what its prerequisite owns.
 */
export function findOwnsConflicts(input: Iterable<BatchableTask>): OwnsConflict[] {
  const tasks = uniqueInTaskOrder(input);
  return concurrentOverlaps(tasks).map(({ a, b, overlaps }) => ({ a: tasks[a].id, b: tasks[b].id, paths: uniquePaths(overlaps) }));
}

/** Overlapping pairs of tasks that no dependency keeps apart. */
function concurrentOverlaps(tasks: readonly BatchableTask[]) {
  const ordered = dependencyOrder(tasks);
  return overlappingPairs(tasks).filter(({ a, b }) => !ordered(tasks[a].id, tasks[b].id));
}

/** Whether one of two tasks depends on the other, directly or transitively. */
function dependencyOrder(tasks: readonly BatchableTask[]): (a: string, b: string) => boolean {
  const deps = new Map(tasks.map((t) => [t.id, t.depends_on.map(normalizeTaskRef)]));
  const reach = new Map<string, Set<string>>();
  const reachable = (id: string): Set<string> => {
    let found = reach.get(id);
    if (found) return found;
    found = new Set<string>();
    reach.set(id, found); // set before recursing, so a cycle ends the walk
    for (const d of deps.get(id) ?? []) {
      if (found.has(d)) continue;
      found.add(d);
      for (const x of reachable(d)) found.add(x);
    }
    return found;
  };
  return (a, b) => reachable(a).has(b) || reachable(b).has(a);
}

export function planTaskBatches(input: Iterable<BatchableTask>): TaskBatchPlan {
  const tasks = orderedTasks(input);
  const position = new Map(tasks.map((t, i) => [t.id, i]));
  const conflicts = findOwnsConflicts(tasks);
  const conflictsWith = new Map<string, Set<string>>(tasks.map((t) => [t.id, new Set<string>()]));
  for (const c of conflicts) {
    conflictsWith.get(c.a)!.add(c.b);
    conflictsWith.get(c.b)!.add(c.a);
  }

  const unknown_dependencies: UnknownDependency[] = [];
  // Rounds by counting unmet dependencies (Kahn), so a long chain does not rescan every task per round.
  const unmet = new Map<string, number>();
  const dependents = new Map<string, string[]>(tasks.map((t) => [t.id, []]));
  for (const t of tasks) {
    unmet.set(t.id, t.depends_on.length);
    for (const d of t.depends_on) {
      if (position.has(d)) dependents.get(d)!.push(t.id);
      else unknown_dependencies.push({ task: t.id, depends_on: d });
    }
  }

  const batches: TaskBatch[] = [];
  let finished = 0;
  let ready = tasks.filter((t) => unmet.get(t.id) === 0).map((t) => t.id);
  while (ready.length > 0) {
    batches.push(...roundBatches(ready, conflictsWith));
    finished += ready.length;
    const next: string[] = [];
    for (const id of ready) {
      for (const d of dependents.get(id)!) {
        const left = unmet.get(d)! - 1;
        unmet.set(d, left);
        if (left === 0) next.push(d);
      }
    }
    ready = next.sort((a, b) => position.get(a)! - position.get(b)!);
  }

  let cycle: string[] | null = null;
  if (finished < tasks.length) {
    const members = cycleMembers(tasks.filter((t) => unmet.get(t.id)! > 0));
    if (members.length > 0) cycle = members;
  }

  return {
    tasks: tasks.map((t) => ({ id: t.id, owns: [...t.owns], reads: [...t.reads], depends_on: [...t.depends_on] })),
    conflicts,
    batches,
    cycle,
    unknown_dependencies,
  };
}

function roundBatches(ready: readonly string[], conflictsWith: ReadonlyMap<string, ReadonlySet<string>>): TaskBatch[] {
  const inRound = new Set(ready);
  const clashes = (id: string) => [...conflictsWith.get(id)!].some((other) => inRound.has(other));
  const parallel = ready.filter((id) => !clashes(id));
  const serial = ready.filter(clashes);
  const out: TaskBatch[] = [];
  if (parallel.length > 0) out.push({ type: 'parallel', tasks: parallel });
  if (serial.length > 0) out.push({ type: 'serial', tasks: serial });
  return out;
}

/**
 * Tasks on a dependency cycle among the stuck tasks: members of a strongly connected component
 * with more than one task, or depending on themselves (Tarjan's algorithm, iterative so that a
 * long chain cannot overflow the stack).
 */
function cycleMembers(stuck: readonly BatchableTask[]): string[] {
  const byId = new Map(stuck.map((t) => [t.id, t]));
  const edges = (id: string) => byId.get(id)!.depends_on.filter((d) => byId.has(d));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const members = new Set<string>();
  let next = 0;

  for (const root of byId.keys()) {
    if (index.has(root)) continue;
    const work: { id: string; deps: string[]; at: number }[] = [];
    const enter = (id: string) => {
      index.set(id, next);
      low.set(id, next);
      next++;
      stack.push(id);
      onStack.add(id);
      work.push({ id, deps: edges(id), at: 0 });
    };
    enter(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.at < frame.deps.length) {
        const d = frame.deps[frame.at++];
        if (!index.has(d)) enter(d);
        else if (onStack.has(d)) low.set(frame.id, Math.min(low.get(frame.id)!, index.get(d)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].id;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.id)!));
      }
      if (low.get(frame.id) !== index.get(frame.id)) continue;
      const component: string[] = [];
      let popped: string;
      do {
        popped = stack.pop()!;
        onStack.delete(popped);
        component.push(popped);
      } while (popped !== frame.id);
      if (component.length > 1 || frame.deps.includes(frame.id)) for (const id of component) members.add(id);
    }
  }
  return stuck.map((t) => t.id).filter((id) => members.has(id));
}

/**
 * What `loom tasks --validate` rejects: a task with no `owns`, and every conflicting pair. Each
 * conflict is reported in both task files, on the key that holds the overlapping path.
 */
/** The code of an overlap that depends_on keeps apart: loom's `tasks --validate` still rejects it. */
export const ORDERED_OVERLAP = 'owns-overlap-ordered';

export function taskOwnershipDiagnostics(input: Iterable<LocatableTask>): Diagnostic[] {
  const tasks = uniqueInTaskOrder(input);
  const out: Diagnostic[] = [];
  const at = (t: LocatableTask, key: PathKey) => ({ line: t.keyLines.get(key) ?? 1 });
  for (const task of tasks) {
    // A task whose frontmatter does not parse has its own diagnostic; its lists are unknown, not empty.
    if (task.owns.length === 0 && task.frontmatterValid !== false) {
      out.push(diagnostic(task.file, t('tasks.withoutOwns', { task: task.id }), at(task, 'owns'), 'error', 'task-without-owns'));
    }
  }
  // loom's detectConflicts (tasks --validate) reports every overlapping pair, whatever depends_on
  // says; a pair that depends_on keeps apart is batched serially, so here it is a warning, and
  // `tasks --validate` fails on it as loom's does.
  const ordered = dependencyOrder(tasks);
  for (const { a: i, b: j, overlaps } of overlappingPairs(tasks)) {
    const [a, b] = [tasks[i], tasks[j]];
    const paths = uniquePaths(overlaps).join(', ');
    const aKey: PathKey = overlaps.some((o) => o.aKey === 'owns') ? 'owns' : 'reads';
    const bKey: PathKey = overlaps.some((o) => o.bKey === 'owns') ? 'owns' : 'reads';
    if (ordered(a.id, b.id)) {
      out.push(diagnostic(a.file, t('tasks.orderedOverlap', { task: a.id, other: b.id, paths }), at(a, aKey), 'warning', ORDERED_OVERLAP));
      out.push(diagnostic(b.file, t('tasks.orderedOverlap', { task: b.id, other: a.id, paths }), at(b, bKey), 'warning', ORDERED_OVERLAP));
      continue;
    }
    out.push(diagnostic(a.file, t('tasks.conflict', { task: a.id, other: b.id, paths }), at(a, aKey), 'error', 'owns-conflict'));
    out.push(diagnostic(b.file, t('tasks.conflict', { task: b.id, other: a.id, paths }), at(b, bKey), 'error', 'owns-conflict'));
  }
  return out;
}

/** Dependencies the plan could not honour: unknown task ids and cycle members, on their `depends_on` lines. */
export function taskDependencyDiagnostics(input: Iterable<LocatableTask>, plan: TaskBatchPlan): Diagnostic[] {
  const byId = new Map(uniqueInTaskOrder(input).map((t) => [t.id, t]));
  const out: Diagnostic[] = [];
  const line = (t: LocatableTask) => ({ line: t.keyLines.get('depends_on') ?? 1 });
  for (const u of plan.unknown_dependencies) {
    const t = byId.get(u.task);
    if (t) out.push(diagnostic(t.file, `${u.task} depends on ${u.depends_on}, which is not a task of this spec: it can never start`, line(t), 'error', 'unknown-dependency'));
  }
  for (const id of plan.cycle ?? []) {
    const t = byId.get(id);
    if (t) out.push(diagnostic(t.file, `${id} is on a dependency cycle (${plan.cycle!.join(', ')}): none of these tasks can start`, line(t), 'error', 'dependency-cycle'));
  }
  return out;
}
