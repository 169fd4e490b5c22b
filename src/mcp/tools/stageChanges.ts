import { z } from 'zod';
import { advanceOverMcp, approveOverMcp } from '../stageMoves';
import { specOf } from '../specAccess';
import { defineTool } from '../tool';

const STATE_FILES = ['pipeline.state.json', 'progress.md'];

const compressionConfirmed = z
  .boolean()
  .optional()
  .describe('Set true only after you compressed the closed stage’s raw context (your host’s compression tool); loom 3 asks for it where the step’s outputs include handoffs/<stage>.json');

export const advancePipeline = defineTool({
  name: 'loom_advance_pipeline',
  group: 'pipeline',
  description:
    'Move the spec to its next stage when the stage’s outputs, reports and preconditions hold (the same checks as Loom: Advance), after you compressed the closed stage’s context where loom asks for it (compression_confirmed). Refused at a human-approval gate (use loom_approve_gate after the user agreed) and, at an interactive stage, until the user confirms.',
  input: z.object({ spec_dir: z.string().optional().describe('Spec directory (optional if attached)'), compression_confirmed: compressionConfirmed }),
  writes: STATE_FILES,
  run: (args, ctx) => advanceOverMcp(specOf(ctx, args.spec_dir).spec, ctx, 'loom_advance_pipeline', { compressionConfirmed: args.compression_confirmed === true }),
});

export const approveGate = defineTool({
  name: 'loom_approve_gate',
  group: 'pipeline',
  description:
    'Approve the current stage’s gate (a human-approval gate or an interactive stage) and move on. Call it only after the user agreed; where the client supports it, the user is asked here. An interactive stage whose step loom asks to compress needs compression_confirmed too.',
  input: z.object({ spec_dir: z.string().optional().describe('Spec directory (optional if attached)'), compression_confirmed: compressionConfirmed }),
  writes: STATE_FILES,
  run: (args, ctx) => approveOverMcp(specOf(ctx, args.spec_dir).spec, ctx, 'loom_approve_gate', { compressionConfirmed: args.compression_confirmed === true }),
});
