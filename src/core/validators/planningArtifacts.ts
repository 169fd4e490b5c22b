import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeTaskRef } from '../files/taskFile';
import { requirementIdsInSpec } from './requirementTaskClosure';
import { result, type ValidatorResult } from './validatorResult';
import type { SpecSnapshot } from '../spec/specSnapshot';

export const PLANNING_ARTIFACTS = 'planning-artifacts';

/**
 * traceability.json exists, and every requirement and behavior maps to at least one task that
 * exists (tests and evidence may still be empty). As loom's validateTraceabilityFile does at
 * planning: each requirement needs tasks of its own, every task reference must name a task file,
 * and with a spec.md, each REQ it names must be traced and a traced REQ it does not name is unknown.
 */
export function planningArtifacts(s: SpecSnapshot): ValidatorResult {
  const problems: string[] = [];
  if (s.traceabilityCondition === 'missing') problems.push('traceability.json does not exist');
  else if (!s.traceability) problems.push('traceability.json could not be read (see the Problems it reports)');
  if (s.requirementsCondition === 'missing') problems.push('requirements.json does not exist');
  else if (!s.requirements) problems.push('requirements.json could not be read (see the Problems it reports)');
  if (s.traceability && s.requirements) {
    const trace = new Map(s.traceability.requirements.map((r) => [r.id, r]));
    const missingTasks = (owner: string, refs: readonly string[]) => {
      for (const ref of refs) {
        const id = normalizeTaskRef(ref);
        if (/^T\d+$/i.test(id) && !s.tasks.has(id.toUpperCase()) && !s.tasks.has(id)) problems.push(`${owner} maps to ${ref}, but tasks/${id.toUpperCase()}.md does not exist`);
      }
    };
    const inSpec = specRequirementIds(s);
    const required = [...new Set([...s.requirements.requirements.map((r) => r.id), ...(inSpec ?? [])])];
    const byId = new Map(s.requirements.requirements.map((r) => [r.id, r]));
    for (const id of required) {
      const entry = trace.get(id);
      if (!entry) {
        problems.push(`${id} is missing from traceability.json`);
        continue;
      }
      if (entry.tasks.length === 0) problems.push(`${id} maps to no task in traceability.json`);
      missingTasks(id, entry.tasks);
      for (const b of byId.get(id)?.behaviors ?? []) {
        if (b.applicability === 'not-applicable') continue;
        const tasks = entry.behaviors && Object.hasOwn(entry.behaviors, b.id) ? entry.behaviors[b.id].tasks : [];
        if (tasks.length === 0) problems.push(`${b.id} maps to no task in traceability.json`);
        missingTasks(b.id, tasks);
      }
    }
    if (inSpec) {
      for (const entry of s.traceability.requirements) {
        if (!inSpec.includes(entry.id) && !byId.has(entry.id)) problems.push(`traceability.json traces ${entry.id}, which neither spec.md nor requirements.json names`);
      }
    }
  }
  return result(PLANNING_ARTIFACTS, problems);
}

function specRequirementIds(s: SpecSnapshot): string[] | undefined {
  try {
    return requirementIdsInSpec(readFileSync(join(s.dir, 'spec.md'), 'utf8'));
  } catch {
    return undefined;
  }
}
