/**
 * What the traceability-matrix webview shows: plain JSON, derived from the core's
 * TraceabilityMatrix by `src/core/views/matrixModel.ts` but decoupled from it, so the webview
 * never depends on the core's shapes. Paths are repository-relative with `/`.
 */
import { splitTestRef } from './testRef';

/**
 * A test or evidence reference of traceability.json, as the matrix links it. What the page can
 * work out is not sent: whether it counts (it does unless there is a `reason`) and the test named
 * after `#` or `::` (`matrixTestName`).
 */
export interface MatrixFileRef {
  /** The reference exactly as traceability.json writes it. */
  ref: string;
  /**
   * The file found, as an index into `MatrixModel.paths`; absent when there is none (for
   * `only-in-worktree`, the worktree's copy).
   */
  path?: number;
  /**
   * Why a ref does not count: no such file, evidence outside the spec's `evidence/`, or a test
   * only the feature worktree has (loom looks in the spec directory and the repository root).
   * Absent when the ref counts.
   */
  reason?: 'missing' | 'outside-evidence' | 'only-in-worktree';
  /** With `only-in-worktree`: the ref as loom would find it, through the worktree. */
  recordAs?: string;
}

/** What keeps a behavior from being closed; each is highlighted in its cell. */
export type MatrixGap = 'no-task' | 'unknown-task' | 'no-test' | 'missing-test' | 'no-evidence' | 'missing-evidence';

/**
 * One behavior. A ledger has thousands, so a row carries only what is its own: the files it
 * links are named once for the whole model (`paths`, `taskFiles`, `requirementsPath`).
 */
export interface MatrixRow {
  requirement: string;
  behavior: string;
  category: string;
  status: string;
  description: string;
  applicability?: string;
  /** Task ids; `MatrixModel.taskFiles` has the file of each task that has one. */
  tasks: string[];
  tests: MatrixFileRef[];
  evidence: MatrixFileRef[];
  closed: boolean;
  gaps: MatrixGap[];
  /** The line of `MatrixModel.requirementsPath` where the behavior is declared, when it was found. */
  line?: number;
}

export interface MatrixRequirement {
  id: string;
  requiredCategories: string[];
  coveredCategories: string[];
  /** Required categories with no behavior at all: shown on the requirement's header. */
  missingCategories: string[];
  behaviors: number;
  closed: number;
}

export interface MatrixOrphans {
  taskBehaviorsUnknown: { task: string; behavior: string }[];
  traceBehaviorsUnknown: { requirement: string; behavior: string }[];
  traceRequirementsUnknown: string[];
  behaviorsWithoutTask: string[];
  traceTasksUnknown: { requirement: string; behavior: string | null; task: string }[];
}

export interface MatrixModel {
  kind: 'matrix';
  specDir: string;
  specName: string;
  /** Why there are no rows, when there are none (e.g. requirements.json is missing). */
  notice?: string;
  requirements: MatrixRequirement[];
  rows: MatrixRow[];
  /** `specs/<spec>/requirements.json`, where each row's behavior is declared. */
  requirementsPath: string;
  /** Each task's file (`specs/<spec>/tasks/TN.md`), for the tasks that have one. */
  taskFiles: Record<string, string>;
  /** The files the rows' tests and evidence link, each once. */
  paths: string[];
  orphans: MatrixOrphans;
  summary: { behaviors: number; closed: number };
  /** Every value the filters offer, in a stable order. */
  vocabulary: { categories: string[]; statuses: string[]; tasks: string[] };
}

/** What the rows' links are resolved against. */
export type MatrixLinks = Pick<MatrixModel, 'requirementsPath' | 'taskFiles' | 'paths'>;

/** The reference counts: its file was found where loom looks for it (evidence inside `evidence/`). */
export const refExists = (ref: MatrixFileRef): boolean => ref.reason === undefined;

/** The repository-relative file of a reference, if one was found. */
export const refPath = (model: Pick<MatrixModel, 'paths'>, ref: MatrixFileRef): string | undefined => (ref.path === undefined ? undefined : model.paths[ref.path]);

/** A task's file, if it has one (ids come from files: no prototype lookups). */
export const taskFile = (model: Pick<MatrixModel, 'taskFiles'>, id: string): string | undefined => (Object.hasOwn(model.taskFiles, id) ? model.taskFiles[id] : undefined);

/** The test a test ref names after `#` or `::`, for opening its file at that test. */
export const matrixTestName = (ref: MatrixFileRef): string | undefined => splitTestRef(ref.ref).name;
