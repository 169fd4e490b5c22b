import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { describePath, schemaProblems } from '../diagnostics/zodIssues';

const list = z
  .array(z.string())
  .nullish()
  .transform((v) => v ?? []);

export const WorkflowStepSchema = z.looseObject({
  id: z.string().min(1),
  skill: z.string().nullish(),
  next: z.string().nullish(),
  requires: list,
  outputs: list,
  gate: z.string().nullish(),
  gate_verdict: z.string().nullish(),
  evidence_required: z.boolean().nullish(),
  validators: list,
  approval_requires: list,
  config: z
    .looseObject({
      max_retries: z.number().int().min(0).optional(),
      timeout_minutes: z.number().positive().optional(),
    })
    .nullish(),
});
export type WorkflowStep = z.infer<typeof WorkflowStepSchema>;

export const WorkflowSchema = z.looseObject({
  defaults: z
    .looseObject({
      pipeline_type: z.string().optional(),
      max_retries: z.number().int().min(0).optional(),
      timeout_minutes: z.number().positive().optional(),
    })
    .nullish(),
  pipelines: z.record(z.string(), z.looseObject({ steps: z.array(WorkflowStepSchema) })).nullish(),
});
export type Workflow = z.infer<typeof WorkflowSchema>;

export const WORKFLOW_FILE = '.loom/workflow.yaml';

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_TIMEOUT_MINUTES = 30;

export function parseWorkflow(file: string, text: string): { workflow?: Workflow; diagnostics: Diagnostic[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length) {
    return {
      diagnostics: doc.errors.map((e) => {
        const pos = lineCounter.linePos(e.pos[0]);
        return diagnostic(file, `${file} is not valid YAML: ${e.message.split('\n')[0]}`, { line: pos.line, column: pos.col }, 'error', 'yaml-syntax');
      }),
    };
  }
  let raw: unknown;
  try {
    raw = doc.toJS() ?? {};
  } catch (e) {
    // toJS throws on alias bombs and similar; a bad file must never stop the others from loading.
    return { diagnostics: [diagnostic(file, `${file} is not valid YAML: ${(e as Error).message}`, {}, 'error', 'yaml-syntax')] };
  }
  const result = WorkflowSchema.safeParse(raw);
  if (result.success) return { workflow: result.data, diagnostics: [] };
  return {
    diagnostics: schemaProblems(result.error.issues).map(({ path, message }) => {
      const pos = lineCounter.linePos(offsetOfKey(doc.contents, path));
      return diagnostic(file, `${file}: ${describePath(path)}: ${message}`, { line: pos.line, column: pos.col }, 'error', 'schema');
    }),
  };
}

/** Offset of the key that holds the value at `path` (of the item, in a list); the nearest existing ancestor otherwise. */
function offsetOfKey(root: unknown, path: readonly (string | number)[]): number {
  let node = root;
  let offset = isNode(node) && node.range ? node.range[0] : 0;
  for (const segment of path) {
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(segment));
      if (!pair) break;
      if (isNode(pair.key) && pair.key.range) offset = pair.key.range[0];
      next = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      next = node.items[segment];
      if (!isNode(next) || !next.range) break;
      offset = next.range[0];
    } else break;
    node = next;
  }
  return offset;
}
