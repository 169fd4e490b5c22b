import type { StageHistoryEntry } from '../files/pipelineState';
import { PIPELINE_STATE_FILE } from '../files/pipelineState';
import { TASKS_DIR } from '../files/taskFile';
import { FAILED_STAGE, type TaskStatus } from '../files/vocabulary';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import type { SpecSnapshot } from './specSnapshot';
import { specTaskIds } from './loadSpec';
import { stagePlaces, stagesDone, type StageStatus } from './stageStatus';
import { unreadableFiles, type UnreadableFile } from './unreadableFiles';
import { displayLanguage, stageDescription, type Language } from '../messages';

export type { StageStatus };

/**
 * Where a spec is filed in a list: still moving, stuck in `failed`, at the end, or needing
 * attention because a file of it cannot be read (pipeline.state.json among them: it has not
 * failed, its stage is unknown) or its state names no stage of its pipeline.
 */
export type SpecGroup = 'in-progress' | 'failed' | 'done' | 'attention';

export interface StageOverview {
  id: string;
  description?: string;
  status: StageStatus;
  current: boolean;
  confirmation: boolean;
  humanApproval: boolean;
  /** Every history entry of this stage, oldest first. */
  visits: StageHistoryEntry[];
  /** When the current stage was entered (only for the current stage). */
  enteredAt?: string;
  /** The stage's required outputs and whether each is there. */
  outputs: { path: string; exists: boolean }[];
}

export interface TaskOverview {
  id: string;
  title?: string;
  /** Spec-relative `tasks/TN.md`, when the task file exists. */
  path?: string;
  status: TaskStatus;
  retries: number;
  blocker?: string;
  lastReviewerResult?: string;
  updatedAt?: string;
}

export interface SpecOverview {
  stages: StageOverview[];
  /** Stages behind the spec, out of all stages of its pipeline: the "6/13" of a list row. */
  progress: { done: number; total: number };
  group: SpecGroup;
  /** The stage a failed spec failed in. */
  failedIn?: string;
  failureReason?: string;
  updatedAt?: string;
  tasks: TaskOverview[];
  /** The spec's files that exist but cannot be read, pipeline.state.json aside (its stage is then unknown). */
  unreadable: UnreadableFile[];
}

/** Whether a spec-relative output is there; folders count when they hold something. */
export function outputExists(s: Pick<SpecSnapshot, 'files'>, path: string): boolean {
  if (!path.endsWith('/')) return s.files.has(path);
  for (const f of s.files) if (f !== path && f.startsWith(path)) return true;
  return false;
}

/**
 * The stages' descriptions in the display language, worded once per pipeline definition and
 * language: every row of a thousand specs shares the repository's one definition, and wording
 * thirteen descriptions per row was a tenth of a second of a reload's list.
 */
const describedStages = new WeakMap<PipelineDefinition['stages'], { language: Language; descriptions: (string | undefined)[] }>();

function stageDescriptions(def: PipelineDefinition): (string | undefined)[] {
  const language = displayLanguage();
  const known = describedStages.get(def.stages);
  if (known?.language === language) return known.descriptions;
  const descriptions = def.stages.map((st) => stageDescription(st.id, st.description, language));
  describedStages.set(def.stages, { language, descriptions });
  return descriptions;
}

/**
 * What every view shows about one spec, derived in one place from its snapshot and pipeline:
 * each stage's status, the progress count, the group it is filed under, and its tasks.
 */
export function specOverview(s: SpecSnapshot, def: PipelineDefinition, stage: string | null): SpecOverview {
  const history = s.state?.stage_history ?? [];
  const failed = stage === FAILED_STAGE;
  const placed = stagePlaces(def, stage, s.state);
  const descriptions = stageDescriptions(def);

  const stages = def.stages.map((st, i): StageOverview => {
    const { status, current } = placed.places[i];
    return {
      id: st.id,
      description: descriptions[i],
      status,
      current,
      confirmation: st.confirmation,
      humanApproval: st.humanApproval,
      visits: history.filter((h) => h.stage === st.id),
      enteredAt: current ? (s.state?.current_stage_started_at ?? s.state?.updated_at) : undefined,
      outputs: st.outputs.map((path) => ({ path, exists: outputExists(s, path) })),
    };
  });

  const ids = specTaskIds(s);
  const tasks = ids.map((id): TaskOverview => {
    const file = s.tasks.get(id);
    const state = s.taskStates.get(id);
    return {
      id,
      title: file?.title || undefined,
      path: file ? `${TASKS_DIR}/${id}.md` : undefined,
      status: state?.status ?? 'pending',
      retries: state?.retry_count ?? 0,
      blocker: state?.blocker ?? undefined,
      lastReviewerResult: state?.last_reviewer_result ?? undefined,
      updatedAt: state?.updated_at,
    };
  });

  const unreadable = unreadableFiles(s).filter((f) => f.file !== PIPELINE_STATE_FILE);
  // A stage the pipeline does not have is as unknown as an unreadable one; a failed spec is filed as failed.
  const lost = stage === null || (!failed && placed.position < 0);
  return {
    stages,
    progress: { done: stagesDone(placed), total: def.stages.length },
    group: lost || unreadable.length > 0 ? 'attention' : failed ? 'failed' : placed.finished ? 'done' : 'in-progress',
    failedIn: placed.failedIn,
    failureReason: failed ? s.state?.failure_reason : undefined,
    updatedAt: s.state?.updated_at,
    tasks,
    unreadable,
  };
}
