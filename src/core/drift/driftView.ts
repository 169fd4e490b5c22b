import type { DashboardDrift } from '../../shared/dashboardModel';
import type { SpecDrift } from './driftScan';
import { driftSummary } from './driftText';

/** A spec's drift as the dashboard's model carries it: the core's answer, with its one phrase. */
export function dashboardDrift(d: SpecDrift): DashboardDrift {
  const b = d.baseline;
  return {
    status: d.status,
    summary: driftSummary(d),
    ...(b
      ? { baseline: { commit: b.commit, source: b.source, ...(b.recorded_at ? { recordedAt: b.recorded_at } : {}), ...(b.by ? { by: b.by } : {}), ...(b.reason ? { reason: b.reason } : {}) } }
      : {}),
    files: d.files.map((f) => ({ path: f.path, change: f.change, ...(f.renamedTo ? { renamedTo: f.renamedTo } : {}), commits: [...f.commits], tasks: [...f.tasks], behaviors: [...f.behaviors] })),
    commits: d.commits.map((c) => ({ commit: c.commit, subject: c.subject, author: c.author, date: c.date, files: [...c.files] })),
    goneTests: d.goneTests.map((g) => ({ file: g.file, behaviors: [...g.behaviors], commit: g.commit })),
  };
}
