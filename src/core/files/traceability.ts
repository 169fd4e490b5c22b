import type { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';
import { t } from '../messages';
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

export interface TraceabilityLedger {
  form: 'array' | 'object';
  requirements: TraceEntry[];
}

export function normalizeTraceability(file: TraceabilityFile): TraceabilityLedger {
  if (Array.isArray(file.requirements)) return { form: 'array', requirements: file.requirements };
  // In the object form the key is the id, whatever the entry itself says.
  return { form: 'object', requirements: Object.entries(file.requirements).map(([id, e]) => ({ ...e, id })) };
}

/** `tests/a.test.ts#name` and `tests/a_test.py::name` both point at a file plus a test name. */
export function splitTestRef(raw: string): { file: string; name?: string } {
  const ref = raw.trim();
  const colons = ref.indexOf('::');
  const hash = ref.indexOf('#');
  const cut = [colons, hash].filter((n) => n > 0).sort((a, b) => a - b)[0];
  if (cut === undefined) return { file: ref };
  const sep = ref.startsWith('::', cut) ? 2 : 1;
  return { file: ref.slice(0, cut).trim(), name: ref.slice(cut + sep).trim() || undefined };
}

export const TRACEABILITY_FILE = 'traceability.json';
