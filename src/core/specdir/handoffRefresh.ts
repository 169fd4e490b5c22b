import type { SpecPipeline } from '../repository/specPipeline';
import { stageOf } from '../pipeline/pipelineDefinition';
import { staleHandoffs } from './handoffStaleness';
import type { SpecSnapshot } from './specSnapshot';

/**
 * After drafts the user read and accepted (a later stage reworking an earlier stage's files, as
 * /expand rewrites the requirements.json /brainstorm wrote), the handoffs that were fresh before
 * and are stale now only through the files written get their fingerprints taken again, as
 * loom's agent does after reworking (its hint for a stale handoff: refresh it); else both tools
 * would refuse every advance (loom's findStaleHandoffs) until someone ran `handoff --refresh`. A
 * handoff stale for any other reason, or already stale before, is left as it is. The tasks
 * converge appends are not refreshed this way: nobody has reviewed them yet, so the planning
 * handoff and approval stay stale until the person does. Call it inside the write's change of
 * the spec (SpecPipeline.change, whose `current` gives the spec's files as they are) before the
 * write, and the function it returns after it, with the spec-relative files written: each
 * handoff is refreshed by the spec's actor (a writeHandoff intent that keeps the paths it
 * fingerprints), and their files (`handoffs/x.json`) come back.
 */
export function handoffRework(spec: SpecPipeline, current: () => SpecSnapshot): (written: readonly string[]) => string[] {
  const wasStale = new Set(staleHandoffs(current()).map((h) => h.handoff));
  return (written) => refreshReworked(spec, current, wasStale, written);
}

function refreshReworked(spec: SpecPipeline, current: () => SpecSnapshot, wasStale: ReadonlySet<string>, written: readonly string[]): string[] {
  if (written.length === 0) return [];
  const after = current();
  const covers = (declared: string) => {
    const p = declared.replace(/\\/g, '/').replace(/\/$/, '');
    return written.some((w) => w === p || w.startsWith(`${p}/`));
  };
  const refreshed: string[] = [];
  for (const { handoff: file, changed } of staleHandoffs(after)) {
    if (wasStale.has(file) || !changed.every(covers)) continue;
    const name = file.replace(/^handoffs\//, '').replace(/\.json$/, '');
    if (!after.handoffs.has(name)) continue;
    const which = stageOf(spec.definition, name) ? { stage: name } : { task: name };
    const answer = spec.requestNow({ type: 'writeHandoff', handoff: { ...which, refresh: 'same-paths' } });
    if (answer.kind === 'changed') refreshed.push(answer.file);
  }
  return refreshed;
}
