import type { Handoff } from '../files/handoff';
import { fingerprintDeclaredPaths, type FingerprintRoots } from './fingerprints';
import { roleOfName } from '../pipeline/stageRoles';

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
 * task's own file for `T<n>`, the tasks folder for the planning and executing handoffs, the test
 * report for verification's. loom keys on the handoff's name alone, without its step, so the
 * stage roles are found by that name (stageRoles.roleOfName).
 */
export function handoffBasisPaths(name: string): string[] {
  const basis = ['spec.md', 'plan.md'];
  const role = roleOfName(name);
  if (/^T\d+$/i.test(name)) basis.push(`tasks/${name}.md`);
  else if (role === 'planning' || role === 'tasks') basis.push('tasks/');
  if (role === 'verification') basis.push('test-report.md');
  return basis;
}

/** The artifacts of a handoff that loom fingerprints: not its bookkeeping, not the mutable ledgers (and nothing else left out). */
export const fingerprintedArtifacts = (artifacts: readonly string[]) => artifacts.filter((p) => !isBookkeeping(p) && !isMutableLedger(p));

/**
 * The handoff with `basis_fingerprints` and `artifact_fingerprints` as loom 3's writeHandoff
 * records them, so that loom and the extension call it stale for the same changes. Every
 * handoff the extension writes gets them here, through stateStore.writeHandoffFile.
 */
export function withLoomFingerprints(name: string, handoff: Handoff, roots: FingerprintRoots, options: HandoffPrints = {}): Handoff {
  const { basis_fingerprints: _basis, ...rest } = handoff;
  return {
    ...(options.basis === false ? rest : { ...rest, basis_fingerprints: fingerprintDeclaredPaths(handoffBasisPaths(name), roots) }),
    artifact_fingerprints: fingerprintDeclaredPaths(fingerprintedArtifacts(handoff.artifacts), roots),
  };
}

export interface HandoffPrints {
  /**
   * false: no `basis_fingerprints`, only the artifacts'. For the handoffs the executing loop
   * writes (its tasks' and the stage's): their basis (plan.md, tasks/) is what every convergence
   * round appends to by design, and the loop writes them again each round; with a basis they
   * would stop the way back to executing, in both tools, after every round.
   */
  basis?: boolean;
}

/**
 * The handoff with the fingerprints it already records taken again from the files as they are,
 * the same paths and nothing more: what `loom handoff write` does for a handoff whose facts a
 * later stage of the pipeline itself reworked (loom's hint for a stale handoff: refresh it).
 */
export function withRefreshedFingerprints(handoff: Handoff, roots: FingerprintRoots): Handoff {
  return {
    ...handoff,
    ...(handoff.basis_fingerprints ? { basis_fingerprints: fingerprintDeclaredPaths(Object.keys(handoff.basis_fingerprints), roots) } : {}),
    ...(handoff.artifact_fingerprints ? { artifact_fingerprints: fingerprintDeclaredPaths(Object.keys(handoff.artifact_fingerprints), roots) } : {}),
  };
}
