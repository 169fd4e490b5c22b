import { ORDERED_OVERLAP, planTaskBatches, taskDependencyDiagnostics, taskOwnershipDiagnostics, buildTraceabilityMatrix, traceJson } from '../core/port/reports';
import { t } from '../core/port/messages';
import { json, spec, type CommandCall } from './command';
import { formatDiagnostic, formatTasks, formatTrace, tasksJson } from './format';
import { readableLedgers, readableTasks } from './unreadableInput';

/** `tasks --spec-dir D [--validate]`: the task batches, and with --validate what `loom tasks --validate` rejects. */
export function tasks({ repo, args, io, asJson }: CommandCall): number {
  const s = spec(repo, args);
  readableTasks(s);
  const all = [...s.snapshot.tasks.values()];
  const plan = planTaskBatches(all);
  if (asJson) json(io, tasksJson(plan));
  else io.out(formatTasks(plan));
  if (!args.flags.has('--validate')) return 0;
  // What `loom tasks --validate` rejects: a task without owns, conflicts, and plans that cannot finish.
  const problems = [...taskOwnershipDiagnostics(all), ...taskDependencyDiagnostics(all, plan)];
  for (const d of problems) io.err(formatDiagnostic(d));
  // Silence after --validate read like nothing had been checked: say what passed (not in --json, whose stdout is one document).
  if (problems.length === 0 && !asJson) io.out(t('cli.tasks.valid', { specDir: s.snapshot.specDir, count: all.length }));
  // loom's tasks --validate exits 1 on every overlapping pair, depends_on or not.
  return problems.some((d) => d.severity === 'error' || d.code === ORDERED_OVERLAP) ? 1 : 0;
}

/** `trace --spec-dir D`: the traceability matrix. */
export function trace({ repo, args, io, asJson }: CommandCall): number {
  const s = spec(repo, args);
  readableLedgers(s);
  const matrix = buildTraceabilityMatrix(s.snapshot);
  if (asJson) json(io, traceJson(matrix));
  else io.out(formatTrace(matrix));
  return 0;
}
