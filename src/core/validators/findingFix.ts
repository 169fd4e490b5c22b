import { TRACEABILITY_FILE } from '../files/traceability';
import { traceabilityEdits, type TraceabilityChange } from '../files/traceabilityEdit';
import { taskListEdits, type TaskListKey } from '../files/taskListEdit';
import type { TextEdit } from '../files/textEdit';

/**
 * A fix a finding allows that needs no judgment: one id added to, or removed from, a list in a
 * task's frontmatter. Validators return it beside the finding, in memory only: finding.schema.json
 * allows no extra keys, so it never goes into artifact-analysis.json. The host turns it into a
 * quick fix with `findingFixEdits`.
 */
export interface TaskListFix {
  type: 'task-list';
  task: string;
  /** Spec-relative, `tasks/T3.md`. */
  file: string;
  key: TaskListKey;
  op: 'add' | 'remove';
  value: string;
}

/**
 * A fix of traceability.json that needs no judgment: the tasks whose frontmatter already names a
 * requirement or behavior added to its trace, a reference to a task file that does not exist
 * removed, or a requirement the file lacks added with the tasks that name it.
 */
export interface TraceabilityFix {
  type: 'traceability';
  file: typeof TRACEABILITY_FILE;
  change: TraceabilityChange;
}

export type FindingFix = TaskListFix | TraceabilityFix;

export const addToTask = (task: string, key: TaskListKey, value: string): TaskListFix => ({ type: 'task-list', task, file: `tasks/${task}.md`, key, op: 'add', value });
export const removeFromTask = (task: string, key: TaskListKey, value: string): TaskListFix => ({ type: 'task-list', task, file: `tasks/${task}.md`, key, op: 'remove', value });

/** Adds `tasks` to the trace of a requirement, or of `behavior` under it (creating that trace when it is missing). */
export const addTraceTasks = (requirement: string, behavior: string | undefined, tasks: readonly string[]): TraceabilityFix => ({
  type: 'traceability',
  file: TRACEABILITY_FILE,
  change: { op: 'add-tasks', requirement, ...(behavior ? { behavior } : {}), tasks: [...tasks] },
});
/** Removes the task references `tasks` (as written) from the trace of a requirement, or of `behavior` under it. */
export const removeTraceTasks = (requirement: string, behavior: string | undefined, tasks: readonly string[]): TraceabilityFix => ({
  type: 'traceability',
  file: TRACEABILITY_FILE,
  change: { op: 'remove-tasks', requirement, ...(behavior ? { behavior } : {}), tasks: [...tasks] },
});
/** Adds a requirement traceability.json does not trace, with the tasks of it and of each behavior (empty lists when none). */
export const addTraceRequirement = (requirement: string, tasks: readonly string[], behaviors: readonly { id: string; tasks: readonly string[] }[]): TraceabilityFix => ({
  type: 'traceability',
  file: TRACEABILITY_FILE,
  change: { op: 'add-requirement', requirement, tasks: [...tasks], behaviors: behaviors.map((b) => ({ id: b.id, tasks: [...b.tasks] })) },
});

/**
 * The text edits that apply `fix` to `text`, the current content of the file it names (`path` is
 * only used in messages). Empty when there is nothing left to do; throws a LoomError naming the
 * file when it cannot be edited safely (an unclosed frontmatter, JSON that does not parse …).
 */
export function findingFixEdits(path: string, text: string, fix: FindingFix): TextEdit[] {
  switch (fix.type) {
    case 'task-list':
      return taskListEdits(path, text, fix);
    case 'traceability':
      return traceabilityEdits(path, text, fix.change);
  }
}
