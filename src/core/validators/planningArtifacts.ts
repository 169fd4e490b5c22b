import { result, type ValidatorResult } from './validatorResult';
import type { SpecSnapshot } from '../spec/specSnapshot';

export const PLANNING_ARTIFACTS = 'planning-artifacts';

/** traceability.json exists, and every requirement and behavior maps to at least one task. */
export function planningArtifacts(s: SpecSnapshot): ValidatorResult {
  const problems: string[] = [];
  if (s.traceabilityCondition === 'missing') problems.push('traceability.json does not exist');
  else if (!s.traceability) problems.push('traceability.json could not be read (see the Problems it reports)');
  if (s.requirementsCondition === 'missing') problems.push('requirements.json does not exist');
  else if (!s.requirements) problems.push('requirements.json could not be read (see the Problems it reports)');
  if (s.traceability && s.requirements) {
    const trace = new Map(s.traceability.requirements.map((r) => [r.id, r]));
    for (const req of s.requirements.requirements) {
      const entry = trace.get(req.id);
      const behaviorTasks = (id: string) => (entry?.behaviors && Object.hasOwn(entry.behaviors, id) ? entry.behaviors[id].tasks : []);
      const fromBehaviors = req.behaviors.flatMap((b) => behaviorTasks(b.id));
      if (!entry) problems.push(`${req.id} is missing from traceability.json`);
      else if (entry.tasks.length === 0 && fromBehaviors.length === 0) problems.push(`${req.id} maps to no task in traceability.json`);
      for (const b of req.behaviors) {
        if (b.applicability === 'not-applicable') continue;
        if (behaviorTasks(b.id).length === 0) problems.push(`${b.id} maps to no task in traceability.json`);
      }
    }
  }
  return result(PLANNING_ARTIFACTS, problems);
}
