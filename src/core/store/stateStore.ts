import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptStateError } from '../errors';
import { HANDOFFS_DIR, type Handoff } from '../files/handoff';
import type { PipelineState } from '../files/pipelineState';
import { PIPELINE_STATE_FILE } from '../files/pipelineState';
import { renderProgress, type StageSymbols } from '../files/progressFile';
import { taskStateFile, TaskStateSchema, type TaskState } from '../files/taskState';
import { toJsonText, writeFileAtomic } from '../fs/atomicWrite';
import { WRITER_VERSION } from '../pipeline/stateRecord';
import { withRunLock, type SpecLocation } from './runLock';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { specTaskIds } from '../specdir/loadSpec';
import { withLoomFingerprints, withRefreshedFingerprints, type HandoffPrints } from '../specdir/handoffFingerprints';

/**
 * The `loom_version` loom writes into a new state file: the `version` of the repository's
 * package.json, else 2.0.0 (pipeline-engine.js `_readVersion`).
 */
export function loomVersionOf(repoRoot: string): string {
  try {
    const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' && version ? version : WRITER_VERSION;
  } catch {
    return WRITER_VERSION;
  }
}

export function assertStateWritable(snapshot: SpecSnapshot): void {
  if (snapshot.stateCondition === 'invalid') {
    const file = `${snapshot.specDir}/${PIPELINE_STATE_FILE}`;
    throw new CorruptStateError(`${file} is corrupt; fix or restore it first (it was left untouched)`, file);
  }
}

export interface ProgressSources {
  taskStates?: ReadonlyMap<string, TaskState>;
  symbols?: StageSymbols;
}

function progressText(snapshot: SpecSnapshot, state: PipelineState, now: string, sources: ProgressSources): string {
  const taskStates = sources.taskStates ?? snapshot.taskStates;
  const ids = specTaskIds(snapshot, taskStates);
  return renderProgress({
    specName: snapshot.name,
    state,
    tasks: ids.map((id) => ({ id, state: taskStates.get(id) })),
    handoffs: snapshot.handoffs,
    symbols: sources.symbols,
    now,
  });
}

/** Writes pipeline.state.json and regenerates progress.md, atomically and under the run lock. */
export function writePipelineState(snapshot: SpecSnapshot, state: PipelineState, now: string, sources: ProgressSources = {}): void {
  assertStateWritable(snapshot);
  withRunLock(snapshot, () => {
    writeFileAtomic(join(snapshot.dir, PIPELINE_STATE_FILE), toJsonText(state));
    writeFileAtomic(join(snapshot.dir, 'progress.md'), progressText(snapshot, state, now, sources));
  });
}

/** Writes one task state and regenerates progress.md from the pipeline state on disk. */
export function writeTaskState(snapshot: SpecSnapshot, taskState: TaskState, now: string, sources: ProgressSources = {}): void {
  withRunLock(snapshot, () => {
    writeFileAtomic(join(snapshot.dir, taskStateFile(taskState.task_id)), toJsonText(taskState));
    if (snapshot.state) {
      const states = new Map(sources.taskStates ?? snapshot.taskStates);
      states.set(taskState.task_id, taskState);
      writeFileAtomic(join(snapshot.dir, 'progress.md'), progressText(snapshot, snapshot.state, now, { ...sources, taskStates: states }));
    }
  });
}

/**
 * Puts a task's state file back as it was, byte for byte (`text`), or removes it when it had none:
 * a run that stopped before any step of the task did its work changed nothing a person or a
 * reviewer wrote there. progress.md is regenerated from it.
 */
export function putBackTaskState(snapshot: SpecSnapshot, task: string, text: string | undefined, now: string): void {
  withRunLock(snapshot, () => {
    const path = join(snapshot.dir, taskStateFile(task));
    if (text === undefined) rmSync(path, { force: true });
    else writeFileAtomic(path, text);
    if (!snapshot.state) return;
    const states = new Map(snapshot.taskStates);
    const parsed = text === undefined ? undefined : TaskStateSchema().safeParse(JSON.parse(text));
    if (parsed?.success) states.set(task, parsed.data);
    else states.delete(task);
    writeFileAtomic(join(snapshot.dir, 'progress.md'), progressText(snapshot, snapshot.state, now, { taskStates: states }));
  });
}

/** Where a handoff is written and where its fingerprinted paths resolve. */
export type HandoffLocation = SpecLocation & { repoRoot: string };

/**
 * The one writer of `handoffs/<name>.json`, for every handoff the extension writes (Check Stage,
 * the chat's drafts, the CLI and MCP, the executing loop's stage and task handoffs): with the
 * `basis_fingerprints` and `artifact_fingerprints` loom 3's writeHandoff records for that name
 * (handoffFingerprints.ts; the loop's own handoffs only the artifacts', HandoffPrints), taken
 * from the files under the run lock, written atomically. Returns the handoff as written and its
 * spec-relative path.
 */
export function writeLoomHandoff(spec: HandoffLocation, name: string, handoff: Handoff, prints: HandoffPrints = {}): { file: string; handoff: Handoff } {
  const file = `${HANDOFFS_DIR}/${name}.json`;
  return withRunLock(spec, () => {
    // `task_id` names the stage or task the handoff is for, always, as loom's writeHandoff writes it.
    const written = withLoomFingerprints(name, { ...handoff, task_id: name }, { dir: spec.dir, repoRoot: spec.repoRoot }, prints);
    writeFileAtomic(join(spec.dir, file), toJsonText(written));
    return { file, handoff: written };
  });
}

/**
 * The same writer for a handoff whose facts a later stage reworked: the handoff as it is, with
 * the fingerprints it records taken again from the files (withRefreshedFingerprints).
 */
export function refreshLoomHandoff(spec: HandoffLocation, name: string, handoff: Handoff): Handoff {
  const file = `${HANDOFFS_DIR}/${name}.json`;
  const refreshed = withRefreshedFingerprints(handoff, { dir: spec.dir, repoRoot: spec.repoRoot });
  withRunLock(spec, () => writeFileAtomic(join(spec.dir, file), toJsonText(refreshed)));
  return refreshed;
}

/** writeLoomHandoff, for callers that need only the spec-relative path. */
export function writeHandoffFile(spec: HandoffLocation, name: string, handoff: Handoff, prints: HandoffPrints = {}): string {
  return writeLoomHandoff(spec, name, handoff, prints).file;
}

/**
 * Writes one stage or task handoff and regenerates progress.md, which lists the handoffs, as
 * loom's writeHandoff does: with its basis and artifact fingerprints worked out as loom works
 * them out (handoffFingerprints.ts), under the run lock.
 */
export function writeHandoffRecord(snapshot: SpecSnapshot, name: string, written: Handoff, now: string, sources: ProgressSources = {}): Handoff {
  return withRunLock(snapshot, () => {
    const { handoff } = writeLoomHandoff(snapshot, name, written);
    if (snapshot.state) {
      const handoffs = new Map(snapshot.handoffs);
      handoffs.set(name, handoff);
      writeFileAtomic(join(snapshot.dir, 'progress.md'), progressText({ ...snapshot, handoffs }, snapshot.state, now, sources));
    }
    return handoff;
  });
}
