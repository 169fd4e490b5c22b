import { z } from 'zod';
import { tasksJson } from '../../cli/format';
import { traceJson, type Diagnostic, specDiagnostics, planTaskBatches, taskDependencyDiagnostics, taskOwnershipDiagnostics, buildTraceabilityMatrix } from '../../core/port/reports';
import { REQUIREMENTS_FILE, TRACEABILITY_FILE } from '../../core/port/files';
import type { SpecPipeline } from '../../core/port/specs';
import { request } from '../../core/port/request';
import { refusalOf } from '../answers';
import { t } from '../../core/port/messages';
import { ToolRefusal } from '../results';
import { openRepository, specOf } from '../specAccess';
import { defineTool } from '../tool';

const specInput = z.object({ spec_dir: z.string().optional().describe('Spec directory (optional if attached)') });

/** Answering from a file that cannot be read would be silently wrong (the CLI's readableLedgers and readableTasks). */
function refuseUnreadable(spec: SpecPipeline, files: readonly string[], what: 'input.ledgersUnreadable' | 'mcp.view.tasksUnreadable'): void {
  const broken: Diagnostic[] = spec.diagnostics.filter((d) => d.severity === 'error' && files.includes(d.file));
  if (broken.length) {
    const named = [...new Set(broken.map((d) => d.file))].join(', ');
    throw new ToolRefusal('unreadable-input', t(what, { specDir: spec.snapshot.specDir, files: named }), t('mcp.view.unreadableHint'), { diagnostics: broken });
  }
}

export const trace = defineTool({
  name: 'loom_trace',
  group: 'pipeline',
  description: 'The traceability matrix of a spec: each requirement and behavior with its tasks, tests and status (what `loom-vscode trace --json` prints).',
  input: specInput,
  writes: [],
  run: (args, ctx) => {
    const { spec } = specOf(ctx, args.spec_dir);
    refuseUnreadable(
      spec,
      [REQUIREMENTS_FILE, TRACEABILITY_FILE].map((f) => `${spec.snapshot.specDir}/${f}`),
      'input.ledgersUnreadable',
    );
    return { spec_dir: spec.snapshot.specDir, ...traceJson(buildTraceabilityMatrix(spec.snapshot)) };
  },
});

export const tasks = defineTool({
  name: 'loom_tasks',
  group: 'pipeline',
  description: 'The tasks of a spec as parallel batches, with owns conflicts and dependency cycles (what `loom-vscode tasks --validate --json` reports).',
  input: specInput,
  writes: [],
  run: (args, ctx) => {
    const { spec } = specOf(ctx, args.spec_dir);
    const list = [...spec.snapshot.tasks.values()];
    refuseUnreadable(
      spec,
      list.filter((t) => spec.diagnostics.some((d) => d.file === t.file && d.code === 'frontmatter-syntax')).map((t) => t.file),
      'mcp.view.tasksUnreadable',
    );
    const plan = planTaskBatches(list);
    const problems = [...taskOwnershipDiagnostics(list), ...taskDependencyDiagnostics(list, plan)];
    return { spec_dir: spec.snapshot.specDir, ok: !problems.some((d) => d.severity === 'error'), ...tasksJson(plan), problems };
  },
});

export const validate = defineTool({
  name: 'loom_validate',
  group: 'pipeline',
  description: 'Every diagnostic of loom’s files, with file, line and column: one spec with spec_dir, else the whole repository with its workflow (what `loom-vscode validate --json` prints).',
  input: specInput,
  writes: [],
  run: (args, ctx) => {
    const repo = openRepository(ctx);
    const perSpec = args.spec_dir !== undefined || ctx.session.specDir ? [specDiagnostics(specOf(ctx, args.spec_dir).spec)] : repo.scan(specDiagnostics);
    const diagnostics = [...repo.workflowProblems, ...perSpec.flat()];
    return { ok: !diagnostics.some((d) => d.severity === 'error'), diagnostics };
  },
});

export const checkStage = defineTool({
  name: 'loom_check_stage',
  group: 'pipeline',
  description: 'Run the current stage’s validators as Loom: Check Stage does: the analysis and convergence stages write their reports (and a passing stage its handoff), the others only check.',
  input: specInput,
  writes: ['artifact-analysis.json', 'convergence-report.json', 'handoffs/<stage>.json', 'tasks/TN.md (convergence)'],
  run: async (args, ctx) => {
    const { spec } = specOf(ctx, args.spec_dir);
    const answer = await request(spec, { type: 'checkStage' }, { now: ctx.now() });
    if (answer.kind !== 'changed') throw refusalOf(answer as never, spec, 'loom_check_stage');
    return { spec_dir: spec.snapshot.specDir, ok: answer.check.passed, ...answer.check };
  },
});
