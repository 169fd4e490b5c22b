import { z } from 'zod';
import { advanceOverMcp, approveOverMcp } from '../stageMoves';
import { changeableSpec } from '../specAccess';
import { defineTool } from '../tool';

const STATE_FILES = ['pipeline.state.json', 'progress.md'];

export const advancePipeline = defineTool({
  name: 'loom_advance_pipeline',
  group: 'pipeline',
  description:
    'Move the spec to its next stage when the stage’s outputs, reports and preconditions hold (the same checks as Loom: Advance). Refused at a human-approval gate (use loom_approve_gate after the user agreed) and, at an interactive stage, until the user confirms.',
  input: z.object({ spec_dir: z.string().optional().describe('Spec directory (optional if attached)') }),
  writes: STATE_FILES,
  run: (args, ctx) => advanceOverMcp(changeableSpec(ctx, args.spec_dir).spec, ctx, 'loom_advance_pipeline'),
});

export const approveGate = defineTool({
  name: 'loom_approve_gate',
  group: 'pipeline',
  description:
    'Approve the current stage’s gate (a human-approval gate or an interactive stage) and move on. Call it only after the user agreed; where the client supports it, the user is asked here.',
  input: z.object({ spec_dir: z.string().optional().describe('Spec directory (optional if attached)') }),
  writes: STATE_FILES,
  run: (args, ctx) => approveOverMcp(changeableSpec(ctx, args.spec_dir).spec, ctx, 'loom_approve_gate'),
});
