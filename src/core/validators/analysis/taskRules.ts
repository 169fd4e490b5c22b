// The rules on the plan: plan.md and the task files, and whether their graph can run.
import { t as text } from '../../messages';
import { REQUIREMENTS_FILE } from '../../files/requirements';
import { normalizeTaskRef } from '../../files/taskFile';
import { planTaskBatches } from '../../tasks/taskBatches';
import { addToTask, removeFromTask } from '../findingFix';
import { taskFile, type AnalysisFacts } from './analysisFacts';

/** `T1.md` for `specs/x/tasks/T1.md`: the file name as it is on disk. */
const taskFileName = (file: string) => file.slice(file.lastIndexOf('/') + 1);

/** plan.md and tasks/ agree: every task is listed by its file name, every task listed exists. */
export function planAndTasksAgree({ s, lines, add, language, tasks }: AnalysisFacts): void {
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
}

/** Tasks name only the behaviors and requirements that were asked for. */
export function tasksNameOnlyWhatWasAsked({ add, language, knownReqs, behaviorIds, tasks, taskLine }: AnalysisFacts): void {
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
}

/** Every requirement has a task. */
export function everyRequirementHasATask({ lines, add, language, specSet, knownReqs, tasks, tasksOfReq }: AnalysisFacts): void {
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
}

/** Every behavior has a task (loom's analyze-artifacts.mjs knows no applicability). */
export function everyBehaviorHasATask({ s, lines, add, language, behaviors, tasksOfReq, mapped, traceByReq }: AnalysisFacts): void {
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
}

/** The task graph can be planned: no cycle, no unknown dependency, no two concurrent tasks owning one path. */
export function taskGraphIsPlannable({ add, language, tasks, taskLine }: AnalysisFacts): void {
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
}
