import type { DashboardRun } from '../../shared/dashboardModel';

/**
 * What the dashboard shows of Loom: Run Pipeline for a spec: the runs set it (PipelineRuns),
 * the dashboard's model reads it. Empty until a run starts in this window.
 */
export const dashboardRuns = {
  provider: undefined as ((dir: string) => DashboardRun | undefined) | undefined,
  of(dir: string): DashboardRun | undefined {
    return this.provider?.(dir);
  },
};
