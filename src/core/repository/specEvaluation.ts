import type { Diagnostic } from '../diagnostics/diagnostic';
import { specOverview, type SpecGroup } from '../specdir/specOverview';
import type { SpecStaleness } from '../specdir/staleness';
import type { FindingDiagnostic } from '../validators/stageFindings';
import { specProblems } from './specDiagnostics';
import type { SpecPipeline } from './specPipeline';

/**
 * What one look at a spec in full gives the views that list every spec: its Problems entries (the
 * core's diagnostics, every stale fact, the current stage's findings), the group its row is filed
 * under and its stale marks. Plain JSON, so that it can be kept between sessions (evaluationCache).
 */
export interface SpecEvaluation {
  /** The Problems entries that are not findings, after the findings replaced what they say again. */
  diagnostics: Diagnostic[];
  findings: FindingDiagnostic[];
  group: SpecGroup;
  staleness: SpecStaleness;
}

/** Every Problems entry of the evaluation, as specProblems lists them. */
export const evaluationProblems = (e: SpecEvaluation): Diagnostic[] => [...e.diagnostics, ...e.findings];

/**
 * Looks at one spec in full: what the Problems panel, the row's group and its stale marks need,
 * the problems being specProblems' list. A part that fails (a validator's bug, say) is reported to
 * `failed` and left out, so that the rest is still shown.
 */
export function evaluateSpec(spec: SpecPipeline, staleness: SpecStaleness, failed: (part: 'diagnostics' | 'validators', error: unknown) => void): SpecEvaluation {
  const { problems, findings } = specProblems(spec, staleness, failed);
  const group = specOverview(spec.snapshot, spec.definition, spec.stage).group;
  // mergeFindingDiagnostics puts the findings last: what comes before them is the rest.
  return { diagnostics: problems.slice(0, problems.length - findings.length), findings, group, staleness };
}
