import { z } from 'zod';
import { checkProjectRoot, specOf } from '../specAccess';
import { defineTool } from '../tool';

export const attachSpec = defineTool({
  name: 'loom_attach_spec',
  group: 'session',
  description: 'Bind this session to a spec directory; later calls may leave spec_dir out.',
  input: z.object({
    spec_dir: z.string().describe('Spec directory, relative to the repository (specs/<name>)'),
    project_root: z.string().optional().describe('Project root (must be the repository this server serves)'),
  }),
  writes: [],
  run: (args, ctx) => {
    checkProjectRoot(ctx, args.project_root);
    const { spec } = specOf(ctx, args.spec_dir);
    ctx.session.specDir = spec.snapshot.specDir;
    return { ok: true, attached: spec.snapshot.specDir, project_root: ctx.session.root, current_stage: spec.stage };
  },
});
