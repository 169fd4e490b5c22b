import type { Event } from 'vscode';
import type { DashboardRun } from '../../shared/dashboardModel';

/**
 * What the dashboard shows of Loom: Run Pipeline for a spec: the runs set it (PipelineRuns),
 * the dashboard's model reads it, and redraws when it changes (a stop kept is no change of the
 * spec's files). Empty until a run starts in this window.
 */
export const dashboardRuns = {
  provider: undefined as { of(dir: string): DashboardRun | undefined; readonly onDidChange: Event<string> } | undefined,
  of(dir: string): DashboardRun | undefined {
    return this.provider?.of(dir);
  },
};
