import { z } from 'zod';
import { driftSummary, repositoryDrift } from '../../core/port/drift';
import { checkProjectRoot, openRepository, specOf } from '../specAccess';
import { defineTool } from '../tool';

/**
 * `loom_get_drift`: the same answer as `loom-vscode drift --json`, for an agent about to change
 * code a synced spec speaks for, or asked whether the specs are still true.
 */
export const getDrift = defineTool({
  name: 'loom_get_drift',
  group: 'pipeline',
  description:
    'Whether each synced spec is still true to its code: the files it speaks for (its tasks’ owns, the test files its traceability names, its evidence) that commits after its baseline commit changed, renamed or deleted, other than its own task commits; deleted tests name their behaviors. One spec with spec_dir (or the attached one), else every synced spec. status: clean | drifted | no-baseline | shallow | unknown-baseline.',
  input: z.object({
    project_root: z.string().optional().describe('Project root (must be the repository this server serves)'),
    spec_dir: z.string().optional().describe('One spec directory; every synced spec when left out and no spec is attached'),
  }),
  writes: [],
  run: async (args, ctx) => {
    checkProjectRoot(ctx, args.project_root);
    const repo = openRepository(ctx);
    const one = args.spec_dir !== undefined || ctx.session.specDir ? specOf(ctx, args.spec_dir).spec : undefined;
    const report = await repositoryDrift(repo, one ? { only: [one] } : {});
    return {
      head: report.head ?? null,
      shallow: report.shallow,
      drifted: report.specs.filter((d) => d.status === 'drifted').length,
      specs: report.specs.map((d) => ({ ...d, summary: driftSummary(d) })),
    };
  },
});
