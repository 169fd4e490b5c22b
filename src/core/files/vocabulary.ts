/** Loom's fixed vocabularies: enums and tables that are part of its file formats. */

// Where loom keeps its files in a repository. Here, in a module that imports nothing, so that the
// extension's small entry (src/host/activatedWithWindow.ts) can use them without the parsers.
/** The folders spec directories are in. */
export const SPEC_ROOTS = ['specs', 'qa'] as const;
/** The repository's workflow, beside loom's pipeline schema. */
export const WORKFLOW_FILE = '.loom/workflow.yaml';
/** A spec directory's state file. */
export const PIPELINE_STATE_FILE = 'pipeline.state.json';
/** The reviewer's feedback the review gate waits for (code-review-response answers it). */
export const REVIEW_FEEDBACK_FILE = 'review-feedback.md';

export const BEHAVIOR_CATEGORIES = [
  'happy-path',
  'boundary',
  'invalid-input',
  'authorization',
  'state-transition',
  'idempotency',
  'concurrency',
  'atomicity',
  'external-failure',
  'compatibility',
  'security',
  'performance',
  'observability',
  'recovery',
  'forbidden-behavior',
] as const;
export type BehaviorCategory = (typeof BEHAVIOR_CATEGORIES)[number];

export const REQUIREMENT_STATUSES = ['failing', 'in_progress', 'candidate_implemented', 'passing', 'blocked', 'superseded'] as const;
export type RequirementStatus = (typeof REQUIREMENT_STATUSES)[number];

export const APPLICABILITY = ['applicable', 'not-applicable', 'requires-clarification'] as const;

export const TASK_STATUSES = ['pending', 'executing', 'reviewing', 'done', 'failed', 'blocked'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Icons progress.md puts before a task status. */
export const TASK_STATUS_ICONS: Readonly<Record<TaskStatus, string>> = {
  pending: '⏳',
  executing: '▶',
  reviewing: '🔍',
  done: '✅',
  failed: '❌',
  blocked: '🚫',
};

export const HISTORY_STATUSES = ['passed', 'failed', 'retry'] as const;
export const HANDOFF_STATUSES = ['done', 'partial', 'blocked', 'failed'] as const;
export const COMPLEXITIES = ['low', 'medium', 'high'] as const;

export const FAILED_STAGE = 'failed';

/** Requirement `types` imply required behavior categories. */
const TYPE_IMPLIES: ReadonlyMap<string, BehaviorCategory> = new Map<string, BehaviorCategory>([
  ['functional', 'happy-path'],
  ['input', 'invalid-input'],
  ['auth', 'authorization'],
  ['authorization', 'authorization'],
  ['write', 'atomicity'],
  ['mutation', 'atomicity'],
  ['state', 'state-transition'],
  ['idempotent', 'idempotency'],
  ['concurrent', 'concurrency'],
  ['external', 'external-failure'],
  ['security', 'security'],
  ['performance', 'performance'],
  ['observable', 'observability'],
  ['recovery', 'recovery'],
]);

export function categoriesImpliedBy(types: readonly string[]): BehaviorCategory[] {
  const out: BehaviorCategory[] = [];
  for (const t of types) {
    const c = TYPE_IMPLIES.get(t.trim().toLowerCase());
    if (c && !out.includes(c)) out.push(c);
  }
  return out;
}

export const TASK_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** A task file, matched without regard to case as loom's listTaskIds does (`t1.md`, `T2.MD`). */
export const TASK_FILE_PATTERN = /^T\d+\.md$/i;
export const REQUIREMENT_ID_PATTERN = /^REQ-\d{3,}$/;
export const BEHAVIOR_ID_PATTERN = /^REQ-\d{3,}-B\d{2,}$/;
