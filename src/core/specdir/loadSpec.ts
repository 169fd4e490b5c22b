import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { parseJsonDocument } from '../diagnostics/jsonDocument';
import { locateJson } from '../diagnostics/jsonLocator';
import { positionAt } from '../diagnostics/textPosition';
import {
  ARTIFACT_ANALYSIS_FILE,
  ArtifactAnalysisSchema,
  CONVERGENCE_REPORT_FILE,
  ConvergenceReportSchema,
  FINDINGS_DIR,
  FindingsFileSchema,
  type ArtifactAnalysis,
  type ConvergenceReport,
} from '../files/findings';
import { HANDOFFS_DIR, HandoffSchema, plainHandoff, type Handoff } from '../files/handoff';
import { PIPELINE_STATE_FILE, PipelineStateSchema, plainPipelineState, type PipelineState } from '../files/pipelineState';
import { parseReport, REPORT_FILES, type Report } from '../files/report';
import { normalizeRequirements, plainRequirementsFile, REQUIREMENTS_FILE, RequirementsFileSchema, type RequirementsFile } from '../files/requirements';
import { parseTaskFile, TASKS_DIR, type TaskFile } from '../files/taskFile';
import { plainTaskState, TASK_STATES_DIR, TaskStateSchema, type TaskState } from '../files/taskState';
import { normalizeTraceability, plainTraceabilityFile, TRACEABILITY_FILE, TraceabilityFileSchema, type TraceabilityFile } from '../files/traceability';
import { SPEC_ROOTS, TASK_FILE_PATTERN } from '../files/vocabulary';
import { entryPath, repoRelative } from '../fs/paths';
import { folderEntries, folderNames } from '../fs/readRecorder';
import { readTextOnce } from '../fs/requestReads';
import { readRunLock, RUN_LOCK_FILE } from '../store/runLock';
import { SpecFileTooLargeError } from '../errors';
import type { FileStamp } from '../fs/fileStamp';
import type { SpecCache, SpecFileCache } from './specCache';
import type { FileCondition, SpecSnapshot } from './specSnapshot';

const readText = (path: string): string | undefined => {
  try {
    return readTextOnce(path);
  } catch {
    return undefined;
  }
};

const listDir = (path: string): { name: string; folder: boolean }[] => {
  try {
    return folderEntries(path);
  } catch {
    return [];
  }
};

const listNames = (path: string): string[] => {
  try {
    return folderNames(path);
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

type Ledger<T> = { value?: T; condition: FileCondition };

/**
 * The groups of files a spec is read in, in the order their problems are listed: every reader
 * (in full or on demand) lists a spec's diagnostics in this order, whatever order it read them in.
 */
const GROUPS = ['state', 'requirements', 'traceability', 'analysis', 'convergence', 'tasks', 'taskStates', 'handoffs', 'findings', 'reports'] as const;
type Group = (typeof GROUPS)[number];

/** The group a spec-relative path (a folder ends in `/`) is read with; undefined for files no group parses (spec.md, plan.md). */
function groupOf(path: string): Group | undefined {
  const folder = path.includes('/') ? path.slice(0, path.indexOf('/')) : undefined;
  if (folder !== undefined) return folder === TASKS_DIR ? 'tasks' : folder === TASK_STATES_DIR ? 'taskStates' : folder === HANDOFFS_DIR ? 'handoffs' : folder === FINDINGS_DIR ? 'findings' : undefined;
  switch (path) {
    case PIPELINE_STATE_FILE:
      return 'state';
    case REQUIREMENTS_FILE:
      return 'requirements';
    case TRACEABILITY_FILE:
      return 'traceability';
    case ARTIFACT_ANALYSIS_FILE:
      return 'analysis';
    case CONVERGENCE_REPORT_FILE:
      return 'convergence';
    default:
      return (REPORT_FILES as readonly string[]).includes(path) ? 'reports' : undefined;
  }
}

/**
 * One spec directory being read: its listing (the directory and the folders the groups read, all
 * at once: every reader needs `files` whole), and each group of files read and parsed the first
 * time it is asked for, with its problems kept apart. Never throws for bad content: problems
 * become diagnostics. With a parse cache, a file whose size and modification time are those
 * recorded is not read again: its recorded parse (value and diagnostics alike) is used.
 */
class SpecReading {
  readonly specDir: string;
  readonly files = new SpecFiles();
  private readonly entries?: SpecFileCache;
  private readonly problems = new Map<Group, Diagnostic[]>();
  private readonly done = new Map<Group, unknown>();
  /** Bumped when a group is read: the diagnostics list is made again. */
  private version = 0;
  private listed?: { version: number; diagnostics: Diagnostic[] };

  constructor(
    readonly repoRoot: string,
    readonly dir: string,
    private readonly cache: SpecCache | undefined,
    private readonly maxFileBytes: number | undefined,
    /**
     * Folders listed: `all` up front (a spec read in full), `needed` the ones whose entries every
     * answer needs (the tasks, task states, handoffs) up front and the others the first time a name
     * in them is asked for (a spec read on demand), `none` (a summary reads only the state file).
     */
    folders: 'all' | 'needed' | 'none',
  ) {
    this.specDir = repoRelative(repoRoot, dir);
    for (const entry of folderEntries(dir)) this.files.add(entry.folder ? `${entry.name}/` : entry.name);
    // Listed up front, in the order the groups once listed them (a Set keeps the order names came in).
    const later: readonly string[] = folders === 'needed' ? [FINDINGS_DIR, ...FOLDERS_LISTED] : [];
    if (folders !== 'none') for (const folder of [...FOLDERS_READ, ...FOLDERS_LISTED]) if (!later.includes(folder)) this.list(folder);
    for (const folder of later) this.files.later(folder, () => this.list(folder));
    this.entries = cache?.open(dir);
  }

  private readonly names = new Map<string, string[]>();

  /** Entries of the folders that are folders themselves (a task file's name on a folder is no task). */
  private readonly subfolders = new Set<string>();

  private list(folder: string): void {
    if (!this.files.has(`${folder}/`)) return;
    // Only a task file's name on a folder matters (it is no task): the other folders are listed by
    // name alone, without the Dirent Node makes for each entry of a listing with file types.
    const entries = folder === TASKS_DIR ? listDir(entryPath(this.dir, folder)) : undefined;
    const names = entries ? entries.map((e) => e.name) : listNames(entryPath(this.dir, folder));
    for (const name of names) this.files.add(`${folder}/${name}`);
    if (entries) for (const e of entries) if (e.folder) this.subfolders.add(`${folder}/${e.name}`);
    this.names.set(folder, names);
  }

  /** Whether a spec-relative path in tasks/ was listed as a folder. */
  isFolder(path: string): boolean {
    return this.subfolders.has(path);
  }

  /** The entries of a folder the groups read, as listed. */
  namesIn(folder: string): string[] {
    this.files.listed(folder);
    return this.names.get(folder) ?? [];
  }

  private rel(name: string): string {
    return `${this.specDir}/${name}`;
  }

  /** A group's value, read the first time it is asked for. */
  group<T>(group: Group, read: (problems: Diagnostic[]) => T): T {
    if (this.done.has(group)) return this.done.get(group) as T;
    const problems: Diagnostic[] = [];
    const value = read(problems);
    this.done.set(group, value);
    this.problems.set(group, problems);
    this.version++;
    return value;
  }

  /** Whether a group was read. */
  has(group: Group): boolean {
    return this.done.has(group);
  }

  /** The problems of the groups read so far, in GROUPS order. */
  get diagnostics(): Diagnostic[] {
    if (this.listed?.version === this.version) return this.listed.diagnostics;
    const diagnostics = GROUPS.flatMap((g) => this.problems.get(g) ?? []);
    this.listed = { version: this.version, diagnostics };
    return diagnostics;
  }

  /** The parse cache's entries are kept for the files read. */
  commit(): void {
    if (this.entries) this.cache!.commit(this.dir, this.entries);
  }

  /** One file's parse, from the cache when its stamp is unchanged; undefined when it cannot be read. */
  parsed<T>(name: string, problems: Diagnostic[], parse: (text: string) => Parsed<T>): Parsed<T> | undefined {
    const path = entryPath(this.dir, name);
    let stamp: FileStamp | undefined;
    if (this.entries || this.maxFileBytes !== undefined) {
      const st = statSync(path, { throwIfNoEntry: false });
      if (st && this.maxFileBytes !== undefined && st.size > this.maxFileBytes) throw new SpecFileTooLargeError(this.rel(name), st.size);
      if (st?.isFile() && this.entries) {
        stamp = { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
        const hit = this.entries.get(name, stamp) as Parsed<T> | undefined;
        if (hit) {
          problems.push(...hit.diagnostics);
          return hit;
        }
      }
    }
    const text = readText(path);
    if (text === undefined) {
      problems.push(diagnostic(this.rel(name), `${this.rel(name)} could not be read`, {}, 'error', 'unreadable'));
      return undefined;
    }
    const result = parse(text);
    if (stamp) this.entries!.set(name, stamp, result);
    problems.push(...result.diagnostics);
    return result;
  }

  json<T>(name: string, problems: Diagnostic[], schema: Parameters<typeof parseJsonDocument>[2], check?: (value: T, text: string) => Diagnostic[], plain?: (raw: unknown) => T | undefined): Ledger<T> {
    if (!this.files.has(name)) return { condition: 'missing' };
    const r = this.parsed<T>(name, problems, (text) => {
      const doc = parseJsonDocument(this.rel(name), text, schema, plain);
      if (doc.value === undefined) return { diagnostics: doc.diagnostics };
      const value = doc.value as T;
      return { value, diagnostics: check ? [...doc.diagnostics, ...check(value, text)] : doc.diagnostics };
    });
    return r?.value === undefined ? { condition: 'invalid' } : { value: r.value, condition: 'ok' };
  }

  state(): Ledger<PipelineState> {
    return this.group('state', (p) => this.json<PipelineState>(PIPELINE_STATE_FILE, p, PipelineStateSchema, undefined, plainPipelineState()));
  }

  requirements(): Ledger<RequirementsFile> {
    return this.group('requirements', (p) => this.json<RequirementsFile>(REQUIREMENTS_FILE, p, RequirementsFileSchema, undefined, plainRequirementsFile));
  }

  traceability(): Ledger<TraceabilityFile> {
    return this.group('traceability', (p) => this.json<TraceabilityFile>(TRACEABILITY_FILE, p, TraceabilityFileSchema, undefined, plainTraceabilityFile));
  }

  analysis(): Ledger<ArtifactAnalysis> {
    return this.group('analysis', (p) => this.json<ArtifactAnalysis>(ARTIFACT_ANALYSIS_FILE, p, ArtifactAnalysisSchema));
  }

  convergence(): Ledger<ConvergenceReport> {
    return this.group('convergence', (p) => this.json<ConvergenceReport>(CONVERGENCE_REPORT_FILE, p, ConvergenceReportSchema));
  }

  /** The task files' names (`T3.md`) in task order, as listed: the tasks are known without reading them. */
  taskFileNames(): string[] {
    return (this.taskNames ??= this.namesIn(TASKS_DIR)
      .filter((name) => TASK_FILE_PATTERN.test(name))
      .sort(byTaskNumber));
  }

  private taskNames?: string[];

  tasks(): Map<string, TaskFile> {
    return this.group('tasks', (p) => {
      const tasks = new Map<string, TaskFile>();
      for (const name of this.taskFileNames()) {
        const file = `${TASKS_DIR}/${name}`;
        // loom's taskIdFromFilename: the name without `.md`, its case kept.
        const id = name.replace(/\.md$/i, '');
        const r = this.parsed(file, p, (text) => {
          const parsed = parseTaskFile(this.rel(file), id, text);
          // Kept as JSON in the parse cache: the key lines as pairs, made a Map again below (without a cache, kept as they are).
          const value: KeptTaskFile = this.entries ? { ...parsed.task, keyLines: [...parsed.task.keyLines] } : parsed.task;
          return { value, diagnostics: parsed.diagnostics };
        });
        const task = r?.value;
        if (task) tasks.set(task.id, task.keyLines instanceof Map ? (task as TaskFile) : { ...task, keyLines: new Map(task.keyLines) });
      }
      return tasks;
    });
  }

  taskStates(): Map<string, TaskState> {
    return this.group('taskStates', (p) => {
      const taskStates = new Map<string, TaskState>();
      for (const name of this.namesIn(TASK_STATES_DIR).sort(byTaskNumber)) {
        if (!name.endsWith('.state.json')) continue;
        const expected = name.slice(0, -'.state.json'.length);
        const file = `${TASK_STATES_DIR}/${name}`;
        const r = this.json<TaskState>(
          file,
          p,
          TaskStateSchema,
          (value, text) =>
            value.task_id === expected
              ? []
              : [
                  diagnostic(
                    this.rel(file),
                    `${this.rel(file)}: task_id "${value.task_id}" does not match the file name (${expected})`,
                    positionAt(text, locateJson(text).offsetOf(['task_id'])),
                    'warning',
                    'task-id-mismatch',
                  ),
                ],
          plainTaskState,
        );
        if (r.value) taskStates.set(expected, r.value);
      }
      return taskStates;
    });
  }

  handoffs(): Map<string, Handoff> {
    return this.group('handoffs', (p) => {
      const handoffs = new Map<string, Handoff>();
      for (const name of [...this.namesIn(HANDOFFS_DIR)].sort()) {
        if (!name.endsWith('.json')) continue;
        const r = this.json<Handoff>(`${HANDOFFS_DIR}/${name}`, p, HandoffSchema, undefined, plainHandoff());
        if (r.value) handoffs.set(name.slice(0, -5), r.value);
      }
      return handoffs;
    });
  }

  /** The findings files, read for their problems alone (the views read them on their own). */
  findings(): void {
    this.group('findings', (p) => {
      for (const name of this.namesIn(FINDINGS_DIR)) if (name.endsWith('.json')) this.json(`${FINDINGS_DIR}/${name}`, p, FindingsFileSchema);
    });
  }

  reports(): Map<string, Report> {
    return this.group('reports', (p) => {
      const reports = new Map<string, Report>();
      for (const name of REPORT_FILES) {
        if (!this.files.has(name)) continue;
        const r = this.parsed(name, p, (text) => ({ value: parseReport(this.rel(name), text), diagnostics: [] }));
        if (r?.value) reports.set(name, r.value);
      }
      return reports;
    });
  }

  /** Reads every group not read yet. */
  readAll(): void {
    this.readGroups(GROUPS);
  }

  readGroups(groups: Iterable<Group>): void {
    for (const g of groups) {
      if (this.done.has(g)) continue;
      if (g === 'state') this.state();
      else if (g === 'requirements') this.requirements();
      else if (g === 'traceability') this.traceability();
      else if (g === 'analysis') this.analysis();
      else if (g === 'convergence') this.convergence();
      else if (g === 'tasks') this.tasks();
      else if (g === 'taskStates') this.taskStates();
      else if (g === 'handoffs') this.handoffs();
      else if (g === 'findings') this.findings();
      else this.reports();
    }
  }
}

/**
 * A spec's listing, spec-relative (folders end in `/`), whose folders given to `later` are listed
 * the first time a name inside one is asked for, or the whole listing is: a spec read on demand
 * lists its evidence/ only when a check looks in it. Every other reader sees a plain Set.
 */
class SpecFiles extends Set<string> {
  private readonly pending = new Map<string, () => void>();

  later(folder: string, list: () => void): void {
    this.pending.set(folder, list);
  }

  /** Lists `folder` now, if it waits to be. */
  listed(folder: string): void {
    const list = this.pending.get(folder);
    if (!list) return;
    this.pending.delete(folder);
    list();
  }

  private listAll(): void {
    for (const folder of [...this.pending.keys()]) this.listed(folder);
  }

  override has(path: string): boolean {
    if (this.pending.size) {
      const cut = path.indexOf('/');
      // A name inside the folder, not the folder itself (the directory's own listing has that).
      if (cut > 0 && cut < path.length - 1) this.listed(path.slice(0, cut));
    }
    return super.has(path);
  }

  override get size(): number {
    this.listAll();
    return super.size;
  }

  override values(): SetIterator<string> {
    this.listAll();
    return super.values();
  }

  override keys(): SetIterator<string> {
    this.listAll();
    return super.keys();
  }

  override entries(): SetIterator<[string, string]> {
    this.listAll();
    return super.entries();
  }

  override forEach(callback: (value: string, key: string, set: Set<string>) => void, thisArg?: unknown): void {
    this.listAll();
    super.forEach(callback, thisArg);
  }

  override [Symbol.iterator](): SetIterator<string> {
    return this.values();
  }
}

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
  const reading = new SpecReading(repoRoot, dir, cache, options.maxFileBytes, options.summary ? 'none' : 'all');
  const state = reading.state();
  if (options.summary) {
    reading.commit();
    return summarySnapshot(reading, state);
  }
  reading.readAll();
  const requirementsFile = reading.requirements();
  const traceFile = reading.traceability();
  const analysis = reading.analysis();
  const convergence = reading.convergence();
  const lock = reading.files.has(RUN_LOCK_FILE) ? readRunLock(dir) : undefined;
  reading.commit();
  return {
    repoRoot,
    dir,
    specDir: reading.specDir,
    name: basename(dir),
    files: reading.files,
    state: state.value,
    stateCondition: state.condition,
    tasks: reading.tasks(),
    taskStates: reading.taskStates(),
    requirements: requirementsFile.value ? normalizeRequirements(requirementsFile.value) : undefined,
    requirementsCondition: requirementsFile.condition,
    traceability: traceFile.value ? normalizeTraceability(traceFile.value) : undefined,
    traceabilityCondition: traceFile.condition,
    handoffs: reading.handoffs(),
    reports: reading.reports(),
    artifactAnalysis: analysis.value,
    artifactAnalysisCondition: analysis.condition,
    convergenceReport: convergence.value,
    convergenceReportCondition: convergence.condition,
    lock,
    diagnostics: reading.diagnostics,
  };
}

/**
 * A spec read on demand, for `status`: its listing and pipeline.state.json now, every other group
 * of files the first time a field of it is read (a guard, the task list), and `readInputs` for the
 * files a check names. `diagnostics` lists the problems of the files read so far: a status tells
 * the problems of the files its answer needed, `validate` (loadSpec) those of every file. Task ids
 * come from the listing: the tasks are known without their files being read.
 */
export function readSpecOnDemand(repoRoot: string, dir: string): SpecSnapshot {
  const reading = new SpecReading(repoRoot, dir, undefined, undefined, 'needed');
  const state = reading.state();
  const requirements = () => reading.requirements();
  const traceability = () => reading.traceability();
  const normalized = new Map<Group, unknown>();
  const once = <T>(group: Group, make: () => T): T => (normalized.has(group) ? (normalized.get(group) as T) : (normalized.set(group, make()), normalized.get(group) as T));
  let lock: SpecSnapshot['lock'] | null = null;
  const snapshot: SpecSnapshot = {
    repoRoot,
    dir,
    specDir: reading.specDir,
    name: basename(dir),
    files: reading.files,
    state: state.value,
    stateCondition: state.condition,
    tasks: new ListedTasks(reading),
    get taskStates() {
      return reading.taskStates();
    },
    get requirements() {
      return once('requirements', () => (requirements().value ? normalizeRequirements(requirements().value!) : undefined));
    },
    get requirementsCondition() {
      return requirements().condition;
    },
    get traceability() {
      return once('traceability', () => (traceability().value ? normalizeTraceability(traceability().value!) : undefined));
    },
    get traceabilityCondition() {
      return traceability().condition;
    },
    get handoffs() {
      return reading.handoffs();
    },
    get reports() {
      return reading.reports();
    },
    get artifactAnalysis() {
      return reading.analysis().value;
    },
    get artifactAnalysisCondition() {
      return reading.analysis().condition;
    },
    get convergenceReport() {
      return reading.convergence().value;
    },
    get convergenceReportCondition() {
      return reading.convergence().condition;
    },
    get lock() {
      if (lock === null) lock = reading.files.has(RUN_LOCK_FILE) ? readRunLock(dir) : undefined;
      return lock;
    },
    get diagnostics() {
      return reading.diagnostics;
    },
    readInputs(paths: readonly string[]) {
      const groups = new Set<Group>();
      for (const p of paths) {
        const g = groupOf(p);
        if (g) groups.add(g);
      }
      reading.readGroups(groups);
    },
    readAll() {
      reading.readAll();
    },
  };
  return snapshot;
}

/**
 * The task files of a spec read on demand: their ids (and so their number and order) from the
 * listing, every file read the first time a task itself is asked for. A reader of the spec on
 * demand asks only what it needs: `status` lists the tasks without reading one.
 */
class ListedTasks implements ReadonlyMap<string, TaskFile> {
  constructor(private readonly reading: SpecReading) {}

  /**
   * Until the files are read, the names listed (a folder named like a task file aside); once read,
   * the tasks whose files could be read, as loadSpec has them. They differ only for a file the
   * listing shows and that cannot be opened (its permissions), which then is a task only until read.
   */
  private get ids(): readonly string[] {
    if (this.reading.has('tasks')) return (this.readIds ??= [...this.reading.tasks().keys()]);
    return (this.listedIds ??= this.reading
      .taskFileNames()
      .filter((name) => !this.reading.isFolder(`${TASKS_DIR}/${name}`))
      .map((name) => name.replace(/\.md$/i, '')));
  }

  private listedIds?: string[];
  private readIds?: string[];

  private get read(): Map<string, TaskFile> {
    return this.reading.tasks();
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    const ids = this.ids;
    // A Set of the ids they are now: `status` asks it of every task state (twenty a spec), and a search of the list each time was O(n²).
    if (this.idSet?.of !== ids) this.idSet = { of: ids, set: new Set(ids) };
    return this.idSet.set.has(id);
  }

  private idSet?: { of: readonly string[]; set: Set<string> };

  get(id: string): TaskFile | undefined {
    return this.has(id) ? this.read.get(id) : undefined;
  }

  keys(): MapIterator<string> {
    return this.ids[Symbol.iterator]() as MapIterator<string>;
  }

  values(): MapIterator<TaskFile> {
    return this.read.values();
  }

  entries(): MapIterator<[string, TaskFile]> {
    return this.read.entries();
  }

  forEach(callback: (value: TaskFile, key: string, map: ReadonlyMap<string, TaskFile>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.read) callback.call(thisArg, v, k, this);
  }

  [Symbol.iterator](): MapIterator<[string, TaskFile]> {
    return this.entries();
  }
}

/**
 * What a list row needs of a spec, read from its directory listing and pipeline.state.json only:
 * its name, stage and stage counts. Everything else is empty until the spec is read in full.
 */
function summarySnapshot(reading: SpecReading, state: Ledger<PipelineState>): SpecSnapshot {
  const none = 'missing' as const;
  return {
    repoRoot: reading.repoRoot,
    dir: reading.dir,
    specDir: reading.specDir,
    name: basename(reading.dir),
    files: reading.files,
    state: state.value,
    stateCondition: state.condition,
    tasks: new Map(),
    taskStates: new Map(),
    requirementsCondition: none,
    traceabilityCondition: none,
    handoffs: new Map(),
    reports: new Map(),
    artifactAnalysisCondition: none,
    convergenceReportCondition: none,
    diagnostics: reading.diagnostics,
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
