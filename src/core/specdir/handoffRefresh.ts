import { refreshLoomHandoff } from '../store/stateStore';
import { staleHandoffs } from './handoffStaleness';
import { loadSpec } from './loadSpec';
import type { SpecSnapshot } from './specSnapshot';

/**
 * After drafts the user read and accepted (a later stage reworking an earlier stage's files, as
 * /expand rewrites the requirements.json /brainstorm wrote), the handoffs that were fresh before
 * and are stale now only through the files written get their fingerprints taken again
 * (stateStore.refreshLoomHandoff), as loom's agent does after reworking (its hint for a stale
 * handoff: refresh it); else both tools would refuse every advance (loom's findStaleHandoffs)
 * until someone ran `handoff --refresh`. A handoff stale for any other reason, or already stale
 * before, is left as it is. The tasks converge appends are not refreshed this way: nobody has
 * reviewed them yet, so the planning handoff and approval stay stale until the person does.
 * Call it before the write, and the function it returns after it, both under the run lock the
 * write holds, with the spec-relative files written; that returns the handoffs refreshed
 * (`handoffs/x.json`).
 */
export function handoffRework(before: SpecSnapshot): (written: readonly string[]) => string[] {
  const wasStale = new Set(staleHandoffs(before).map((h) => h.handoff));
  return (written) => refreshReworked(before, wasStale, written);
}

function refreshReworked(before: SpecSnapshot, wasStale: ReadonlySet<string>, written: readonly string[]): string[] {
  if (written.length === 0) return [];
  const after = loadSpec(before.repoRoot, before.dir);
  const covers = (declared: string) => {
    const p = declared.replace(/\\/g, '/').replace(/\/$/, '');
    return written.some((w) => w === p || w.startsWith(`${p}/`));
  };
  const refreshed: string[] = [];
  for (const { handoff: file, changed } of staleHandoffs(after)) {
    if (wasStale.has(file) || !changed.every(covers)) continue;
    const name = file.replace(/^handoffs\//, '').replace(/\.json$/, '');
    const handoff = after.handoffs.get(name);
    if (!handoff) continue;
    refreshed.push(refreshLoomHandoff(after, name, handoff));
  }
  return refreshed;
}
