import type * as Yaml from 'yaml';
import type { z } from 'zod';
import { lazily } from '../../shared/lazily';
import { lazySchema } from '../../shared/lazySchema';
import { diagnostic, type Diagnostic, type Severity } from '../diagnostics/diagnostic';
import { t, type MessageKey } from '../messages';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see lazily); esbuild bundles it as it bundles an import
const yaml = lazily(() => require('yaml') as typeof Yaml);

/** One step of a pipeline, with its fields read the way loom's engine reads them. */
export interface WorkflowStep {
  id: string;
  skill?: string | null;
  /** Kept for display only: loom's engine ignores it and goes through the steps in list order. */
  next?: string | null;
  requires: string[];
  outputs: string[];
  gate?: string | null;
  gate_verdict?: string | null;
  /** Only `true` requires an evidence receipt (loom compares with `=== true`). */
  evidence_required?: boolean | null;
  validators: string[];
  approval_requires: string[];
  config?: { max_retries?: number; timeout_minutes?: number; [key: string]: unknown } | null;
  [key: string]: unknown;
}

export interface WorkflowDefaults {
  pipeline_type?: string;
  max_retries?: number;
  timeout_minutes?: number;
  [key: string]: unknown;
}

export interface Workflow {
  defaults?: WorkflowDefaults | null;
  /** Every pipeline as `{ steps }`, whether the file gave a bare list or a `steps:` key. */
  pipelines?: Record<string, { steps: WorkflowStep[]; [key: string]: unknown }> | null;
  [key: string]: unknown;
}

/** A count as loom's files write it: a number, or a number in quotes. */
const countInput = lazySchema((z) =>
  z.union([
    z.number().min(0),
    z
      .string()
      .regex(/^\s*\d+(\.\d+)?\s*$/)
      .transform(Number),
  ]),
);

/**
 * A step given as data rather than in workflow.yaml (a spec's `dynamic_steps`, a tool's
 * arguments), read with the same leniency as the file: a number id or path is text.
 */
export const WorkflowStepSchema = lazySchema((z): z.ZodType<WorkflowStep, unknown> => {
  const stepList = z
    .array(z.union([z.string(), z.number().transform(String)]))
    .nullish()
    .transform((v) => v ?? []);
  return z
    .looseObject({
      id: z.union([z.string().min(1), z.number().transform(String)]),
      skill: z.string().nullish(),
      next: z.string().nullish(),
      requires: stepList,
      outputs: stepList,
      gate: z.string().nullish(),
      gate_verdict: z.string().nullish(),
      evidence_required: z
        .any()
        .optional()
        .transform((v: unknown) => (v === undefined || v === null ? v : v === true)),
      validators: stepList,
      approval_requires: stepList,
      config: z.looseObject({ max_retries: countInput().optional(), timeout_minutes: countInput().optional() }).nullish(),
    })
    .transform((s) => s as WorkflowStep);
});

/**
 * The shape of .loom/workflow.yaml for editors (schemas/workflow.schema.json): what loom's
 * loadWorkflow accepts. The file itself is read by parseWorkflow, which says why a part is refused.
 */
export const WorkflowSchema = lazySchema((z) =>
  z.looseObject({
    defaults: z.looseObject({ pipeline_type: z.string().optional(), max_retries: countInput().optional(), timeout_minutes: countInput().optional() }).nullish(),
    pipelines: z.record(z.string(), z.union([z.array(WorkflowStepSchema()), z.looseObject({ steps: z.array(WorkflowStepSchema()) })])).optional(),
  }),
);

export { WORKFLOW_FILE } from './vocabulary';

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_TIMEOUT_MINUTES = 30;

const LIST_KEYS = ['requires', 'outputs', 'validators', 'approval_requires'] as const;

type Path = readonly (string | number)[];

/**
 * Reads a workflow the way loom's `loadWorkflow` does: a pipeline is a bare list of steps or a
 * mapping with `steps:`, every step needs an `id`, and everything else is read as loom's engine
 * uses it (a quoted `max_retries: "3"` is a number; `evidence_required` counts only when `true`).
 * What loom refuses, or would misread (a string where a list belongs), is an error and the
 * workflow is not returned: no spec is then driven by a pipeline other than the one loom drives.
 * What loom reads in its own way is a warning the user sees, and the workflow is returned.
 */
export function parseWorkflow(file: string, text: string): { workflow?: Workflow; diagnostics: Diagnostic[] } {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length) {
    return {
      diagnostics: doc.errors.map((e) => {
        const pos = lineCounter.linePos(e.pos[0]);
        return diagnostic(file, t('workflow.yamlSyntax', { file, detail: e.message.split('\n')[0] }), { line: pos.line, column: pos.col }, 'error', 'yaml-syntax');
      }),
    };
  }
  let raw: unknown;
  try {
    raw = doc.toJS();
  } catch (e) {
    // toJS throws on alias bombs and similar; a bad file must never stop the others from loading.
    return { diagnostics: [diagnostic(file, t('workflow.yamlSyntax', { file, detail: (e as Error).message }), {}, 'error', 'yaml-syntax')] };
  }
  const reader = new WorkflowReader(file, doc, lineCounter);
  const workflow = reader.read(raw);
  return { ...(reader.failed ? {} : { workflow }), diagnostics: reader.diagnostics };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class WorkflowReader {
  readonly diagnostics: Diagnostic[] = [];
  failed = false;

  constructor(
    private readonly file: string,
    private readonly doc: Yaml.Document,
    private readonly lines: Yaml.LineCounter,
  ) {}

  private report(severity: Severity, path: Path, text: string, code = 'schema'): void {
    if (severity === 'error') this.failed = true;
    const pos = this.lines.linePos(offsetOfKey(this.doc.contents, path));
    this.diagnostics.push(diagnostic(this.file, text, { line: pos.line, column: pos.col }, severity, code));
  }

  private say<K extends MessageKey>(severity: Severity, path: Path, key: K, params: Record<string, string | number>): void {
    this.report(severity, path, (t as (k: MessageKey, p: Record<string, string | number>) => string)(key, { file: this.file, ...params }));
  }

  read(raw: unknown): Workflow {
    const file = this.file;
    // loom's loadWorkflow throws "Failed to parse workflow" on an empty file (or only comments),
    // and loom run (which needs pipelines) "Failed to parse any pipelines" on one without any.
    if (raw === undefined || raw === null) {
      this.say('error', [], 'workflow.empty', { file });
      return {};
    }
    if (!isRecord(raw)) {
      this.say('error', [], 'workflow.notMapping', { file });
      return {};
    }
    const workflow: Workflow = { ...raw };
    if (raw.defaults !== undefined && raw.defaults !== null) workflow.defaults = this.defaults(raw.defaults);
    const pipelines = raw.pipelines;
    if (pipelines === undefined || pipelines === null || (isRecord(pipelines) && Object.keys(pipelines).length === 0)) {
      this.say('error', pipelines === undefined ? [] : ['pipelines'], 'workflow.noPipelines', { file });
      return workflow;
    }
    if (!isRecord(pipelines)) {
      this.say('error', ['pipelines'], 'workflow.pipelinesNotMapping', { file });
      return workflow;
    }
    const read: NonNullable<Workflow['pipelines']> = {};
    for (const [name, value] of Object.entries(pipelines)) {
      const list = Array.isArray(value) ? value : isRecord(value) && Array.isArray(value.steps) ? value.steps : undefined;
      const at: Path = ['pipelines', name, ...(Array.isArray(value) ? [] : ['steps'])];
      if (!list) {
        // loom's normalizePipelines makes it an empty list: the specs of this type follow no steps.
        this.say('warning', ['pipelines', name], 'workflow.pipelineNotList', { pipeline: name });
        read[name] = { ...(isRecord(value) ? value : {}), steps: [] };
        continue;
      }
      const steps_ = list.map((step, i) => ({ step: this.step(name, step, [...at, i]), at: [...at, i] as Path })).filter((s): s is { step: WorkflowStep; at: Path } => s.step !== undefined);
      this.nextAgainstOrder(steps_);
      const steps = steps_.map((s) => s.step);
      read[name] = { ...(isRecord(value) ? value : {}), steps };
    }
    workflow.pipelines = read;
    return workflow;
  }

  private defaults(raw: unknown): WorkflowDefaults {
    if (!isRecord(raw)) return {};
    const out: WorkflowDefaults = { ...raw };
    delete out.pipeline_type;
    if (typeof raw.pipeline_type === 'string' && raw.pipeline_type) out.pipeline_type = raw.pipeline_type;
    this.count(out, raw, 'max_retries', ['defaults'], DEFAULT_MAX_RETRIES, true);
    this.count(out, raw, 'timeout_minutes', ['defaults'], DEFAULT_TIMEOUT_MINUTES, false);
    return out;
  }

  /**
   * `max_retries` and `timeout_minutes` are the extension's (loom's engine reads neither): a
   * number or a number in quotes; anything else is said and the default used.
   */
  private count(out: Record<string, unknown>, raw: Record<string, unknown>, key: 'max_retries' | 'timeout_minutes', at: Path, fallback: number, zeroAllowed: boolean): void {
    delete out[key];
    const value = raw[key];
    if (value === undefined || value === null) return;
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    const fits = Number.isFinite(n) && (key === 'max_retries' ? Number.isInteger(n) : true) && (zeroAllowed ? n >= 0 : n > 0);
    if (fits) out[key] = n;
    else this.say('warning', [...at, key], 'workflow.notCount', { key: [...at, key].join('.'), value: JSON.stringify(value), fallback });
  }

  private step(pipeline: string, raw: unknown, at: Path): WorkflowStep | undefined {
    const id = isRecord(raw) ? raw.id : undefined;
    // loomWorkflow's check is `!step.id`: a number is an id, an empty string is not.
    if (!isRecord(raw) || !(typeof id === 'string' || typeof id === 'number') || id === '' || id === 0) {
      this.say('error', isRecord(raw) ? at : at.slice(0, -1), 'workflow.stepWithoutId', { pipeline });
      return undefined;
    }
    const step = { ...raw, id: String(id) } as WorkflowStep;
    for (const key of LIST_KEYS) step[key] = this.list(raw[key], step.id, [...at, key], key);
    for (const key of ['skill', 'next', 'gate'] as const) {
      const v = raw[key];
      step[key] = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : v === null ? null : undefined;
      if (step[key] === undefined) delete step[key];
    }
    const verdict = raw.gate_verdict;
    if (typeof verdict === 'string' || typeof verdict === 'number') step.gate_verdict = String(verdict);
    else if (verdict !== undefined && verdict !== null) {
      this.say('error', [...at, 'gate_verdict'], 'workflow.notFileName', { step: step.id });
      delete step.gate_verdict;
    }
    const evidence = raw.evidence_required;
    if (evidence !== undefined && evidence !== null && typeof evidence !== 'boolean') {
      this.say('warning', [...at, 'evidence_required'], 'workflow.evidenceNotBoolean', { step: step.id, value: JSON.stringify(evidence) });
      step.evidence_required = false;
    }
    if (isRecord(raw.config)) {
      const config: Record<string, unknown> = { ...raw.config };
      this.count(config, raw.config, 'max_retries', [...at, 'config'], DEFAULT_MAX_RETRIES, true);
      this.count(config, raw.config, 'timeout_minutes', [...at, 'config'], DEFAULT_TIMEOUT_MINUTES, false);
      step.config = config;
    } else if (raw.config !== undefined) step.config = null;
    return step;
  }

  private list(value: unknown, step: string, at: Path, key: string): string[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.say('error', at, 'workflow.notList', { key, step });
      return [];
    }
    const out: string[] = [];
    value.forEach((item, i) => {
      if (typeof item === 'string') out.push(item);
      else if (typeof item === 'number') out.push(String(item));
      else
        this.say('error', [...at, i], 'workflow.notPath', {
          key,
          step,
          kind: item === null ? 'null' : Array.isArray(item) ? t('files.aList') : typeof item === 'object' ? t('files.aMapping') : String(item),
        });
    });
    return out;
  }

  /** loom's engine follows the list (nextStep is the step after); a `next` that says otherwise is said. */
  private nextAgainstOrder(steps: { step: WorkflowStep; at: Path }[]): void {
    steps.forEach(({ step, at }, i) => {
      if (typeof step.next !== 'string' || !step.next) return;
      const actual = steps[i + 1]?.step.id;
      if (step.next === actual) return;
      const where: Path = [...at, 'next'];
      if (actual === undefined) this.say('warning', where, 'workflow.nextIgnoredLast', { step: step.id, next: step.next });
      else this.say('warning', where, 'workflow.nextIgnored', { step: step.id, next: step.next, actual });
    });
  }
}

/** Offset of the key that holds the value at `path` (of the item, in a list); the nearest existing ancestor otherwise. */
function offsetOfKey(root: unknown, path: readonly (string | number)[]): number {
  const { isMap, isNode, isScalar, isSeq } = yaml();
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
