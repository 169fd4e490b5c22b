import { normalizeTaskRef } from '../files/taskFile';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { addToTask } from './findingFix';
import { FindingList, listResult, SpecLines } from './findingSupport';
import type { ValidatorOptions, ValidatorResult } from './validatorResult';
import { t } from '../messages';

export const REQUIREMENT_TASK_CLOSURE = 'requirement-task-closure';

/** REQ ids spec.md mentions, as loom extracts them: a behavior id REQ-001-B01 names REQ-001 too. */
export function requirementIdsInSpec(text: string): string[] {
  return [...new Set([...text.matchAll(/\bREQ-\d{3,}\b/g)].map((m) => m[0]))];
}

/**
 * Every REQ in spec.md is named by at least one task's `requirements`; without spec.md loom lets
 * it pass. Each REQ left out is a finding on the line of spec.md that first names it. When a task
 * already implements it (one of its behaviors is in the task's behavior_ids, or traceability.json
 * traces it to the task), the fix adds it to that task's `requirements`.
 */
export function requirementTaskClosure(s: SpecSnapshot, options: ValidatorOptions = {}): ValidatorResult {
  const list = new FindingList('RT');
  const lines = new SpecLines(s, options.locate !== false);
  const text = lines.text('spec.md');
  if (text === undefined) return listResult(REQUIREMENT_TASK_CLOSURE, list);
  const tasks = [...s.tasks.values()];
  const named = new Set(tasks.flatMap((t) => t.requirements));
  for (const id of requirementIdsInSpec(text).filter((x) => !named.has(x))) {
    const candidate = implementingTask(s, id);
    list.add(
      {
        kind: 'missing',
        severity: 'error',
        requirement_id: id,
        artifact: 'tasks/',
        message: t('validator.reqTask.unlisted', { id }),
        location: lines.at('spec.md', lines.lineOf('spec.md', new RegExp(`\\b${id}\\b`))),
        suggested_fix: candidate
          ? { action: 'update_task', details: t('validator.reqTask.addTo', { id, task: candidate }) }
          : { action: 'create_task', details: t('validator.reqTask.create', { id }) },
      },
      candidate ? addToTask(candidate, 'requirements', id) : undefined,
    );
  }
  return listResult(REQUIREMENT_TASK_CLOSURE, list);
}

/** The first task that already implements `requirement` by its behaviors, else the first task file traceability.json traces it to. */
function implementingTask(s: SpecSnapshot, requirement: string): string | undefined {
  const byBehavior = [...s.tasks.values()].find((t) => t.behavior_ids.some((b) => b.startsWith(`${requirement}-`)));
  if (byBehavior) return byBehavior.id;
  const entry = s.traceability?.requirements.find((r) => r.id === requirement);
  if (!entry) return undefined;
  const refs = [...entry.tasks, ...Object.values(entry.behaviors ?? {}).flatMap((b) => b.tasks)].map(normalizeTaskRef);
  return refs.find((ref) => s.tasks.has(ref));
}
