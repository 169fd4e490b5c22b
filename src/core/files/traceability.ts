import { z } from 'zod';
import { REQUIREMENT_ID_PATTERN } from './vocabulary';

const refs = z.array(z.string());

/**
 * Loom accepts aliases for the three reference lists; they are folded into the canonical names
 * here so that the rest of the core sees one shape.
 */
function withAliases(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const v = value as Record<string, unknown>;
  const pick = (...names: string[]) => names.map((n) => (Object.hasOwn(v, n) ? v[n] : undefined)).find((x) => x !== undefined);
  const out: Record<string, unknown> = { ...v };
  for (const alias of ['task_ids', 'test_refs', 'test_ids', 'evidence_refs', 'receipts']) delete out[alias];
  out.tasks = pick('tasks', 'task_ids') ?? [];
  out.tests = pick('tests', 'test_refs', 'test_ids') ?? [];
  out.evidence = pick('evidence', 'evidence_refs', 'receipts') ?? [];
  return out;
}

export const BehaviorTraceSchema = z.preprocess(withAliases, z.looseObject({ tasks: refs, tests: refs, evidence: refs }));
export type BehaviorTrace = z.infer<typeof BehaviorTraceSchema>;

const entryBody = {
  tasks: refs,
  tests: refs,
  evidence: refs,
  behaviors: z.record(z.string(), BehaviorTraceSchema).optional(),
};
const requirementId = z.string().regex(REQUIREMENT_ID_PATTERN, 'requirement id must look like REQ-001');
export const TraceEntrySchema = z.preprocess(withAliases, z.looseObject({ id: requirementId, ...entryBody }));
export const TraceEntryWithoutIdSchema = z.preprocess(withAliases, z.looseObject(entryBody));
export type TraceEntry = z.infer<typeof TraceEntrySchema>;

export const TraceabilityFileSchema = z.object({
  requirements: z.union([z.array(TraceEntrySchema), z.record(requirementId, TraceEntryWithoutIdSchema)]),
});
export type TraceabilityFile = z.infer<typeof TraceabilityFileSchema>;

export interface TraceabilityLedger {
  form: 'array' | 'object';
  requirements: TraceEntry[];
}

export function normalizeTraceability(file: TraceabilityFile): TraceabilityLedger {
  if (Array.isArray(file.requirements)) return { form: 'array', requirements: file.requirements };
  return { form: 'object', requirements: Object.entries(file.requirements).map(([id, e]) => ({ id, ...e })) };
}

/** `tests/a.test.ts#name` and `tests/a_test.py::name` both point at a file plus a test name. */
export function splitTestRef(ref: string): { file: string; name?: string } {
  const colons = ref.indexOf('::');
  const hash = ref.indexOf('#');
  const cut = [colons, hash].filter((n) => n > 0).sort((a, b) => a - b)[0];
  if (cut === undefined) return { file: ref };
  const sep = ref.startsWith('::', cut) ? 2 : 1;
  return { file: ref.slice(0, cut), name: ref.slice(cut + sep) || undefined };
}

export const TRACEABILITY_FILE = 'traceability.json';
