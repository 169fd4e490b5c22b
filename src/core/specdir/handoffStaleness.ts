import { changedFingerprints } from './fingerprints';
import type { SpecSnapshot } from './specSnapshot';

export interface StaleHandoff {
  handoff: string;
  /** Files whose fingerprint no longer matches, or that no longer exist. */
  changed: string[];
}

/**
 * A handoff whose recorded fingerprints no longer match the files is stale, exactly as loom 3's
 * `findStaleHandoffs` sees it: every path it recorded counts (what to leave out is decided when it
 * is written, handoffFingerprints.ts), spec files (spec.md, tasks/ ...) resolve in the spec
 * directory, every other path from the repository that holds the spec (never a feature
 * worktree, fingerprints.ts), and a folder's fingerprint covers its whole tree. A convergence
 * round appending to plan.md and tasks/ makes the planning handoff stale for loom, so it does here.
 */
export function staleHandoffs(s: SpecSnapshot): StaleHandoff[] {
  const out: StaleHandoff[] = [];
  const roots = { dir: s.dir, repoRoot: s.repoRoot };
  for (const [name, handoff] of s.handoffs) {
    // Basis and artifact fingerprints are compared separately, as loom does: one path may be in both.
    const changed = [...new Set([handoff.basis_fingerprints, handoff.artifact_fingerprints].flatMap((prints) => changedFingerprints(prints ?? {}, roots)))];
    if (changed.length) out.push({ handoff: `handoffs/${name}.json`, changed });
  }
  return out;
}
