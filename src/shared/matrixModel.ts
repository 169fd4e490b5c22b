/**
 * What the traceability-matrix webview shows: plain JSON, derived from the core's
 * TraceabilityMatrix by `src/core/views/matrixModel.ts` but decoupled from it, so the webview
 * never depends on the core's shapes. Paths are repository-relative with `/`.
 */

/** A link the user can follow; `path` is absent when there is nothing to open. */
export interface MatrixTaskRef {
  id: string;
  /** `specs/<spec>/tasks/TN.md`, when that file exists. */
  path?: string;
  exists: boolean;
}

export interface MatrixFileRef {
  /** The reference exactly as traceability.json writes it. */
  ref: string;
  /** The file found, repository-relative; absent when it does not exist (for `only-in-worktree`, the worktree's copy). */
  path?: string;
  /** The test named after `#` or `::`, for opening the file at that test. */
  testName?: string;
  exists: boolean;
  /**
   * Why a ref does not count: no such file, evidence outside the spec's `evidence/`, or a test
   * only the feature worktree has (loom looks in the spec directory and the repository root).
   */
  reason?: 'missing' | 'outside-evidence' | 'only-in-worktree';
  /** With `only-in-worktree`: the ref as loom would find it, through the worktree. */
  recordAs?: string;
}

/** What keeps a behavior from being closed; each is highlighted in its cell. */
export type MatrixGap = 'no-task' | 'unknown-task' | 'no-test' | 'missing-test' | 'no-evidence' | 'missing-evidence';

export interface MatrixRow {
  requirement: string;
  behavior: string;
  category: string;
  status: string;
  description: string;
  applicability?: string;
  tasks: MatrixTaskRef[];
  tests: MatrixFileRef[];
  evidence: MatrixFileRef[];
  closed: boolean;
  gaps: MatrixGap[];
  /** Where the behavior is declared, for opening requirements.json at it. */
  source: { path: string; line?: number };
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
  orphans: MatrixOrphans;
  summary: { behaviors: number; closed: number };
  /** Every value the filters offer, in a stable order. */
  vocabulary: { categories: string[]; statuses: string[]; tasks: string[] };
}
