import type { z } from 'zod';
import { lazily } from '../../shared/lazily';
import { lazySchema } from '../../shared/lazySchema';
import { plainAny, plainArray, plainBoolean, plainLooseObject, plainOneOf, plainOrUndefined, plainRecord, plainString, plainStringRecord, type PlainCheck } from './plainShapes';
import { HISTORY_STATUSES } from './vocabulary';

/** One entry of `stage_history`, as loom records it when a stage is left. Unknown keys are kept. */
export const StageHistoryEntrySchema = lazySchema((z) =>
  z.looseObject({
    stage: z.string().min(1),
    entered_at: z.string().optional(),
    exited_at: z.string().optional(),
    status: z.enum(HISTORY_STATUSES),
    reason: z.string().optional(),
    approval: z.literal('user_confirmed').optional(),
    approved_at: z.string().optional(),
    approval_fingerprints: z.record(z.string(), z.string()).optional(),
    /**
     * Earlier approvals of this entry that Approve Again renewed (stateRecord.renewApprovals). loom
     * keeps the key as it keeps any unknown one and never reads it.
     */
    superseded_approvals: z
      .array(
        z.looseObject({ approved_at: z.string().optional(), approval_fingerprints: z.record(z.string(), z.string()).optional(), superseded_at: z.string().optional(), reason: z.string().optional() }),
      )
      .optional(),
    retry_from: z.string().optional(),
    validator: z.string().nullable().optional(),
    recovery_from: z.string().optional(),
    terminal: z.boolean().optional(),
  }),
);
export type StageHistoryEntry = z.infer<ReturnType<typeof StageHistoryEntrySchema>>;

/** `pipeline.state.json`. Unknown keys are kept so that a round-trip through the extension loses nothing. */
export const PipelineStateSchema = lazySchema((z) =>
  z.looseObject({
    spec_dir: z.string().optional(),
    pipeline_type: z.string().min(1).optional(),
    current_stage: z.string().min(1),
    loom_version: z.string().optional(),
    started_at: z.string().optional(),
    updated_at: z.string().optional(),
    current_stage_started_at: z.string().optional(),
    stage_history: z.array(StageHistoryEntrySchema()).default([]),
    metadata: z.record(z.string(), z.unknown()).default({}),
    dynamic_steps: z.array(z.unknown()).optional(),
    failure_reason: z.string().optional(),
  }),
);
export type PipelineState = z.infer<ReturnType<typeof PipelineStateSchema>>;

const plainHistoryEntry = lazily(() => {
  const text = plainString();
  return plainLooseObject([
    ['stage', plainString({ nonEmpty: true })],
    ['entered_at', text, 'optional'],
    ['exited_at', text, 'optional'],
    ['status', plainOneOf(HISTORY_STATUSES)],
    ['reason', text, 'optional'],
    ['approval', plainOneOf(['user_confirmed']), 'optional'],
    ['approved_at', text, 'optional'],
    ['approval_fingerprints', plainStringRecord, 'optional'],
    [
      'superseded_approvals',
      plainArray(
        plainLooseObject([
          ['approved_at', text, 'optional'],
          ['approval_fingerprints', plainStringRecord, 'optional'],
          ['superseded_at', text, 'optional'],
          ['reason', text, 'optional'],
        ]),
      ),
      'optional',
    ],
    ['retry_from', text, 'optional'],
    ['validator', ((v) => (v === null ? v : text(v))) satisfies PlainCheck, 'optional'],
    ['recovery_from', text, 'optional'],
    ['terminal', plainBoolean, 'optional'],
  ]);
});

/**
 * pipeline.state.json as PipelineStateSchema would give it, when the JSON value is plainly in the
 * shape loom writes; undefined for anything else, which zod then checks and words (plainShapes.ts).
 * Its answers are zod's, key order included (test/unit/files/pipelineState.test.ts).
 */
export const plainPipelineState = lazily(() => {
  const text = plainString();
  const nonEmpty = plainString({ nonEmpty: true });
  return plainOrUndefined<PipelineState>(
    plainLooseObject([
      ['spec_dir', text, 'optional'],
      ['pipeline_type', nonEmpty, 'optional'],
      ['current_stage', nonEmpty],
      ['loom_version', text, 'optional'],
      ['started_at', text, 'optional'],
      ['updated_at', text, 'optional'],
      ['current_stage_started_at', text, 'optional'],
      ['stage_history', plainArray(plainHistoryEntry()), { default: () => [] }],
      ['metadata', plainRecord, { default: () => ({}) }],
      ['dynamic_steps', plainArray(plainAny), 'optional'],
      ['failure_reason', text, 'optional'],
    ]),
  );
});

export { PIPELINE_STATE_FILE } from './vocabulary';
