import { isNode, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';

const list = z.array(z.string()).nullish().transform((v) => v ?? []);

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
  config: z.looseObject({
    max_retries: z.number().int().min(0).optional(),
    timeout_minutes: z.number().positive().optional(),
  }).nullish(),
});
export type WorkflowStep = z.infer<typeof WorkflowStepSchema>;

export const WorkflowSchema = z.looseObject({
  defaults: z.looseObject({
    pipeline_type: z.string().optional(),
    max_retries: z.number().int().min(0).optional(),
    timeout_minutes: z.number().positive().optional(),
  }).nullish(),
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
  const raw = doc.toJS() ?? {};
  const result = WorkflowSchema.safeParse(raw);
  if (result.success) return { workflow: result.data, diagnostics: [] };
  return {
    diagnostics: result.error.issues.map((issue) => {
      const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
      let node: unknown;
      for (let n = path.length; n > 0 && !isNode(node); n--) node = doc.getIn(path.slice(0, n), true);
      const offset = isNode(node) && node.range ? node.range[0] : 0;
      const pos = lineCounter.linePos(offset);
      return diagnostic(file, `${file}: "${path.join('.')}": ${issue.message}`, { line: pos.line, column: pos.col }, 'error', 'schema');
    }),
  };
}
