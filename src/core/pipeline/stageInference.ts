import type { SpecSnapshot } from '../specdir/specSnapshot';
import { evaluateGuard, holds as guardHolds } from './guards';
import type { PipelineDefinition } from './pipelineDefinition';

/** Guards that describe artifacts on disk; confirmations and validators say nothing about where a spec stands. */
const ARTIFACT_GUARDS = new Set(['fileExists', 'reportPasses', 'analysisHasNoBlocker', 'convergenceConverged', 'worktreeExists']);

/** A markdown report passes for inference as loom's `markdownReportPasses` reads it. */
function reportPasses(s: SpecSnapshot, file: string): boolean {
  const report = s.reports.get(file);
  if (!report) return false;
  if (report.verdict) return report.verdict === 'PASS';
  return report.inferredVerdict === 'PASS';
}

/**
 * The stage loom's `inferStageFromArtifacts` gives a spec directory without pipeline.state.json:
 * the newest artifact decides, from a passing verify-report.md (synced) back to nothing at all
 * (brainstorming).
 */
export function loomInferredStage(s: SpecSnapshot): string {
  const has = (f: string) => s.files.has(f);
  if (has('verify-report.md') && reportPasses(s, 'verify-report.md')) return 'synced';
  const converged = s.convergenceReport;
  if (converged && converged.status === 'converged' && converged.blocker_count === 0) return 'verification';
  if (has('test-report.md')) return 'converge';
  if (s.taskStates.size > 0 || [...s.files].some((f) => f.startsWith('task-states/') && f.endsWith('.state.json'))) return 'executing';
  const analysis = s.artifactAnalysis;
  if (analysis && analysis.status === 'pass' && analysis.blocker_count === 0) return 'approved';
  if (has('plan.md')) return 'analyze-artifacts';
  if (has('handoffs/detail-expansion.json')) return 'planning';
  if (has('spec.md')) return 'detail-expansion';
  return 'brainstorming';
}

/**
 * With no pipeline.state.json, the stage is inferred from the artifacts: loom's answer when the
 * pipeline has that stage; otherwise (a pipeline without it) the first stage whose outputs are
 * incomplete or whose successor's artifacts are not there yet.
 */
export function inferStage(def: PipelineDefinition, snapshot: SpecSnapshot): string {
  const loom = loomInferredStage(snapshot);
  if (def.stages.some((s) => s.id === loom)) return loom;
  const holds = (calls: (typeof def.stages)[number]['enter']) => calls.filter((c) => ARTIFACT_GUARDS.has(c.type)).every((c) => guardHolds(evaluateGuard(c, { snapshot }), true));
  for (let i = 0; i < def.stages.length; i++) {
    const stage = def.stages[i];
    const next = def.stages[i + 1];
    if (!holds(stage.exit) || !next || !holds(next.enter)) return stage.id;
  }
  return def.initial;
}
