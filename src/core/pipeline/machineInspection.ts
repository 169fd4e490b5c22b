import type { InspectionEvent } from 'xstate';

/** An answer of the actor, as a log line names it: its kind, and what it says. */
function answerLine(answer: unknown, error: unknown): string {
  if (error !== undefined) return `error: ${error instanceof Error ? error.message : String(error)}`;
  const a = answer as { kind?: string; message?: string; question?: { title?: string } } | undefined;
  const said = a?.message ?? a?.question?.title;
  return `${a?.kind ?? 'nothing'}${said ? `: ${said}` : ''}`;
}

/**
 * One log line for an inspection event of a spec's actor (`loom.debug.inspectMachines`): the
 * events it receives, the state it moves to, and what it answers. The facts an event carries are
 * left out: a FILES_CHANGED holds the whole spec; so is the id that pairs a request with its answer.
 */
export function describeInspection(specDir: string, event: InspectionEvent): string | undefined {
  switch (event.type) {
    case '@xstate.event': {
      const { type, ...rest } = event.event as { type: string } & Record<string, unknown>;
      if (type.startsWith('xstate.')) return `${specDir}: ${type}`;
      if (type === 'ANSWERED') return `${specDir}: answered ${answerLine(rest.answer, rest.error)}`;
      const shown = Object.entries(rest).filter(([k, v]) => v !== undefined && typeof v !== 'object' && k !== 'now' && k !== 'id');
      return `${specDir}: event ${type}${shown.length ? ` ${shown.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')}` : ''}`;
    }
    case '@xstate.action': {
      // An answer emitted at once (a refusal, a question): an answer after a write comes as ANSWERED.
      const { action } = event as { action: { type: string; params?: { event?: { type?: string; answer?: unknown; error?: unknown } } } };
      const emitted = action.params?.event;
      return action.type === 'xstate.emit' && emitted?.type === 'answer' ? `${specDir}: answered ${answerLine(emitted.answer, emitted.error)}` : undefined;
    }
    case '@xstate.snapshot':
      return `${specDir}: at ${JSON.stringify((event.snapshot as { value?: unknown }).value)}`;
    default:
      return undefined;
  }
}
