import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { PIPELINE_STATE_FILE } from '../files/pipelineState';
import { t } from '../messages';
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
  return [...spec.diagnostics, ...adviceDiagnostics(spec), ...taskOwnershipDiagnostics(tasks), ...taskDependencyDiagnostics(tasks, plan), ...buildTraceabilityMatrix(spec.snapshot).diagnostics];
}

/**
 * The extension's checks beyond loom's for the way on from the current stage, as warnings on the
 * file they name: visible in the Problems panel and `validate`, never an error that fails them.
 */
export function adviceDiagnostics(spec: SpecPipeline): Diagnostic[] {
  const { specDir } = spec.snapshot;
  return spec
    .next()
    .filter((c) => c.kind === 'forward')
    .flatMap((c) =>
      c.advice.map((reason) =>
        diagnostic(`${specDir}/${c.adviceFile ?? PIPELINE_STATE_FILE}`, t('advice.diagnostic', { to: c.to, reason, stage: spec.stage ?? '' }), { line: 1 }, 'warning', 'advice'),
      ),
    );
}

/**
 * What the Problems panel lists for a spec, and so what `loom-vscode validate` reports: the
 * diagnostics above, every stale fact, and the findings of the current stage's validators (a
 * finding on the same line as a diagnostic that says the same thing replaces it).
 */
export function specProblems(
  spec: SpecPipeline,
  staleness: SpecStaleness = specStaleness(spec.snapshot, spec.definition, spec.stage),
  /**
   * Given, a part that throws (a validator's bug, say) is reported here and left out, so that the
   * rest is still listed; without it the error goes to the caller.
   */
  failed?: (part: 'diagnostics' | 'validators', error: unknown) => void,
): { problems: Diagnostic[]; findings: FindingDiagnostic[] } {
  const part = <T>(name: 'diagnostics' | 'validators', fallback: T, compute: () => T): T => {
    if (!failed) return compute();
    try {
      return compute();
    } catch (e) {
      failed(name, e);
      return fallback;
    }
  };
  const diagnostics = part('diagnostics', [], () => [...specDiagnostics(spec), ...stalenessDiagnostics(spec.snapshot, staleness)]);
  // Only specs at a stage with validators run any (the validators read the spec's files).
  const findings = part('validators', [], () => stageFindingDiagnostics(spec));
  return { problems: mergeFindingDiagnostics(diagnostics, findings), findings };
}
