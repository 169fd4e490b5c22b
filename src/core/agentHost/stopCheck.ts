import { t } from '../messages';
import { hasRole } from '../pipeline/stageRoles';
import type { LoomRepository } from '../repository/loomRepository';

/** What the plugin's Stop and SubagentStop hooks answer: keep the agent working, with Loom's reasons, or let it stop. */
export interface StopVerdict {
  keepWorking: boolean;
  reasons: string[];
}

// A task an agent has started and Loom has not seen finished: its review, its tests, its record.
const UNDER_WAY = new Set(['executing', 'reviewing']);

/**
 * Whether Loom considers the agent's work in this repository done, from loom's own records: a
 * task under way (`executing`, `reviewing`) is not, nor is a run of the task stage left half way
 * (some tasks done, others still pending, none blocked or failed for the person). A gate, a
 * stage waiting for the person, or a blocked task lets the agent stop: there the person decides.
 * `alreadyKept`: the hook kept this agent working once already (`stop_hook_active`), so it stops
 * now rather than loop; Loom's reasons are said again for the person.
 */
export function stopVerdict(repo: LoomRepository, alreadyKept: boolean): StopVerdict {
  const reasons = repo
    .scan((spec) => {
      const out: string[] = [];
      const { specDir, taskStates, tasks } = spec.snapshot;
      for (const [id, s] of taskStates) if (UNDER_WAY.has(s.status)) out.push(t('agentHost.stop.taskUnderWay', { specDir, task: id, status: s.status }));
      if (out.length === 0 && hasRole(spec.definition, spec.stage, 'tasks') && tasks.size > 0) {
        const status = (id: string) => taskStates.get(id)?.status ?? 'pending';
        const ids = [...tasks.keys()];
        const done = ids.filter((id) => status(id) === 'done');
        const left = ids.filter((id) => status(id) === 'pending');
        const stuck = ids.some((id) => status(id) === 'blocked' || status(id) === 'failed');
        if (done.length > 0 && left.length > 0 && !stuck) out.push(t('agentHost.stop.tasksLeft', { specDir, tasks: left.join(', ') }));
      }
      return out;
    })
    .flat();
  return { keepWorking: reasons.length > 0 && !alreadyKept, reasons };
}
