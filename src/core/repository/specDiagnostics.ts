import type { Diagnostic } from '../diagnostics/diagnostic';
import { planTaskBatches, taskDependencyDiagnostics, taskOwnershipDiagnostics } from '../tasks/taskBatches';
import { buildTraceabilityMatrix } from '../trace/traceabilityMatrix';
import { specStaleness, stalenessDiagnostics, type SpecStaleness } from '../specdir/staleness';
import { mergeFindingDiagnostics, stageFindingDiagnostics, type FindingDiagnostic } from '../validators/stageFindings';
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

/**
 * What the Problems panel lists for a spec, and so what `loom-vscode validate` reports: the
 * diagnostics above, every stale fact, and the findings of the current stage's validators (a
 * finding on the same line as a diagnostic that says the same thing replaces it).
 */
export function specProblems(spec: SpecPipeline, staleness: SpecStaleness = specStaleness(spec.snapshot, spec.definition, spec.stage)): { problems: Diagnostic[]; findings: FindingDiagnostic[] } {
  const diagnostics = [...specDiagnostics(spec), ...stalenessDiagnostics(spec.snapshot, staleness)];
  const findings = stageFindingDiagnostics(spec);
  return { problems: mergeFindingDiagnostics(diagnostics, findings), findings };
}
