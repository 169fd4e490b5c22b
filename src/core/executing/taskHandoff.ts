import { join } from 'node:path';
import type { Handoff } from '../files/handoff';
import { normalizeTaskRef } from '../files/taskFile';
import { sha256OfFile } from '../fs/sha256';
import { writeHandoffFile } from '../store/stateStore';
import { byTaskNumber } from '../specdir/loadSpec';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import type { ExportedInterface } from './dispatch/implementerReport';
import { isFile } from '../fs/isFile';
import { t, type Language } from '../messages';

/**
 * `handoffs/TN.json`: what a finished task hands to the tasks after it. Artifacts are
 * repository-relative paths (the same in the feature worktree). Two sets of digests: loom's
 * `artifact_fingerprints`, taken by loom's rule from the repository that holds the spec (so loom
 * and the extension call the handoff stale for the same changes, wherever the worktree is), and
 * the extension's own `worktree_fingerprints` of the files in the feature worktree, which loom
 * ignores, and by which downstream tasks see that an upstream artifact changed: they get the
 * handoffs of the tasks they depend on as a compact index, refreshed first when stale.
 */
export interface TaskHandoffInput {
  task: string;
  summary: string;
  artifacts: readonly string[];
  exportedInterfaces: readonly ExportedInterface[];
  requirements: readonly string[];
  concerns: string;
  worktree: string;
  now: string;
}

export function fingerprints(worktree: string, paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of paths) {
    const abs = join(worktree, p);
    if (!isFile(abs)) continue;
    const sha = sha256OfFile(abs);
    if (sha) out[p] = sha;
  }
  return out;
}

export function buildTaskHandoff(input: TaskHandoffInput): Handoff {
  const artifacts = [...new Set(input.artifacts)].filter((p) => isFile(join(input.worktree, p))).sort();
  // An interface counts only where the task really wrote something.
  const exported = input.exportedInterfaces.filter((i) => artifacts.includes(i.path));
  return {
    task_id: input.task,
    status: 'done',
    summary: input.summary.trim() || `${input.task} passed review`,
    artifacts,
    exported_interfaces: exported.map((i) => ({ name: i.name, path: i.path, ...(i.signature ? { signature: i.signature } : {}) })),
    breaking_changes: [],
    requirements_verified: [...input.requirements],
    ...(input.concerns.trim() ? { notes: input.concerns.trim() } : {}),
    written_at: input.now,
    worktree_fingerprints: fingerprints(input.worktree, artifacts),
  };
}

/**
 * Writes a handoff of the executing stage with loom's `artifact_fingerprints`, taken as loom
 * takes them (stateStore.writeHandoffFile), and no basis: a convergence round appends to plan.md
 * and tasks/ by design, and the loop writes these again in the next round (HandoffPrints).
 */
export function writeHandoff(snapshot: SpecSnapshot, name: string, handoff: Handoff): void {
  writeHandoffFile(snapshot, name, handoff, { basis: false });
}

/** The extension's digests of the worktree files; older handoffs kept them in artifact_fingerprints. */
const worktreePrints = (handoff: Handoff): Record<string, unknown> => {
  const own = handoff.worktree_fingerprints;
  return own && typeof own === 'object' ? (own as Record<string, unknown>) : (handoff.artifact_fingerprints ?? {});
};

/** The tasks `task` depends on, directly or not, in task order. */
export function upstreamTasks(task: string, tasks: ReadonlyMap<string, { depends_on: readonly string[] }>): string[] {
  const out = new Set<string>();
  const queue = [...(tasks.get(task)?.depends_on ?? []).map(normalizeTaskRef)];
  while (queue.length) {
    const id = queue.shift()!;
    if (id === task || out.has(id)) continue;
    out.add(id);
    queue.push(...(tasks.get(id)?.depends_on ?? []).map(normalizeTaskRef));
  }
  return [...out].sort(byTaskNumber);
}

/** Fingerprinted files that changed or disappeared, judged against the worktree. */
export function staleArtifacts(handoff: Handoff, worktree: string): string[] {
  const changed: string[] = [];
  for (const [path, sha] of Object.entries(worktreePrints(handoff))) {
    const abs = join(worktree, path);
    if (!isFile(abs) || sha256OfFile(abs) !== String(sha).toLowerCase()) changed.push(path);
  }
  return changed;
}

/** The handoff with fingerprints of the files as they are now; gone files leave its artifacts. */
export function refreshHandoff(handoff: Handoff, worktree: string, changed: readonly string[], now: string): Handoff {
  const artifacts = handoff.artifacts.filter((p) => isFile(join(worktree, p)));
  const note = `refreshed ${now}: ${changed.join(', ')} changed after the task finished`;
  const notes = handoff.notes === undefined ? note : Array.isArray(handoff.notes) ? [...handoff.notes, note] : `${handoff.notes}\n${note}`;
  return { ...handoff, artifacts, worktree_fingerprints: fingerprints(worktree, artifacts), notes, refreshed_at: now };
}

export interface UpstreamEntry {
  task: string;
  handoff?: Handoff;
  /** Files that had changed since the handoff was written (it has been refreshed). */
  changed: string[];
}

/** loom: "下游 task 的 subagent 派发前必须读取上游 handoff 作为紧凑索引，并按 artifacts 定向核对当前源码". */
export function compactHandoffIndex(entries: readonly UpstreamEntry[], lang: Language): string {
  const lines: string[] = [];
  for (const e of entries) {
    if (!e.handoff) {
      lines.push(t('handoffIndex.none', { task: e.task }, lang));
      continue;
    }
    const h = e.handoff;
    const summary = (h.summary ?? '-').replace(/\s+/g, ' ').slice(0, 240);
    lines.push(`- ${e.task} (${h.status}): ${summary}`);
    if (h.artifacts.length) lines.push(`  ${t('handoffIndex.artifacts', { files: `${h.artifacts.slice(0, 12).join(', ')}${h.artifacts.length > 12 ? ', …' : ''}` }, lang)}`);
    for (const i of (h.exported_interfaces ?? []).slice(0, 8)) lines.push(`  ${t('handoffIndex.exports', { name: i.name, path: i.path, signature: i.signature ? ` ${i.signature}` : '' }, lang)}`);
    if (e.changed.length) lines.push(`  ${t('handoffIndex.changed', { files: e.changed.join(', ') }, lang)}`);
  }
  return lines.join('\n');
}
