import { join } from 'node:path';
import { PIPELINE_STATE_FILE, plainPipelineState } from '../files/pipelineState';
import { readOptionalText } from '../fs/readOptional';
import { repoRelative } from '../fs/paths';
import { findSpecDirs } from '../specdir/loadSpec';
import type { LoomRepository } from '../repository/loomRepository';
import type { SpecPipeline } from '../repository/specPipeline';
import { stageWithRole } from '../pipeline/stageRoles';
import { recordedBaseline } from './baseline';
import { driftSubjectOf } from './driftSubjects';
import { repositoryFacts, scanDrift, type DriftReport, type DriftSubject, type RepositoryFacts, type SpecDrift } from './driftScan';
import { readSpokenFiles } from './specFiles';

/** Whether a spec is at the stage of its pipeline that syncs (read from its state file alone). */
const isSynced = (spec: SpecPipeline) => {
  const sync = stageWithRole(spec.definition, 'sync');
  return sync !== undefined && spec.stage === sync.id;
};

/**
 * A spec as drift's first pass reads it: its state file alone, which says whether it is synced
 * and from which commit (so git's log can start before any spec is read in full); its files are
 * read later, while the log runs. A state file that is not plainly in loom's shape (corrupt, a
 * `__proto__` key, a shape only the schema decides), or no state at all, is read in full here, as
 * the editor reads it, so the answer is the same either way. Undefined: not synced.
 */
function subjectOf(repo: LoomRepository, dir: string, noteUnreadable: (spec: SpecPipeline) => void): DriftSubject | undefined {
  const text = readOptionalText(join(dir, PIPELINE_STATE_FILE));
  let state: ReturnType<ReturnType<typeof plainPipelineState>>;
  try {
    state = text !== undefined && !text.includes('"__proto__"') ? plainPipelineState()(JSON.parse(text)) : undefined;
  } catch {
    state = undefined;
  }
  if (!state) {
    const spec = repo.readOnDemand(dir);
    noteUnreadable(spec);
    return isSynced(spec) ? driftSubjectOf(spec) : undefined;
  }
  const definition = repo.definitionForState(state, dir);
  const sync = stageWithRole(definition, 'sync');
  if (definition.problems?.length || !sync || state.current_stage !== sync.id) return undefined;
  const recorded = recordedBaseline(state);
  return {
    specDir: repoRelative(repo.root, dir),
    synced: true,
    syncStage: sync.id,
    ...(recorded ? { recorded } : {}),
    files: () => readSpokenFiles(repo.root, dir),
  };
}

/**
 * The drift of the repository's synced specs (or of `only`), in one git pass: what the CLI, MCP
 * and the editor's read model answer. Without `only`, each spec's state file is read first and
 * only a synced spec's tasks and traceability are read (they name its files), while git's log runs.
 */
export async function repositoryDrift(repo: LoomRepository, options: { only?: readonly SpecPipeline[]; signal?: AbortSignal } = {}): Promise<DriftReport> {
  // A state file that cannot be read may be a synced spec's: said, never taken for "not synced".
  const unreadable: SpecDrift[] = [];
  const noteUnreadable = (s: SpecPipeline) => {
    if (s.snapshot.stateCondition === 'invalid') unreadable.push({ specDir: s.snapshot.specDir, status: 'unreadable', files: [], commits: [], goneTests: [] });
  };
  let subjects: DriftSubject[];
  let facts: Promise<RepositoryFacts> | undefined;
  if (options.only) {
    options.only.forEach(noteUnreadable);
    subjects = options.only.filter(isSynced).map(driftSubjectOf);
  } else {
    // HEAD, and whether the clone is shallow, are asked of git at once, while the state files are read.
    facts = repositoryFacts(repo.root, options.signal);
    facts.catch(() => undefined);
    subjects = findSpecDirs(repo.root, repo.specRoots)
      .map((dir) => subjectOf(repo, dir, noteUnreadable))
      .filter((s): s is DriftSubject => s !== undefined);
  }
  const report = await scanDrift(repo.root, subjects, { signal: options.signal, facts });
  return unreadable.length ? { ...report, specs: [...report.specs, ...unreadable] } : report;
}
