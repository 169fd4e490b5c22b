import * as vscode from 'vscode';
import { planTaskBatches, taskDependencyDiagnostics, taskOwnershipDiagnostics } from '../../core/port/reports';
import type { CommandContext } from '../commands/createCommand';
import { diagnosticsForModel } from './diagnosticsAnswer';
import { loomTool } from './loomTool';
import { answer, featureOf, specForTool, specLabel, whichSpec, type SpecInput } from './toolSpec';
import { t } from '../../core/port/messages';

/** `#loomTasks`: the tasks in parallel batches, as `loom-vscode tasks --validate` plans and checks them. */
export function tasksTool(ctx: CommandContext): vscode.LanguageModelTool<SpecInput> {
  return loomTool<SpecInput>(ctx, {
    name: 'loom_tasks',
    writes: false,
    invoke: async (input) => {
      const choice = await specForTool(ctx, input);
      if (!('entry' in choice)) return whichSpec(ctx, choice.candidates);
      const { spec } = choice.entry;
      const tasks = [...spec.snapshot.tasks.values()];
      const plan = planTaskBatches(tasks);
      const taskFiles = new Set(tasks.map((t) => t.file));
      // A task file that does not parse is planned without its owns and depends_on: its problem goes with the plan.
      const problems = [...spec.diagnostics.filter((d) => taskFiles.has(d.file) && d.severity === 'error'), ...taskOwnershipDiagnostics(tasks), ...taskDependencyDiagnostics(tasks, plan)];
      const states = new Map(spec.status().tasks.map((t) => [t.id, t]));
      return answer(t('host.lmTools.tasksBatches', { featureOf: featureOf(choice.entry), tasksCount: String(plan.tasks.length), batchesCount: String(plan.batches.length) }), {
        specDir: specLabel(ctx, choice.entry),
        tasks: plan.tasks.map((t) => ({ ...t, status: states.get(t.id)?.status ?? 'pending', retry_count: states.get(t.id)?.retry_count ?? 0 })),
        batches: plan.batches,
        conflicts: plan.conflicts,
        cycle: plan.cycle,
        unknown_dependencies: plan.unknown_dependencies,
        ...diagnosticsForModel(problems),
      });
    },
  });
}
