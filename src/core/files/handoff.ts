import type { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';
import { HANDOFF_STATUSES } from './vocabulary';

/**
 * `handoffs/<stage or task>.json` as loom reads it: loom's readers take any object. `loom
 * handoff write` without `--summary` leaves `summary` out, and loom's compaction hook writes
 * `status: "pending"`; both are valid handoffs, read, counted for staleness and listed in
 * progress.md. Only loom's writer limits `status` to HANDOFF_STATUSES, and so does ours.
 */
export const HandoffSchema = lazySchema((z) =>
  z.looseObject({
    status: z.string().optional(),
    summary: z.string().optional(),
    artifacts: z.array(z.string()).default([]),
    task_id: z.string().optional(),
    stage: z.string().optional(),
    exported_interfaces: z.array(z.looseObject({ name: z.string(), path: z.string(), signature: z.string().optional() })).optional(),
    breaking_changes: z.array(z.unknown()).optional(),
    requirements_verified: z.array(z.string()).optional(),
    notes: z.union([z.string(), z.array(z.string())]).optional(),
    written_at: z.string().optional(),
    basis_fingerprints: z.record(z.string(), z.string()).optional(),
    /** The extension's digests of the artifacts in the feature worktree (taskHandoff.ts); loom ignores the key. */
    worktree_fingerprints: z.record(z.string(), z.string()).optional(),
    artifact_fingerprints: z.record(z.string(), z.string()).optional(),
  }),
);
export type Handoff = z.infer<ReturnType<typeof HandoffSchema>>;

/** A handoff as loom's writer accepts it (state-store.js assertValidHandoffStatus): one of its four statuses. */
export const WritableHandoffSchema = lazySchema((z) => HandoffSchema().extend({ status: z.enum(HANDOFF_STATUSES) }));

export const HANDOFFS_DIR = 'handoffs';
