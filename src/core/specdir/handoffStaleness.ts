import { specRelative } from '../fs/paths';
import { changedFingerprints, isReviewComments, isTraceabilityLedger } from './fingerprints';
import type { SpecSnapshot } from './specSnapshot';
import { findWorktree } from './worktree';

export interface StaleHandoff {
  handoff: string;
  /** Files whose fingerprint no longer matches, or that no longer exist. */
  changed: string[];
}

/** What converge appends to when it sends the spec back to executing: tasks/TN.md and plan.md (and traceability.json, never checked). */
const CONVERGE_APPENDS = new Set(['plan.md', 'tasks']);

/** When (ms) the spec last went back from converge to executing, NaN when the entry has no time; undefined when it never did. */
function reopenedAt(s: SpecSnapshot): number | undefined {
  const history = s.state?.stage_history ?? [];
  for (let i = history.length - 1; i >= 0; i--) {
    if (history[i].stage === 'converge' && history[i].status === 'retry') return Date.parse(history[i].exited_at ?? '');
  }
  return undefined;
}

/**
 * A handoff whose recorded fingerprints no longer match the files is stale, exactly as loom's
 * `findStaleHandoffs` sees it: spec files (spec.md, tasks/ ...) resolve in the spec directory,
 * every other path from the repository root (or the feature worktree, where the executing stage
 * wrote it), and a folder's fingerprint covers its whole tree.
 *
 * A convergence round re-opens the plan, as it does for approvals: converge appends tasks to
 * tasks/ and plan.md by design, so a handoff written before the spec went back from converge is
 * not stale for those two; every other file it recorded still counts.
 */
export function staleHandoffs(s: SpecSnapshot): StaleHandoff[] {
  const out: StaleHandoff[] = [];
  // Task handoffs record their artifacts relative to the feature worktree.
  const roots = { dir: s.dir, repoRoot: s.repoRoot, worktree: findWorktree(s) };
  const reopened = reopenedAt(s);
  for (const [name, handoff] of s.handoffs) {
    // A handoff without a readable written_at counts as written before the round.
    const beforeRound = reopened !== undefined && !(Date.parse(handoff.written_at ?? '') >= reopened);
    const checked = (path: string) => !isTraceabilityLedger(path) && !isReviewComments(path) && !(beforeRound && CONVERGE_APPENDS.has(specRelative(path).replace(/\/+$/, '')));
    // Basis and artifact fingerprints are compared separately, as loom does: one path may be in both.
    const changed = [
      ...new Set(
        [handoff.basis_fingerprints, handoff.artifact_fingerprints].flatMap((prints) => changedFingerprints(Object.fromEntries(Object.entries(prints ?? {}).filter(([path]) => checked(path))), roots)),
      ),
    ];
    if (changed.length) out.push({ handoff: `handoffs/${name}.json`, changed });
  }
  return out;
}
