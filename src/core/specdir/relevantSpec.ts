import type { SpecOverview } from './specOverview';

/** What the choice reads of a spec: its directory and its overview. */
export interface RelevantCandidate {
  dir: string;
  overview: Pick<SpecOverview, 'group' | 'updatedAt'>;
}

/**
 * The spec worth showing when nothing points at one (no spec file in the editor, nothing selected):
 * the one in progress, or of several the one whose state changed last. A failed, done or unreadable
 * spec is not where work goes on; ties keep the list's order.
 */
export function mostRelevantSpec<T extends RelevantCandidate>(specs: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const s of specs) {
    if (s.overview.group !== 'in-progress') continue;
    if (!best || (s.overview.updatedAt ?? '') > (best.overview.updatedAt ?? '')) best = s;
  }
  return best;
}
