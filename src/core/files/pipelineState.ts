import type { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';
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

export { PIPELINE_STATE_FILE } from './vocabulary';
