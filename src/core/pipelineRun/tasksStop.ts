import { t } from '../messages';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import type { RunStop, StopReason, TasksOutcome } from './runStop';

export const stopped = (reason: StopReason, stage: string, message: string, file?: string): Omit<RunStop, 'stages'> => ({ reason, stage, message, ...(file ? { file } : {}) });

/**
 * The stop a Run Tasks means, if any (undefined: every task done and the test report passes):
 * the one reading of Run Tasks' end, for Run Pipeline's tasks stage and for Run Tasks started on
 * its own (tasksRunStop), so both say the same stop with the same one action.
 */
export function tasksStop(r: TasksOutcome, snapshot: SpecSnapshot, stage: string): Omit<RunStop, 'stages'> | undefined {
  if (r.kind === 'refused') return stopped(r.code === 'no-model' ? 'model-unavailable' : 'refused', stage, r.message);
  if (r.kind === 'declined') return stopped('declined', stage, r.message);
  // A task stopped where no rule expected it: its work is kept, and running the tasks again resumes it from its step.
  if (r.resumeWith === 'run-tasks') return stopped('tasks-stopped', stage, r.message);
  switch (r.outcome) {
    case 'completed': {
      const report = snapshot.reports.get('test-report.md');
      return report && report.verdict !== 'PASS' ? stopped('check-failed', stage, t('run.pipeline.testReport', { verdict: report.verdict ?? '-' })) : undefined;
    }
    case 'replan':
    case 'blocked':
      return stopped('breaker', stage, r.message);
    case 'needs-context':
      return stopped('needs-context', stage, r.message);
    case 'budget-exceeded':
      return stopped('budget', stage, r.message);
    case 'model-unavailable':
      return stopped('model-unavailable', stage, r.message);
    case 'cancelled':
      return stopped('tasks-stopped', stage, r.message);
  }
}

/**
 * Where Run Tasks started on its own (the palette, the tree) stopped, as its stop record keeps it
 * (runStopRecord.ts): the stop Run Pipeline's tasks stage would say, or `done` once the tasks are
 * done, which ends an earlier stop as a finished pipeline run does.
 */
export function tasksRunStop(r: TasksOutcome, snapshot: SpecSnapshot, stage: string): RunStop {
  return { ...(tasksStop(r, snapshot, stage) ?? stopped('done', stage, r.message)), stages: [] };
}
