import type { z } from 'zod';
import { lazily } from '../../shared/lazily';
import { lazySchema } from '../../shared/lazySchema';
import { plainAny, plainArray, plainLooseObject, plainOrUndefined, plainString, plainStringRecord } from './plainShapes';
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

/**
 * A handoff as HandoffSchema would give it, when the JSON value is plainly in the shape loom writes;
 * undefined for anything else, which zod then checks and words (plainShapes.ts). Its answers are
 * zod's, key order included (test/unit/files/handoff.test.ts).
 */
export const plainHandoff = lazily(() =>
  plainOrUndefined<Handoff>(
    plainLooseObject([
      ['status', plainString(), 'optional'],
      ['summary', plainString(), 'optional'],
      ['artifacts', plainArray(plainString()), { default: () => [] }],
      ['task_id', plainString(), 'optional'],
      ['stage', plainString(), 'optional'],
      [
        'exported_interfaces',
        plainArray(
          plainLooseObject([
            ['name', plainString()],
            ['path', plainString()],
            ['signature', plainString(), 'optional'],
          ]),
        ),
        'optional',
      ],
      ['breaking_changes', plainArray(plainAny), 'optional'],
      ['requirements_verified', plainArray(plainString()), 'optional'],
      ['notes', (v) => (typeof v === 'string' ? v : plainArray(plainString())(v)), 'optional'],
      ['written_at', plainString(), 'optional'],
      ['basis_fingerprints', plainStringRecord, 'optional'],
      ['worktree_fingerprints', plainStringRecord, 'optional'],
      ['artifact_fingerprints', plainStringRecord, 'optional'],
    ]),
  ),
);

/** A handoff as loom's writer accepts it (state-store.js assertValidHandoffStatus): one of its four statuses. */
export const WritableHandoffSchema = lazySchema((z) => HandoffSchema().extend({ status: z.enum(HANDOFF_STATUSES) }));

export const HANDOFFS_DIR = 'handoffs';
