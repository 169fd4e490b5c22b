import { z } from 'zod';
import { HANDOFF_STATUSES } from './vocabulary';

export const HandoffSchema = z.looseObject({
  status: z.enum(HANDOFF_STATUSES),
  summary: z.string(),
  artifacts: z.array(z.string()).default([]),
  task_id: z.string().optional(),
  stage: z.string().optional(),
  exported_interfaces: z.array(z.looseObject({ name: z.string(), path: z.string(), signature: z.string().optional() })).optional(),
  breaking_changes: z.array(z.unknown()).optional(),
  requirements_verified: z.array(z.string()).optional(),
  notes: z.union([z.string(), z.array(z.string())]).optional(),
  written_at: z.string().optional(),
  basis_fingerprints: z.record(z.string(), z.string()).optional(),
  artifact_fingerprints: z.record(z.string(), z.string()).optional(),
});
export type Handoff = z.infer<typeof HandoffSchema>;

export const HANDOFFS_DIR = 'handoffs';
