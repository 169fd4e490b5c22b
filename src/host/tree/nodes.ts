import type { SpecGroup } from '../../core/port/views';

/** The rows of the Loom tree: group → spec → stage → task / artifact, plus notes and a spec's Tasks shortcut. */
export type LoomNode = GroupNode | SpecNode | StageNode | TaskNode | ArtifactNode | NoteNode | TasksNode;

export interface GroupNode {
  kind: 'group';
  group: SpecGroup;
}

export interface SpecNode {
  kind: 'spec';
  /** Absolute spec directory. */
  dir: string;
}

export interface StageNode {
  kind: 'stage';
  dir: string;
  stage: string;
}

/** The spec's tasks one click from its row, while it is at the stage that runs them (or its stage is unknown). */
export interface TasksNode {
  kind: 'tasks';
  dir: string;
}

export interface TaskNode {
  kind: 'task';
  dir: string;
  task: string;
}

export interface ArtifactNode {
  kind: 'artifact';
  dir: string;
  stage: string;
  /** Spec-relative path; folders end in `/`. */
  path: string;
}

/** A line of text under a spec: a corrupt state file, a stale approval, an empty filter result. */
export interface NoteNode {
  kind: 'note';
  id: string;
  dir?: string;
  label: string;
  tooltip?: string;
  /** Spec-relative file opened on click. */
  file?: string;
  /** 1-based line of `file` the click goes to (where a corrupt file stops parsing). */
  line?: number;
  column?: number;
  severity: 'info' | 'warning' | 'error';
  /** The stage whose approval went stale: the note offers to approve it again. */
  staleApproval?: string;
}

/** Whatever a command got from the tree: the spec directory it is about, if any. */
export function specDirOfNode(node: unknown): string | undefined {
  if (!node || typeof node !== 'object' || !('kind' in node)) return undefined;
  const n = node as LoomNode;
  return n.kind === 'group' ? undefined : n.dir;
}

export const isLoomNode = (v: unknown): v is LoomNode =>
  !!v && typeof v === 'object' && 'kind' in v && ['group', 'spec', 'stage', 'task', 'artifact', 'note', 'tasks'].includes(String((v as { kind: unknown }).kind));
