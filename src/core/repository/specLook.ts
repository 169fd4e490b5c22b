import { join } from 'node:path';
import { WORKFLOW_FILE } from '../files/workflow';
import type { Language } from '../messages';
import type { EvaluationCache } from '../specdir/evaluationCache';
import { WORKSPACE_SETTINGS_FILE } from '../pipeline/teamRules';
import { specStaleness } from '../specdir/staleness';
import { RUN_LOCK_FILE } from '../store/runLock';
import type { LoomRepository } from './loomRepository';
import { evaluateSpec, type SpecEvaluation } from './specEvaluation';

/** A part of a look that failed (a validator's bug, say): reported, and left out of the result. */
export type LookFailure = (specDir: string, part: 'diagnostics' | 'validators', error: unknown) => void;

/**
 * One look at a spec that is not kept in full: its evaluation from the evaluation cache when
 * nothing it read has changed, else the spec read in full (through the parse cache), evaluated
 * and let go again. The same in the extension host's thread and in the look's worker.
 */
export function lookAtSpec(
  repository: LoomRepository,
  dir: string,
  language: Language,
  evaluations: EvaluationCache<SpecEvaluation> | undefined,
  failed: LookFailure,
  /** A reader with a small heap: SpecFileTooLargeError rather than parse a larger file. */
  options: { maxFileBytes?: number } = {},
): SpecEvaluation {
  const evaluate = (dependsOnMore: () => void) => {
    const spec = repository.readDetached(dir, options);
    try {
      // Whether another process's run lock is live depends on that process, not on a file.
      if (spec.snapshot.files.has(RUN_LOCK_FILE)) dependsOnMore();
      return evaluateSpec(spec, specStaleness(spec.snapshot, spec.definition, spec.stage), (part, e) => {
        dependsOnMore();
        failed(spec.snapshot.specDir, part, e);
      });
    } finally {
      spec.dispose();
    }
  };
  if (!evaluations) return evaluate(() => undefined);
  // The workflow is read once per repository, not by the evaluation: it is one of its inputs all the same.
  return evaluations.get(dir, language, evaluate, [join(repository.root, WORKFLOW_FILE), join(repository.root, WORKSPACE_SETTINGS_FILE)]);
}
