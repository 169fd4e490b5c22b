import type { Handoff } from '../files/handoff';
import { fingerprintDeclaredPaths, isReviewComments, type FingerprintRoots } from './fingerprints';

/**
 * The ledgers a stage rewrites as it goes (loom 3 state-store.js MUTABLE_LEDGER_ARTIFACTS):
 * traceability.json, artifact-analysis.json, convergence-report.json and findings/. `run
 * --advance` at converge rewrites convergence-report.json itself, so a handoff fingerprinting it
 * would be stale the moment it is checked. Loom leaves them out when a handoff is written.
 */
const MUTABLE_LEDGERS = new Set(['traceability.json', 'artifact-analysis.json', 'convergence-report.json', 'findings']);

const normalized = (path: string) => path.replace(/\\/g, '/').replace(/\/$/, '');

export const isMutableLedger = (path: string) => MUTABLE_LEDGERS.has(normalized(path)) || normalized(path).startsWith('findings/');

/** Loom's own bookkeeping, never an artifact of a handoff (writeHandoff's filter). */
const isBookkeeping = (path: string) => /^(?:handoffs|task-states)\/|^(?:progress\.md|pipeline\.state\.json)$/.test(path);

/**
 * What loom 3's writeHandoff fingerprints besides the artifacts: spec.md and plan.md always, a
 * task's own file for `T<n>`, the tasks folder for planning and executing, the test report for
 * verification.
 */
export function handoffBasisPaths(name: string): string[] {
  const basis = ['spec.md', 'plan.md'];
  if (/^T\d+$/i.test(name)) basis.push(`tasks/${name}.md`);
  else if (name === 'planning' || name === 'executing') basis.push('tasks/');
  if (name === 'verification') basis.push('test-report.md');
  return basis;
}

/** The artifacts of a handoff that loom fingerprints: not its bookkeeping, not the mutable ledgers. */
export const fingerprintedArtifacts = (artifacts: readonly string[]) => artifacts.filter((p) => !isBookkeeping(p) && !isMutableLedger(p) && !isReviewComments(p));

/**
 * The handoff with `basis_fingerprints` and `artifact_fingerprints` as loom 3's writeHandoff
 * records them, so that loom and the extension call it stale for the same changes.
 */
export function withLoomFingerprints(name: string, handoff: Handoff, roots: FingerprintRoots): Handoff {
  return {
    ...handoff,
    basis_fingerprints: fingerprintDeclaredPaths(handoffBasisPaths(name), roots),
    artifact_fingerprints: fingerprintDeclaredPaths(fingerprintedArtifacts(handoff.artifacts), roots),
  };
}
