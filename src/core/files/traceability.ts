import type { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';
import { t } from '../messages';
import { isPlainObject, isStringList } from './plainShapes';
import { REQUIREMENT_ID_PATTERN } from './vocabulary';

/**
 * Loom accepts aliases for the three reference lists. They are validated under their own names, so
 * a problem points at the key the file really has, then folded into the canonical names so that
 * the rest of the core sees one shape.
 */
const referenceLists = lazySchema((z) => {
  const refs = z.array(z.string());
  return {
    tasks: refs.optional(),
    task_ids: refs.optional(),
    tests: refs.optional(),
    test_refs: refs.optional(),
    test_ids: refs.optional(),
    evidence: refs.optional(),
    evidence_refs: refs.optional(),
    receipts: refs.optional(),
  };
});

type ReferenceLists = { [K in keyof ReturnType<typeof referenceLists>]?: string[] };

/** A behavior's trace, with the reference lists under their canonical names. Unknown keys are kept. */
export interface BehaviorTrace {
  [key: string]: unknown;
  tasks: string[];
  tests: string[];
  evidence: string[];
}
interface TraceEntryBody extends BehaviorTrace {
  behaviors?: Record<string, BehaviorTrace>;
}
export interface TraceEntry extends TraceEntryBody {
  id: string;
}

function foldAliases(value: ReferenceLists & Record<string, unknown>): BehaviorTrace {
  const { task_ids, test_refs, test_ids, evidence_refs, receipts, ...rest } = value;
  return {
    ...rest,
    tasks: value.tasks ?? task_ids ?? [],
    tests: value.tests ?? test_refs ?? test_ids ?? [],
    evidence: value.evidence ?? evidence_refs ?? receipts ?? [],
  };
}

export const BehaviorTraceSchema = lazySchema((z) => z.looseObject(referenceLists()).transform(foldAliases));

const entryBody = lazySchema((z) => ({
  ...referenceLists(),
  behaviors: z.record(z.string(), BehaviorTraceSchema()).optional(),
}));
const requirementId = lazySchema((z) => z.string().regex(REQUIREMENT_ID_PATTERN, { error: () => t('files.requirementIdPattern') }));
export const TraceEntrySchema = lazySchema((z) => z.looseObject({ id: requirementId(), ...entryBody() }).transform((v) => foldAliases(v) as TraceEntry));
export const TraceEntryWithoutIdSchema = lazySchema((z) => z.looseObject(entryBody()).transform((v) => foldAliases(v) as TraceEntryBody));

export const TraceabilityFileSchema = lazySchema((z) =>
  z.object({
    requirements: z.union([z.array(TraceEntrySchema()), z.record(requirementId(), TraceEntryWithoutIdSchema())]),
  }),
);
export type TraceabilityFile = z.infer<ReturnType<typeof TraceabilityFileSchema>>;

/** The reference lists' keys, in the order the schemas declare them (the order zod's output has them in). */
const REFERENCE_LISTS = ['tasks', 'task_ids', 'tests', 'test_refs', 'test_ids', 'evidence', 'evidence_refs', 'receipts'];
const ENTRY_KEYS = [...REFERENCE_LISTS, 'behaviors'];

/**
 * A loose object as zod's looseObject of reference lists (and `behaviors`, for an entry) gives it:
 * the declared keys present, in their declared order, then the others as they are; undefined when
 * a declared key holds something else.
 */
function plainLists(value: Record<string, unknown>, keys: readonly string[]): (ReferenceLists & Record<string, unknown>) | undefined {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    if (!Object.hasOwn(value, key)) continue;
    const v = value[key];
    if (key === 'behaviors') {
      if (!isPlainObject(v)) return undefined;
      const behaviors: Record<string, BehaviorTrace> = {};
      for (const id of Object.keys(v)) {
        const b = v[id];
        const lists = isPlainObject(b) ? plainLists(b, REFERENCE_LISTS) : undefined;
        if (!lists) return undefined;
        behaviors[id] = foldAliases(lists);
      }
      out.behaviors = behaviors;
    } else if (isStringList(v)) out[key] = [...v];
    else return undefined;
  }
  for (const key of Object.keys(value)) if (!keys.includes(key)) out[key] = value[key];
  return out;
}

/**
 * traceability.json as TraceabilityFileSchema would give it, when the JSON value is plainly in the
 * object form loom writes (`requirements` keyed by id, each entry's lists of strings, its behaviors
 * keyed by id); undefined for anything else (the array form too), which zod then checks and words.
 * A status run reads a thousand of them at a thousand specs, and zod's union of the two forms, of
 * loose objects folded by a transform, took about a tenth of a millisecond each; the answers are
 * zod's, key order included (test/unit/files/traceability.test.ts compares the two).
 */
export function plainTraceabilityFile(raw: unknown): TraceabilityFile | undefined {
  if (!isPlainObject(raw) || !isPlainObject(raw.requirements)) return undefined;
  const requirements: Record<string, TraceEntryBody> = {};
  for (const id of Object.keys(raw.requirements)) {
    const entry = raw.requirements[id];
    if (!REQUIREMENT_ID_PATTERN.test(id) || !isPlainObject(entry)) return undefined;
    const lists = plainLists(entry, ENTRY_KEYS);
    if (!lists) return undefined;
    requirements[id] = foldAliases(lists) as TraceEntryBody;
  }
  return { requirements } as TraceabilityFile;
}

export interface TraceabilityLedger {
  form: 'array' | 'object';
  requirements: TraceEntry[];
}

export function normalizeTraceability(file: TraceabilityFile): TraceabilityLedger {
  if (Array.isArray(file.requirements)) return { form: 'array', requirements: file.requirements };
  // In the object form the key is the id, whatever the entry itself says.
  return { form: 'object', requirements: Object.entries(file.requirements).map(([id, e]) => ({ ...e, id })) };
}

// Shared with the matrix webview, which names a test from its ref.
export { splitTestRef } from '../../shared/testRef';

export const TRACEABILITY_FILE = 'traceability.json';
