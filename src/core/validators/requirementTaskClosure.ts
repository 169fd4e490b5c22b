import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { result, type ValidatorResult } from './validatorResult';
import type { SpecSnapshot } from '../spec/specSnapshot';

export const REQUIREMENT_TASK_CLOSURE = 'requirement-task-closure';

/** REQ ids spec.md mentions, as loom extracts them: a behavior id REQ-001-B01 names REQ-001 too. */
export function requirementIdsInSpec(text: string): string[] {
  return [...new Set([...text.matchAll(/\bREQ-\d{3,}\b/g)].map((m) => m[0]))];
}

/** Every REQ in spec.md is named by at least one task's `requirements`; without spec.md loom lets it pass. */
export function requirementTaskClosure(s: SpecSnapshot): ValidatorResult {
  let text: string;
  try {
    text = readFileSync(join(s.dir, 'spec.md'), 'utf8');
  } catch {
    return result(REQUIREMENT_TASK_CLOSURE, []);
  }
  const named = new Set([...s.tasks.values()].flatMap((t) => t.requirements));
  const problems = requirementIdsInSpec(text)
    .filter((id) => !named.has(id))
    .map((id) => `${id} appears in spec.md but no task lists it in requirements`);
  return result(REQUIREMENT_TASK_CLOSURE, problems);
}
