import { driftSummary, repositoryDrift } from '../../core/port/drift';
import type { SpecEntry } from '../specs/specRegistry';

/**
 * What `#loomStatus` says of a synced spec's drift: the core's answer (one git pass, for this spec
 * alone), with the phrase the tree shows. Nothing for a spec not synced, or outside git.
 */
export async function driftForModel(e: SpecEntry): Promise<{ drift?: Record<string, unknown> }> {
  try {
    const [d] = (await repositoryDrift(e.repository, { only: [e.spec] })).specs;
    if (!d || d.status === 'no-baseline') return {};
    return { drift: { status: d.status, summary: driftSummary(d), baseline: d.baseline, files: d.files, commits: d.commits, gone_tests: d.goneTests } };
  } catch {
    // No git to ask: the status is answered without it.
    return {};
  }
}
