import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { parseJsonDocument } from '../diagnostics/jsonDocument';
import { locateJson } from '../diagnostics/jsonLocator';
import { positionAt } from '../diagnostics/textPosition';
import { ARTIFACT_ANALYSIS_FILE, ArtifactAnalysisSchema, CONVERGENCE_REPORT_FILE, ConvergenceReportSchema, FINDINGS_DIR, FindingsFileSchema } from '../files/findings';
import { HANDOFFS_DIR, HandoffSchema, plainHandoff, type Handoff } from '../files/handoff';
import { PIPELINE_STATE_FILE, PipelineStateSchema, plainPipelineState } from '../files/pipelineState';
import { parseReport, REPORT_FILES, type Report } from '../files/report';
import { normalizeRequirements, plainRequirementsFile, REQUIREMENTS_FILE, RequirementsFileSchema } from '../files/requirements';
import { parseTaskFile, TASKS_DIR, type TaskFile } from '../files/taskFile';
import { plainTaskState, TASK_STATES_DIR, TaskStateSchema, type TaskState } from '../files/taskState';
import { normalizeTraceability, plainTraceabilityFile, TRACEABILITY_FILE, TraceabilityFileSchema } from '../files/traceability';
import { SPEC_ROOTS, TASK_FILE_PATTERN } from '../files/vocabulary';
import { entryPath, repoRelative } from '../fs/paths';
import { folderEntries } from '../fs/readRecorder';
import { readRunLock, RUN_LOCK_FILE } from '../store/runLock';
import { SpecFileTooLargeError } from '../errors';
import type { FileStamp } from '../fs/fileStamp';
import type { SpecCache } from './specCache';
import type { FileCondition, SpecSnapshot } from './specSnapshot';

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

const listDir = (path: string): string[] => {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
};

/** The folders of a spec directory whose files loadSpec reads (besides the directory's own files). */
export const FOLDERS_READ = [TASKS_DIR, TASK_STATES_DIR, HANDOFFS_DIR, FINDINGS_DIR] as const;
/** The folders whose entries loadSpec lists without reading them. */
export const FOLDERS_LISTED = ['evidence'] as const;

/** A task file's parse as the parse cache keeps it (JSON: its key lines as pairs), or as parsed. */
type KeptTaskFile = { [K in keyof TaskFile]: K extends 'keyLines' ? TaskFile['keyLines'] | [string, number][] : TaskFile[K] };

/** What one file's parse left: its value (absent when unusable) and its problems. */
type Parsed<T> = { value?: T; diagnostics: Diagnostic[] };

/**
 * Reads every loom file of one spec directory. Never throws for bad content: problems become
 * diagnostics. With a cache, a file whose size and modification time are those recorded is not
 * read again: its recorded parse (value and diagnostics alike) is used.
 */
export function loadSpec(
  repoRoot: string,
  dir: string,
  cache?: SpecCache,
  /** `maxFileBytes`: throw SpecFileTooLargeError rather than parse a larger file (a reader with a small heap). */
  options: { summary?: boolean; maxFileBytes?: number } = {},
): SpecSnapshot {
  const specDir = repoRelative(repoRoot, dir);
  const rel = (p: string) => `${specDir}/${p}`;
  const diagnostics: Diagnostic[] = [];
  const files = new Set<string>();
  for (const entry of folderEntries(dir)) files.add(entry.folder ? `${entry.name}/` : entry.name);
  const sub = (folder: string) => {
    if (!files.has(`${folder}/`)) return [];
    const names = listDir(entryPath(dir, folder));
    for (const n of names) files.add(`${folder}/${n}`);
    return names;
  };
  const entries = cache?.open(dir);

  const unreadable = (name: string) => diagnostics.push(diagnostic(rel(name), `${rel(name)} could not be read`, {}, 'error', 'unreadable'));

  /** One file's parse, from the cache when its stamp is unchanged; undefined when it cannot be read. */
  const parsed = <T>(name: string, parse: (text: string) => Parsed<T>): Parsed<T> | undefined => {
    const path = entryPath(dir, name);
    let stamp: FileStamp | undefined;
    if (entries || options.maxFileBytes !== undefined) {
      const st = statSync(path, { throwIfNoEntry: false });
      if (st && options.maxFileBytes !== undefined && st.size > options.maxFileBytes) throw new SpecFileTooLargeError(rel(name), st.size);
      if (st?.isFile() && entries) {
        stamp = { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
        const hit = entries.get(name, stamp) as Parsed<T> | undefined;
        if (hit) {
          diagnostics.push(...hit.diagnostics);
          return hit;
        }
      }
    }
    const text = readText(path);
    if (text === undefined) {
      unreadable(name);
      return undefined;
    }
    const result = parse(text);
    if (stamp) entries!.set(name, stamp, result);
    diagnostics.push(...result.diagnostics);
    return result;
  };

  const json = <T>(
    name: string,
    schema: Parameters<typeof parseJsonDocument>[2],
    check?: (value: T, text: string) => Diagnostic[],
    plain?: (raw: unknown) => T | undefined,
  ): { value?: T; condition: FileCondition } => {
    if (!files.has(name)) return { condition: 'missing' };
    const r = parsed<T>(name, (text) => {
      const doc = parseJsonDocument(rel(name), text, schema, plain);
      if (doc.value === undefined) return { diagnostics: doc.diagnostics };
      const value = doc.value as T;
      return { value, diagnostics: check ? [...doc.diagnostics, ...check(value, text)] : doc.diagnostics };
    });
    return r?.value === undefined ? { condition: 'invalid' } : { value: r.value, condition: 'ok' };
  };

  const state = json<import('../files/pipelineState').PipelineState>(PIPELINE_STATE_FILE, PipelineStateSchema(), undefined, plainPipelineState());
  if (options.summary) {
    if (entries) cache!.commit(dir, entries);
    return summarySnapshot(repoRoot, dir, specDir, files, state.value, state.condition, diagnostics);
  }
  const requirementsFile = json<import('../files/requirements').RequirementsFile>(REQUIREMENTS_FILE, RequirementsFileSchema(), undefined, plainRequirementsFile);
  const traceFile = json<import('../files/traceability').TraceabilityFile>(TRACEABILITY_FILE, TraceabilityFileSchema(), undefined, plainTraceabilityFile);
  const analysis = json<import('../files/findings').ArtifactAnalysis>(ARTIFACT_ANALYSIS_FILE, ArtifactAnalysisSchema());
  const convergence = json<import('../files/findings').ConvergenceReport>(CONVERGENCE_REPORT_FILE, ConvergenceReportSchema());

  const tasks = new Map<string, TaskFile>();
  for (const name of sub(TASKS_DIR).sort(byTaskNumber)) {
    if (!TASK_FILE_PATTERN.test(name)) continue;
    const r = parsed(`${TASKS_DIR}/${name}`, (text) => {
      const p = parseTaskFile(rel(`${TASKS_DIR}/${name}`), name.replace(/\.md$/i, ''), text); // loom's taskIdFromFilename: the name without `.md`, its case kept
      // Kept as JSON in the parse cache: the key lines as pairs, made a Map again below (without a cache, kept as they are).
      const value: KeptTaskFile = entries ? { ...p.task, keyLines: [...p.task.keyLines] } : p.task;
      return { value, diagnostics: p.diagnostics };
    });
    const task = r?.value;
    if (task) tasks.set(task.id, task.keyLines instanceof Map ? (task as TaskFile) : { ...task, keyLines: new Map(task.keyLines) });
  }

  const taskStates = new Map<string, TaskState>();
  for (const name of sub(TASK_STATES_DIR).sort(byTaskNumber)) {
    if (!name.endsWith('.state.json')) continue;
    const expected = name.slice(0, -'.state.json'.length);
    const file = `${TASK_STATES_DIR}/${name}`;
    const r = json<TaskState>(
      file,
      TaskStateSchema(),
      (value, text) =>
        value.task_id === expected
          ? []
          : [
              diagnostic(
                rel(file),
                `${rel(file)}: task_id "${value.task_id}" does not match the file name (${expected})`,
                positionAt(text, locateJson(text).offsetOf(['task_id'])),
                'warning',
                'task-id-mismatch',
              ),
            ],
      plainTaskState,
    );
    if (r.value) taskStates.set(expected, r.value);
  }

  const handoffs = new Map<string, Handoff>();
  for (const name of sub(HANDOFFS_DIR).sort()) {
    if (!name.endsWith('.json')) continue;
    const r = json<Handoff>(`${HANDOFFS_DIR}/${name}`, HandoffSchema(), undefined, plainHandoff());
    if (r.value) handoffs.set(name.slice(0, -5), r.value);
  }

  for (const name of sub(FINDINGS_DIR)) {
    if (name.endsWith('.json')) json(`${FINDINGS_DIR}/${name}`, FindingsFileSchema());
  }
  for (const folder of FOLDERS_LISTED) sub(folder);

  const reports = new Map<string, Report>();
  for (const name of REPORT_FILES) {
    if (!files.has(name)) continue;
    const r = parsed(name, (text) => ({ value: parseReport(rel(name), text), diagnostics: [] }));
    if (r?.value) reports.set(name, r.value);
  }

  const lock = files.has(RUN_LOCK_FILE) ? readRunLock(dir) : undefined;
  if (entries) cache!.commit(dir, entries);

  return {
    repoRoot,
    dir,
    specDir,
    name: basename(dir),
    files,
    state: state.value,
    stateCondition: state.condition,
    tasks,
    taskStates,
    requirements: requirementsFile.value ? normalizeRequirements(requirementsFile.value) : undefined,
    requirementsCondition: requirementsFile.condition,
    traceability: traceFile.value ? normalizeTraceability(traceFile.value) : undefined,
    traceabilityCondition: traceFile.condition,
    handoffs,
    reports,
    artifactAnalysis: analysis.value,
    artifactAnalysisCondition: analysis.condition,
    convergenceReport: convergence.value,
    convergenceReportCondition: convergence.condition,
    lock,
    diagnostics,
  };
}

/**
 * What a list row needs of a spec, read from its directory listing and pipeline.state.json only:
 * its name, stage and stage counts. Everything else is empty until the spec is read in full.
 */
function summarySnapshot(repoRoot: string, dir: string, specDir: string, files: Set<string>, state: SpecSnapshot['state'], stateCondition: FileCondition, diagnostics: Diagnostic[]): SpecSnapshot {
  const none = 'missing' as const;
  return {
    repoRoot,
    dir,
    specDir,
    name: basename(dir),
    files,
    state,
    stateCondition,
    tasks: new Map(),
    taskStates: new Map(),
    requirementsCondition: none,
    traceabilityCondition: none,
    handoffs: new Map(),
    reports: new Map(),
    artifactAnalysisCondition: none,
    convergenceReportCondition: none,
    diagnostics,
  };
}

/** The number of `T12.md` or `T12` (what /^T(\d+)/ reads), without a regular expression: every spec's listings are sorted with it. */
function taskNumber(name: string): number | undefined {
  if (name.charCodeAt(0) !== 84 /* T */) return undefined;
  let end = 1;
  while (end < name.length && name.charCodeAt(end) >= 48 && name.charCodeAt(end) <= 57) end++;
  return end > 1 ? Number(name.slice(1, end)) : undefined;
}

/** T2 before T10. */
export function byTaskNumber(a: string, b: string): number {
  const na = taskNumber(a);
  const nb = taskNumber(b);
  // T2 and T02 have the same number; the names still decide, so the order never depends on readdir.
  const byNumber = na !== undefined && nb !== undefined ? na - nb : 0;
  if (byNumber) return byNumber;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Spec directories: `specs/<name>` and `qa/<name>` directly under the repository root. */
export function findSpecDirs(repoRoot: string, roots: readonly string[] = SPEC_ROOTS): string[] {
  const out: string[] = [];
  for (const root of roots) {
    const base = join(repoRoot, root);
    if (!isDirectory(base)) continue;
    for (const entry of readdirSync(base, { withFileTypes: true })) {
      if (entry.isDirectory() && !entry.name.startsWith('.')) out.push(join(base, entry.name));
    }
  }
  return out.sort();
}

export { SPEC_ROOTS };

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The spec's tasks in loom's order: every task with a task file or a task state, by task number.
 * The one place task order is decided; the tree, the dashboard, progress.md and `status` read it.
 */
export function specTaskIds(s: Pick<SpecSnapshot, 'tasks' | 'taskStates'>, taskStates: ReadonlyMap<string, unknown> = s.taskStates): string[] {
  // The loader reads task files in this order already: sort only when a state has no task file.
  let orphans = false;
  for (const id of taskStates.keys()) if (!s.tasks.has(id)) orphans = true;
  const ids = [...s.tasks.keys()];
  return orphans ? [...new Set([...ids, ...taskStates.keys()])].sort(byTaskNumber) : ids;
}
