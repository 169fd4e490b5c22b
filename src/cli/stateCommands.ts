import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HANDOFFS_DIR, WritableHandoffSchema, type Handoff } from '../core/files/handoff';
import { parseReport } from '../core/files/report';
import type { TaskState } from '../core/files/taskState';
import { HANDOFF_STATUSES, TASK_ID_PATTERN, TASK_STATUSES, type TaskStatus } from '../core/files/vocabulary';
import { t } from '../core/messages';
import { stageOf } from '../core/pipeline/pipelineDefinition';
import type { SpecPipeline } from '../core/repository/specPipeline';
import { loadSpec, specTaskIds } from '../core/specdir/loadSpec';
import { withRunLock } from '../core/store/runLock';
import { writeHandoffRecord, writeTaskState } from '../core/store/stateStore';
import { UsageError } from './args';

/**
 * Headless counterparts of loom's `run --task T --task-status S`, `run --verdict` and `handoff
 * write`, for scripts and agents that drive a spec without VS Code. Every write goes through the
 * state store under the spec's run lock, re-reading the spec once the lock is held.
 */

export interface TaskAsk {
  id: string;
  status: string;
  blocker?: string;
}

/**
 * loom's `run --task --task-status` (commands/run.js, state-store.js updateTask): a missing state
 * starts as initTask writes it; `failed` counts a retry when a state existed before; the blocker
 * is set only when given, and kept otherwise.
 */
export function setTaskStatus(spec: SpecPipeline, ask: TaskAsk, now: string, lockWaitMs: number): TaskState {
  if (!TASK_ID_PATTERN.test(ask.id)) throw new UsageError(t('freshness.task.badId', { id: ask.id }));
  if (!(TASK_STATUSES as readonly string[]).includes(ask.status)) throw new UsageError(t('freshness.task.unknownStatus', { status: ask.status, statuses: TASK_STATUSES.join(', ') }));
  const status = ask.status as TaskStatus;
  return withRunLock(
    spec.snapshot,
    () => {
      const fresh = loadSpec(spec.snapshot.repoRoot, spec.snapshot.dir);
      const current = fresh.taskStates.get(ask.id);
      const base: TaskState = current ?? {
        task_id: ask.id,
        // loom's initTask writes the absolute spec directory (PipelineStateStore.specDir); both forms are read.
        spec_dir: fresh.dir,
        status: 'pending',
        retry_count: 0,
        agent_session_id: null,
        created_at: now,
        updated_at: now,
        last_reviewer_result: null,
        blocker: null,
      };
      const next: TaskState = {
        ...base,
        status,
        ...(ask.blocker ? { blocker: ask.blocker } : {}),
        ...(current && status === 'failed' ? { retry_count: (current.retry_count ?? 0) + 1 } : {}),
        updated_at: now,
      };
      writeTaskState(fresh, next, now);
      return next;
    },
    { waitMs: lockWaitMs },
  );
}

export type VerdictWord = 'PASS' | 'PARTIAL' | 'FAIL';

/**
 * loom's `run --verdict [--verdict-file F]`: the first verdict line of the report (qa-report.md
 * by default) as PASS, PARTIAL or FAIL, FAIL when there is none; exit 0, 2 and 1.
 */
export function reportVerdict(spec: SpecPipeline, file = 'qa-report.md'): { verdict: VerdictWord; code: number } {
  let text: string;
  try {
    text = readFileSync(join(spec.snapshot.dir, file), 'utf8');
  } catch {
    throw new VerdictFileMissing(t('freshness.verdict.missing', { file, specDir: spec.snapshot.specDir }));
  }
  const report = parseReport(`${spec.snapshot.specDir}/${file}`, text);
  const word = report.verdictText?.toUpperCase();
  const verdict: VerdictWord = word === 'PARTIAL' || word === '部分' ? 'PARTIAL' : report.verdict === 'PASS' ? 'PASS' : 'FAIL';
  return { verdict, code: verdict === 'PASS' ? 0 : verdict === 'PARTIAL' ? 2 : 1 };
}

/** The report `verdict` reads does not exist: loom says so and exits 1. */
export class VerdictFileMissing extends Error {}

export interface HandoffAsk {
  stage?: string;
  task?: string;
  status?: string;
  summary?: string;
  artifacts?: string[];
  /** Keep what the handoff says and record its fingerprints anew. */
  refresh?: boolean;
}

/**
 * loom's `handoff write --stage S | --task T [--status] [--summary] [--artifacts a,b]`: the
 * handoff is written with loom's basis and artifact fingerprints (state store). With `refresh`,
 * the existing handoff keeps its status, summary, artifacts and every other field, and only its
 * fingerprints and `written_at` are new: what a stale handoff needs once its facts were checked.
 */
export function writeHandoffFromCli(spec: SpecPipeline, ask: HandoffAsk, now: string, lockWaitMs: number): { file: string; handoff: Handoff; refreshed: boolean } {
  if ((ask.stage === undefined) === (ask.task === undefined)) throw new UsageError(t('freshness.handoff.oneOf'));
  const name = (ask.stage ?? ask.task)!;
  if (ask.stage !== undefined && !stageOf(spec.definition, ask.stage)) {
    throw new UsageError(t('freshness.handoff.unknownStage', { stage: ask.stage, pipeline: spec.pipelineType, stages: spec.definition.stages.map((s) => s.id).join(', ') }));
  }
  if (ask.task !== undefined && !specTaskIds(spec.snapshot).includes(ask.task)) {
    throw new UsageError(t('freshness.handoff.unknownTask', { specDir: spec.snapshot.specDir, task: ask.task, tasks: specTaskIds(spec.snapshot).join(', ') || '-' }));
  }
  if (ask.status !== undefined && !(HANDOFF_STATUSES as readonly string[]).includes(ask.status)) {
    throw new UsageError(t('freshness.handoff.badStatus', { status: ask.status, statuses: HANDOFF_STATUSES.join(', ') }));
  }
  const file = `${HANDOFFS_DIR}/${name}.json`;
  return withRunLock(
    spec.snapshot,
    () => {
      const fresh = loadSpec(spec.snapshot.repoRoot, spec.snapshot.dir);
      const broken = fresh.diagnostics.filter((d) => d.file === `${fresh.specDir}/${file}` && d.severity === 'error');
      if (broken.length) throw new UsageError(t('freshness.handoff.unreadable', { file: `${fresh.specDir}/${file}`, problems: broken.map((d) => d.message).join('; ') }));
      const existing = fresh.handoffs.get(name);
      if (ask.refresh && !existing) throw new UsageError(t('freshness.handoff.nothingToRefresh', { file: `${fresh.specDir}/${file}` }));
      const kept: Record<string, unknown> = ask.refresh && existing ? { ...existing } : {};
      const handoff = WritableHandoffSchema().parse({
        ...kept,
        ...(ask.stage !== undefined ? { stage: ask.stage } : {}),
        task_id: name,
        status: ask.status ?? kept.status ?? 'done',
        ...(ask.summary !== undefined ? { summary: ask.summary } : {}),
        ...(ask.artifacts?.length ? { artifacts: ask.artifacts } : {}),
        written_at: now,
      });
      writeHandoffRecord(fresh, name, handoff, now);
      return { file, handoff: (loadSpec(fresh.repoRoot, fresh.dir).handoffs.get(name) ?? handoff) as Handoff, refreshed: ask.refresh === true };
    },
    { waitMs: lockWaitMs },
  );
}

export const fingerprintCount = (h: Handoff) => Object.keys(h.basis_fingerprints ?? {}).length + Object.keys(h.artifact_fingerprints ?? {}).length;
