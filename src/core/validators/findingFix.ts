import type { TaskListKey } from '../files/taskListEdit';

/**
 * A fix a finding allows that needs no judgment: one id added to, or removed from, a list in a
 * task's frontmatter. Validators return it beside the finding, in memory only: finding.schema.json
 * allows no extra keys, so it never goes into artifact-analysis.json. The host turns it into a
 * quick fix with `taskListEdits`.
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

export type FindingFix = TaskListFix;

export const addToTask = (task: string, key: TaskListKey, value: string): TaskListFix => ({ type: 'task-list', task, file: `tasks/${task}.md`, key, op: 'add', value });
export const removeFromTask = (task: string, key: TaskListKey, value: string): TaskListFix => ({ type: 'task-list', task, file: `tasks/${task}.md`, key, op: 'remove', value });
