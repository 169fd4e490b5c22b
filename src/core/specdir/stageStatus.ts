import type { PipelineState } from '../files/pipelineState';
import { FAILED_STAGE } from '../files/vocabulary';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { failedFrom } from '../pipeline/stateRecord';

/** The status symbols of `progressFileFormat` in pipeline.schema.json. */
export type StageStatus = 'waiting' | 'running' | 'done' | 'failed';

/** Where one stage of the pipeline stands for a spec. */
export interface StagePlace {
  status: StageStatus;
  /** The stage the spec is at (not for a failed spec: it is at `failed`). */
  current: boolean;
}

export interface StagePlaces {
  /** One per stage of the definition, in its order. */
  places: StagePlace[];
  /** The index of the stage the spec is at, or failed in; -1 when that stage is not known. */
  position: number;
  /** The stage a failed spec failed in. */
  failedIn?: string;
  /** The spec is at the pipeline's last stage: every stage is behind it (loom's active_only counts it as no longer active). */
  finished: boolean;
}

/**
 * Each stage's status for a spec at `stage`, derived here once for the tree, the dashboard, the
 * status bar and every other view:
 * - before the stage the spec is at: done; after it: waiting;
 * - the stage itself: running, or failed for a failed spec (the stage its newest `failed` entry
 *   names), or done at the pipeline's terminal stage (loom's `active_only` no longer counts a spec
 *   there as active);
 * - where that stage is not known (pipeline.state.json unreadable, or naming no stage of the
 *   pipeline), only what stage_history records: a stage whose latest visit passed is done.
 */
export function stagePlaces(def: PipelineDefinition, stage: string | null, state: PipelineState | undefined): StagePlaces {
  const failed = stage === FAILED_STAGE;
  const failedIn = failed && state ? failedFrom(state) : undefined;
  const here = failed ? failedIn : stage;
  const position = here == null ? -1 : def.stages.findIndex((s) => s.id === here);
  const finished = position >= 0 && !failed && def.stages[position].terminal;
  const history = state?.stage_history ?? [];

  const places = def.stages.map((st, i): StagePlace => {
    if (position < 0) {
      const visits = history.filter((h) => h.stage === st.id);
      const latest = visits[visits.length - 1];
      return { status: latest?.status === 'passed' ? 'done' : 'waiting', current: false };
    }
    if (i < position) return { status: 'done', current: false };
    if (i > position) return { status: 'waiting', current: false };
    return { status: failed ? 'failed' : finished ? 'done' : 'running', current: !failed };
  });
  return { places, position, ...(failedIn ? { failedIn } : {}), finished };
}

/** The "6/13" of a row: the stages behind the spec, out of all stages of its pipeline. */
export const stagesDone = (p: StagePlaces): number => p.places.filter((s) => s.status === 'done').length;
