import type { Diagnostic } from '../diagnostics/diagnostic';
import { planTaskBatches, taskDependencyDiagnostics, taskOwnershipDiagnostics } from '../tasks/taskBatches';
import { buildTraceabilityMatrix } from '../trace/traceabilityMatrix';
import type { SpecPipeline } from './specPipeline';

/**
 * Every diagnostic of one spec: its files, its tasks (owns, conflicts, dependencies) and the
 * cross-references of its ledgers. The Problems panel and `validate` both show this list.
 */
export function specDiagnostics(spec: SpecPipeline): Diagnostic[] {
  const tasks = [...spec.snapshot.tasks.values()];
  const plan = planTaskBatches(tasks);
  return [...spec.diagnostics, ...taskOwnershipDiagnostics(tasks), ...taskDependencyDiagnostics(tasks, plan), ...buildTraceabilityMatrix(spec.snapshot).diagnostics];
}
