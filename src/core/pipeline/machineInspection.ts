import type { InspectionEvent } from 'xstate';

/**
 * One log line for an inspection event of a spec's actor (`loom.debug.inspectMachines`): the
 * events it receives and the state it moves to. The facts an event carries are left out: a
 * FILES_CHANGED holds the whole spec.
 */
export function describeInspection(specDir: string, event: InspectionEvent): string | undefined {
  switch (event.type) {
    case '@xstate.event': {
      const { type, ...rest } = event.event as { type: string } & Record<string, unknown>;
      if (type.startsWith('xstate.')) return `${specDir}: ${type}`;
      const shown = Object.entries(rest).filter(([k, v]) => v !== undefined && typeof v !== 'object' && k !== 'now');
      return `${specDir}: event ${type}${shown.length ? ` ${shown.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')}` : ''}`;
    }
    case '@xstate.snapshot': {
      const snapshot = event.snapshot as { value?: unknown; context?: { outcome?: { kind: string; message?: string } } };
      const outcome = snapshot.context?.outcome;
      const said = outcome ? ` (${outcome.kind}${outcome.message ? `: ${outcome.message}` : ''})` : '';
      return `${specDir}: at ${JSON.stringify(snapshot.value)}${said}`;
    }
    default:
      return undefined;
  }
}
