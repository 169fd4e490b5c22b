import { findSpecDirs } from '../specdir/loadSpec';
import type { LoomRepository } from '../repository/loomRepository';
import type { SpecPipeline } from '../repository/specPipeline';
import { stageWithRole } from '../pipeline/stageRoles';
import { driftSubjectOf } from './driftSubjects';
import { repositoryFacts, scanDrift, type DriftReport, type SpecDrift } from './driftScan';

/** Whether a spec is at the stage of its pipeline that syncs (read from its state file alone). */
const isSynced = (spec: SpecPipeline) => {
  const sync = stageWithRole(spec.definition, 'sync');
  return sync !== undefined && spec.stage === sync.id;
};

/**
 * The drift of the repository's synced specs (or of `only`), in one git pass: what the CLI, MCP
 * and the editor's read model answer. Without `only`, each spec's state file is read first and
 * only a synced spec's tasks and traceability are read (they name its files), while git's log runs.
 */
export async function repositoryDrift(repo: LoomRepository, options: { only?: readonly SpecPipeline[]; signal?: AbortSignal } = {}): Promise<DriftReport> {
  // git's facts are asked first: git answers while the specs' states are read.
  const facts = repositoryFacts(repo.root, options.signal);
  facts.catch(() => undefined);
  const all = options.only ?? findSpecDirs(repo.root, repo.specRoots).map((dir) => repo.readOnDemand(dir));
  const report = await scanDrift(repo.root, all.filter(isSynced).map(driftSubjectOf), { signal: options.signal, facts });
  // A state file that cannot be read may be a synced spec's: said, never taken for "not synced".
  const unreadable = all.filter((s) => s.snapshot.stateCondition === 'invalid');
  return unreadable.length
    ? { ...report, specs: [...report.specs, ...unreadable.map((s): SpecDrift => ({ specDir: s.snapshot.specDir, status: 'unreadable', files: [], commits: [], goneTests: [] }))] }
    : report;
}
