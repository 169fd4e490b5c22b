import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptStateError } from '../../errors';
import { TRACEABILITY_FILE, TraceabilityFileSchema } from '../../files/traceability';
import { toJsonText, writeFileAtomic } from '../../fs/atomicWrite';
import { withRunLock } from '../../store/runLock';
import type { SpecSnapshot } from '../../specdir/specSnapshot';

/**
 * Closes a task's behaviors in traceability.json: its id under `tasks`, the tests it produced
 * under `tests`, the evidence under `evidence`, at behavior level and (as a union) at
 * requirement level. The file is edited as it is, not re-serialised from the parsed model:
 * the object or array form, the alias a list already uses (`test_refs`, `receipts`, ...) and
 * every unknown key are kept. Only existing files are passed in (the caller checks).
 */
export interface BehaviorClosure {
  requirement: string;
  behavior: string;
  tasks: readonly string[];
  tests: readonly string[];
  evidence: readonly string[];
}

export interface TraceabilityChange {
  behavior: string;
  added: { tasks: string[]; tests: string[]; evidence: string[] };
}

type Json = Record<string, unknown>;

const ALIASES = {
  tasks: ['tasks', 'task_ids'],
  tests: ['tests', 'test_refs', 'test_ids'],
  evidence: ['evidence', 'evidence_refs', 'receipts'],
} as const;

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Adds values to the list the entry already uses for `kind`; returns those that were new. */
function addTo(entry: Json, kind: keyof typeof ALIASES, values: readonly string[]): string[] {
  const key = ALIASES[kind].find((k) => Object.hasOwn(entry, k) && Array.isArray(entry[k])) ?? kind;
  const list = (Object.hasOwn(entry, key) && Array.isArray(entry[key]) ? entry[key] : (entry[key] = [])) as unknown[];
  const added: string[] = [];
  for (const v of values) {
    if (!list.includes(v)) {
      list.push(v);
      added.push(v);
    }
  }
  return added;
}

function requirementEntry(root: Json, id: string): Json {
  const reqs = root.requirements;
  if (Array.isArray(reqs)) {
    let entry = reqs.find((e) => isObject(e) && e.id === id) as Json | undefined;
    if (!entry) reqs.push((entry = { id, tasks: [], tests: [], evidence: [], behaviors: {} }));
    return entry;
  }
  const byId = reqs as Json;
  if (!Object.hasOwn(byId, id) || !isObject(byId[id])) byId[id] = { tasks: [], tests: [], evidence: [], behaviors: {} };
  return byId[id] as Json;
}

const ledgerOf = (snapshot: SpecSnapshot) => ({ path: join(snapshot.dir, TRACEABILITY_FILE), rel: `${snapshot.specDir}/${TRACEABILITY_FILE}` });

/** traceability.json as it is, refused (and left untouched) when it cannot be read or is not a ledger. */
function readLedger(path: string, rel: string): Json {
  let root: unknown;
  try {
    root = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new CorruptStateError(`${rel} could not be read (${(e as Error).message}); it was left untouched`, rel);
  }
  if (!TraceabilityFileSchema().safeParse(root).success || !isObject(root)) {
    throw new CorruptStateError(`${rel} is not a valid traceability ledger; it was left untouched`, rel);
  }
  return root;
}

export function updateTraceability(snapshot: SpecSnapshot, closures: readonly BehaviorClosure[]): TraceabilityChange[] {
  const { path, rel } = ledgerOf(snapshot);
  return withRunLock(snapshot, () => {
    const root = readLedger(path, rel);
    const changes: TraceabilityChange[] = [];
    for (const c of closures) {
      const entry = requirementEntry(root, c.requirement);
      if (!isObject(entry.behaviors)) entry.behaviors = {};
      const behaviors = entry.behaviors as Json;
      if (!Object.hasOwn(behaviors, c.behavior) || !isObject(behaviors[c.behavior])) behaviors[c.behavior] = { tasks: [], tests: [], evidence: [] };
      const b = behaviors[c.behavior] as Json;
      changes.push({
        behavior: c.behavior,
        added: { tasks: addTo(b, 'tasks', c.tasks), tests: addTo(b, 'tests', c.tests), evidence: addTo(b, 'evidence', c.evidence) },
      });
      addTo(entry, 'tasks', c.tasks);
      addTo(entry, 'tests', c.tests);
      addTo(entry, 'evidence', c.evidence);
    }
    if (!TraceabilityFileSchema().safeParse(root).success) throw new CorruptStateError(`updating ${rel} would make it invalid; it was left untouched`, rel);
    writeFileAtomic(path, toJsonText(root));
    return changes;
  });
}

/**
 * Takes back what the tasks of a rewind closed: their evidence logs (`evidence/T3-…`) and the
 * tests of their behaviors (those files went back with the branch), at behavior and requirement
 * level. The plan's own mapping (`tasks`) stays. The file is edited as it is, as
 * updateTraceability does; a spec without traceability.json has nothing to take back.
 */
export function takeBackTraceability(snapshot: SpecSnapshot, tasks: readonly { id: string; behaviors: readonly string[] }[]): string[] {
  const { path, rel } = ledgerOf(snapshot);
  if (!snapshot.files.has(TRACEABILITY_FILE) || tasks.length === 0) return [];
  const behaviorsBack = new Set(tasks.flatMap((t) => t.behaviors));
  const theirs = (e: unknown) => typeof e === 'string' && tasks.some((t) => e.replace(/^.*\//, '').startsWith(`${t.id}-`));
  return withRunLock(snapshot, () => {
    const root = readLedger(path, rel);
    const touched: string[] = [];
    const take = (entry: Json, keys: readonly string[], drop: (x: unknown) => boolean): string[] => {
      const dropped: string[] = [];
      for (const key of keys) {
        const list = entry[key];
        if (!Array.isArray(list) || !list.some(drop)) continue;
        dropped.push(...(list.filter(drop) as string[]));
        entry[key] = list.filter((x) => !drop(x));
      }
      return dropped;
    };
    const reqs = root.requirements;
    const entries: [string, unknown][] = Array.isArray(reqs) ? reqs.map((r, i) => [String((r as Json)?.id ?? i), r]) : isObject(reqs) ? Object.entries(reqs) : [];
    for (const [id, req] of entries) {
      if (!isObject(req)) continue;
      const behaviors = req.behaviors;
      const list: [string, unknown][] = Array.isArray(behaviors) ? behaviors.map((b, i) => [String((b as Json)?.id ?? i), b]) : isObject(behaviors) ? Object.entries(behaviors) : [];
      const back = new Set<unknown>();
      const kept = new Set<unknown>();
      for (const [bid, b] of list) {
        if (!isObject(b)) continue;
        if (!behaviorsBack.has(bid)) {
          for (const key of [...ALIASES.tests, ...ALIASES.evidence]) if (Array.isArray(b[key])) (b[key] as unknown[]).forEach((x) => kept.add(x));
          continue;
        }
        // A behavior of a rewound task: its tests and their evidence went back with the branch.
        const gone = take(b, [...ALIASES.tests, ...ALIASES.evidence], () => true);
        gone.forEach((x) => back.add(x));
        if (gone.length) touched.push(bid);
      }
      const dropped = take(req, [...ALIASES.tests, ...ALIASES.evidence], (x) => (back.has(x) || theirs(x)) && !kept.has(x));
      if (dropped.length) touched.push(id);
    }
    if (touched.length) writeFileAtomic(path, toJsonText(root));
    return touched;
  });
}
