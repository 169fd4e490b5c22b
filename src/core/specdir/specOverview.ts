import type { StageHistoryEntry } from '../files/pipelineState';
import { TASKS_DIR } from '../files/taskFile';
import { FAILED_STAGE, type TaskStatus } from '../files/vocabulary';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { failedFrom } from '../pipeline/stateRecord';
import type { SpecSnapshot } from './specSnapshot';
import { specTaskIds } from './loadSpec';
import { displayLanguage, stageDescription, type Language } from '../messages';

/** The status symbols of `progressFileFormat` in pipeline.schema.json. */
export type StageStatus = 'waiting' | 'running' | 'done' | 'failed';

/**
 * Where a spec is filed in a list: still moving, stuck in `failed`, at the end, or needing
 * attention because its pipeline.state.json cannot be read (it has not failed: its stage is unknown).
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
  const failedIn = failed && s.state ? failedFrom(s.state) : undefined;
  const position = def.stages.findIndex((st) => st.id === (failed ? failedIn : stage));
  const descriptions = stageDescriptions(def);
  const terminal = position >= 0 && !failed && def.stages[position].terminal;

  const stages = def.stages.map((st, i): StageOverview => {
    let status: StageStatus = 'waiting';
    if (position >= 0) {
      if (i < position || (i === position && terminal)) status = 'done';
      else if (i === position) status = failed ? 'failed' : 'running';
    }
    const current = !failed && i === position;
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

  return {
    stages,
    progress: { done: terminal ? def.stages.length : Math.max(position, 0), total: def.stages.length },
    group: stage === null ? 'attention' : failed ? 'failed' : terminal ? 'done' : 'in-progress',
    failedIn,
    failureReason: failed ? s.state?.failure_reason : undefined,
    updatedAt: s.state?.updated_at,
    tasks,
  };
}
