import type { DashboardDrift } from '../../shared/dashboardModel';
import type { Event } from 'vscode';

/**
 * What the dashboard shows of a synced spec's drift: SpecDrifts sets the source at activation,
 * the dashboard's model reads it and redraws when a spec's drift changes. Empty until then.
 */
export const dashboardDrifts = {
  provider: undefined as { of(dir: string): DashboardDrift | undefined; readonly onDidChange: Event<string> } | undefined,
  of(dir: string): DashboardDrift | undefined {
    return this.provider?.of(dir);
  },
};
