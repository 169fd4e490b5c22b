import type { SpecSnapshot } from '../spec/specSnapshot';
import { evaluateGuard } from './guards';
import type { PipelineDefinition } from './pipelineDefinition';

/** Guards that describe artifacts on disk; confirmations and validators say nothing about where a spec stands. */
const ARTIFACT_GUARDS = new Set(['fileExists', 'reportPasses', 'analysisHasNoBlocker', 'convergenceConverged', 'worktreeExists']);

/**
 * With no pipeline.state.json, loom infers the stage from the artifacts: the spec stands at the
 * first stage whose outputs are incomplete or whose successor's artifacts are not there yet.
 */
export function inferStage(def: PipelineDefinition, snapshot: SpecSnapshot): string {
  const holds = (calls: typeof def.stages[number]['enter']) =>
    calls.filter((c) => ARTIFACT_GUARDS.has(c.type)).every((c) => evaluateGuard(c, { snapshot, confirmed: true }).ok);
  for (let i = 0; i < def.stages.length; i++) {
    const stage = def.stages[i];
    const next = def.stages[i + 1];
    if (!holds(stage.exit) || !next || !holds(next.enter)) return stage.id;
  }
  return def.initial;
}
