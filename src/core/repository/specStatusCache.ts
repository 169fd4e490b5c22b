import { join } from 'node:path';
import { WORKFLOW_FILE } from '../files/workflow';
import { WORKSPACE_SETTINGS_FILE } from '../pipeline/teamRules';
import { displayLanguage } from '../messages';
import { extraInputsAt, type EvaluationCache } from '../specdir/evaluationCache';
import { findSpecDirs } from '../specdir/loadSpec';
import { RUN_LOCK_FILE } from '../store/runLock';
import type { LoomRepository } from './loomRepository';
import type { SpecStatus, StatusDetail } from './specPipeline';

/**
 * One spec's status, read afresh and on demand (readOnDemand): the files its answer needs and no
 * other. A spec with a run lock depends on more than files: whether its holder is alive.
 */
export function specStatus(repository: LoomRepository, dir: string, detail: StatusDetail, dependsOnMore: () => void = () => undefined): SpecStatus {
  const spec = repository.readOnDemand(dir);
  try {
    if (spec.snapshot.files.has(RUN_LOCK_FILE)) dependsOnMore();
    return spec.status(detail);
  } finally {
    spec.dispose();
  }
}

/**
 * Every spec's status (`loom-vscode status`), one after the other on this thread, each kept in
 * `statuses` with everything it read and used again while that is unchanged, in the same display
 * language and detail (its unmet conditions are sentences): an unchanged spec costs the stat of
 * the files its answer read, not their reading. In the order of the spec directories.
 */
export function scanStatuses(repository: LoomRepository, statuses: EvaluationCache<SpecStatus> | undefined, detail: StatusDetail = 'summary'): SpecStatus[] {
  const context = `${displayLanguage()}:${detail}`;
  // Read once for every spec: the workflow, and the team's rules the guards apply; stat-ed once too.
  const extraInputs = extraInputsAt([join(repository.root, WORKFLOW_FILE), join(repository.root, WORKSPACE_SETTINGS_FILE)]);
  return findSpecDirs(repository.root, repository.specRoots).map((dir) =>
    statuses ? statuses.get(dir, context, (dependsOnMore) => specStatus(repository, dir, detail, dependsOnMore), extraInputs) : specStatus(repository, dir, detail),
  );
}
