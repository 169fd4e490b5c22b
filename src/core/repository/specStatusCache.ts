import { lazySchema } from '../../shared/lazySchema';
import { diagnosticSchema } from '../diagnostics/diagnosticSchema';
import { RUN_LOCK_FILE } from '../store/runLock';
import type { EvaluationCache } from '../specdir/evaluationCache';
import type { LoomRepository } from './loomRepository';
import type { SpecStatus } from './specPipeline';

/** The shape of a status read back from the cache, built on first use: anything else is rebuilt. */
const specStatusSchema = lazySchema((z) =>
  z.object({
    spec_dir: z.string(),
    pipeline_type: z.string(),
    stage: z.string().nullable(),
    stage_source: z.enum(['state', 'inferred', 'unknown']),
    tasks: z.array(z.object({ id: z.string(), status: z.string(), retry_count: z.number() })),
    next: z.array(
      z.object({
        to: z.string(),
        kind: z.string(),
        interactive: z.boolean(),
        ready: z.boolean(),
        unmet: z.array(z.string()),
        confirmations: z.array(z.string()),
        compression_required: z.literal(true).optional(),
        advice: z.array(z.string()).optional(),
      }),
    ),
    diagnostics: z.array(diagnosticSchema()),
  }),
);

export const isSpecStatus = (value: unknown): value is SpecStatus => specStatusSchema().safeParse(value).success;

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
