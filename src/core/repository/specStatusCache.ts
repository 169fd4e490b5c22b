import { RUN_LOCK_FILE } from '../store/runLock';
import type { EvaluationCache } from '../specdir/evaluationCache';
import type { LoomRepository } from './loomRepository';
import type { SpecStatus } from './specPipeline';

/**
 * Every spec's status (`loom-vscode status`), each kept in `statuses` with everything it read and
 * used again while that is unchanged, in the same display language (its unmet conditions are
 * sentences): an unchanged spec costs the stat of its files, not their parsing and its guards.
 * A spec with a run lock is evaluated each time: whether its holder is alive is not in a file.
 */
export function scanStatuses(repository: LoomRepository, statuses: EvaluationCache<SpecStatus> | undefined, language: string): SpecStatus[] {
  return repository.scanReusing(statuses, language, (spec, dependsOnMore) => {
    if (spec.snapshot.files.has(RUN_LOCK_FILE)) dependsOnMore();
    return spec.status();
  });
}
