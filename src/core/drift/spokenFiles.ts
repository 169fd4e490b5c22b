import { posix } from 'node:path';
import { splitTestRef } from '../files/traceability';
import type { SpecSnapshot } from '../specdir/specSnapshot';

/** Why a spec speaks for a file: a task owns it, a behavior's test is in it, or evidence names it. */
export interface SpokenFile {
  path: string;
  /** The tasks whose `owns` names it. */
  tasks: string[];
  /** The behaviors (or requirements, when the trace names no behavior) whose tests are in it. */
  behaviors: string[];
  /** Named as evidence by the traceability. */
  evidence: boolean;
}

/** A repository-relative path as git names it (`./src/a.ts` → `src/a.ts`); undefined for one outside the repository. */
function repoPath(raw: string): string | undefined {
  const p = posix.normalize(raw.trim().replace(/\\/g, '/'));
  if (!p || p === '.' || p.startsWith('../') || p.startsWith('/') || /[*?[]/.test(p)) return undefined;
  return p.replace(/\/$/, '');
}

/**
 * The files a spec speaks for: its tasks' `owns`, the test files its traceability names and the
 * files its evidence names. The spec's own folder is left out: its changes are the spec's own.
 */
export function spokenFiles(snapshot: Pick<SpecSnapshot, 'specDir' | 'tasks' | 'traceability'>): SpokenFile[] {
  const files = new Map<string, SpokenFile>();
  const own = `${snapshot.specDir}/`;
  const entry = (raw: string): SpokenFile | undefined => {
    const path = repoPath(raw);
    if (!path || path.startsWith(own)) return undefined;
    let f = files.get(path);
    if (!f) files.set(path, (f = { path, tasks: [], behaviors: [], evidence: false }));
    return f;
  };
  for (const task of snapshot.tasks.values()) for (const owned of task.owns) entry(owned)?.tasks.push(task.id);
  for (const req of snapshot.traceability?.requirements ?? []) {
    const behaviors = Object.entries(req.behaviors ?? {});
    const traces: [string, { tests: string[]; evidence: string[] }][] = [[req.id, req], ...behaviors];
    for (const [id, trace] of traces) {
      for (const test of trace.tests) {
        const f = entry(splitTestRef(test).file);
        if (f && !f.behaviors.includes(id)) f.behaviors.push(id);
      }
      // Evidence is a receipt id or a file; only what reads as a path is a file it speaks for.
      for (const ev of trace.evidence) {
        const f = /[/.]/.test(ev) ? entry(ev.split('#')[0]) : undefined;
        if (f) f.evidence = true;
      }
    }
  }
  return [...files.values()];
}
