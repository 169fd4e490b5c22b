/**
 * The `@loom` chat commands, one per interactive stage that produces files, as data: the stage
 * whose files the command drafts, what it may write (spec-relative), and what the model reads.
 * The files are loom's stage outputs (pipeline.schema.json `outputs`); the stage handoff is
 * written by the extension itself when the user accepts, never drafted by the model.
 */
export const AUTHORING_COMMANDS = ['brainstorm', 'expand', 'plan', 'review', 'respond'] as const;
export type AuthoringCommandName = (typeof AUTHORING_COMMANDS)[number];

/** The drafting commands: one per stage, /refine, which answers comment threads on any of their files, and /reconcile, which amends a synced spec to its code (src/core/drift/reconcile.ts). */
export type DraftingCommandName = AuthoringCommandName | 'refine' | 'reconcile';

export interface AuthoringCommand<N extends DraftingCommandName = DraftingCommandName> {
  name: N;
  /** The stage whose outputs the command drafts; its exit preconditions check the drafts. */
  stage: string;
  /** Spec-relative paths the model may write. */
  writes: readonly RegExp[];
  /** How `writes` reads in a prompt. */
  writesText: string;
  /** The paths as an unmet precondition names them (a folder with its `/`). */
  outputs: readonly string[];
  /** Spec-relative files the model is shown (a trailing `/` is every file of the folder). */
  reads: readonly string[];
  /** The diff of the feature worktree is part of the prompt. */
  diff?: boolean;
  /**
   * Writing the drafts records the stage's handoff; false for /refine, which corrects files of
   * stages already handed off and must not pretend a stage was done again.
   */
  handoff?: boolean;
}

const exact = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

export const AUTHORING: { readonly [N in AuthoringCommandName]: AuthoringCommand<N> } = {
  brainstorm: {
    name: 'brainstorm',
    stage: 'brainstorming',
    writes: [exact('spec.md'), exact('requirements.json')],
    writesText: 'spec.md, requirements.json',
    outputs: ['spec.md', 'requirements.json'],
    reads: ['spec.md', 'requirements.json'],
  },
  expand: {
    name: 'expand',
    stage: 'detail-expansion',
    writes: [exact('requirements.json')],
    writesText: 'requirements.json',
    outputs: ['requirements.json'],
    reads: ['spec.md', 'requirements.json'],
  },
  plan: {
    name: 'plan',
    stage: 'planning',
    writes: [exact('plan.md'), /^tasks\/T[1-9]\d*\.md$/, exact('traceability.json')],
    writesText: 'plan.md, tasks/T1.md … tasks/TN.md, traceability.json',
    outputs: ['plan.md', 'tasks/', 'traceability.json'],
    reads: ['spec.md', 'requirements.json', 'plan.md', 'tasks/', 'traceability.json'],
  },
  review: {
    name: 'review',
    stage: 'code-review-request',
    writes: [exact('review-request.md')],
    writesText: 'review-request.md',
    outputs: ['review-request.md'],
    reads: ['spec.md', 'requirements.json', 'verify-report.md', 'test-report.md', 'review-request.md'],
    diff: true,
  },
  respond: {
    name: 'respond',
    stage: 'code-review-response',
    writes: [exact('review-response.md')],
    writesText: 'review-response.md',
    outputs: ['review-response.md'],
    reads: ['spec.md', 'review-request.md', 'review-feedback.md', 'review-response.md'],
    diff: true,
  },
};

export const isAuthoringCommand = (name: string | undefined): name is AuthoringCommandName => name !== undefined && (AUTHORING_COMMANDS as readonly string[]).includes(name);

/** The command that drafts a stage's files, if any. */
export const commandForStage = (stage: string | undefined): AuthoringCommand<AuthoringCommandName> | undefined => Object.values(AUTHORING).find((c) => c.stage === stage);

/** Whether the command may write this spec-relative path (no `..`, no absolute path). */
export function mayWrite(command: AuthoringCommand, path: string): boolean {
  if (!path || path.startsWith('/') || /^[a-z]:/i.test(path) || path.split('/').includes('..')) return false;
  return command.writes.some((re) => re.test(path));
}
