/**
 * Turns the zod schemas of loom's files (src/core/files/) into the JSON Schemas in `schemas/`,
 * which VS Code uses to validate and complete loom files as they are edited.
 *
 * The schemas describe what loom *accepts* (zod's `input` side): aliases, lone strings where a
 * list is expected, and keys that have a default all pass, so a valid loom file is never flagged.
 * `schemas/pipeline.schema.json` is loom's own file, copied verbatim, and is not generated here.
 */
import { z } from 'zod';
import { ArtifactAnalysisSchema, ConvergenceReportSchema, FindingSchema, FindingsFileSchema } from '../src/core/files/findings';
import { HandoffSchema } from '../src/core/files/handoff';
import { PipelineStateSchema, StageHistoryEntrySchema } from '../src/core/files/pipelineState';
import { BehaviorSchema, RequirementEntrySchema, RequirementSchema, RequirementsFileSchema, TestPlanSchema } from '../src/core/files/requirements';
import { TaskFrontmatterSchema } from '../src/core/files/taskFile';
import { TaskStateSchema } from '../src/core/files/taskState';
import { BehaviorTraceSchema, TraceabilityFileSchema, TraceEntrySchema, TraceEntryWithoutIdSchema } from '../src/core/files/traceability';
import { WorkflowSchema, WorkflowStepSchema } from '../src/core/files/workflow';

type JsonSchema = z.core.JSONSchema.BaseSchema;

export const SCHEMA_ID_BASE = 'https://loom-vscode/schemas/';
const GENERATED_NOTE = 'Generated from the zod schemas in src/core/files/ by `npm run schemas`; do not edit by hand.';

interface SchemaTarget {
  file: string;
  title: string;
  description: string;
  schema: z.core.$ZodType;
}

/** One JSON Schema per kind of loom file, in the order they are written. */
export const SCHEMA_TARGETS: readonly SchemaTarget[] = [
  {
    file: 'requirements.schema.json',
    title: 'loom requirements ledger',
    description:
      "A spec directory's requirements.json (specs/<name>/ or qa/<name>/): an array of requirements with `id`, or an object keyed by REQ id. Accepts the `test_plan` and `applicability` that detail expansion adds to behaviors.",
    schema: RequirementsFileSchema(),
  },
  {
    file: 'traceability.schema.json',
    title: 'loom traceability ledger',
    description:
      "A spec directory's traceability.json: requirement → tasks, tests, evidence, per requirement and per behavior. Accepts loom's aliases `task_ids`, `test_refs` / `test_ids` and `evidence_refs` / `receipts`.",
    schema: TraceabilityFileSchema(),
  },
  {
    file: 'task-frontmatter.schema.json',
    title: 'loom task frontmatter',
    description: 'The YAML frontmatter of a task file, tasks/TN.md. Lists may be inline or block lists, a lone string, or empty.',
    schema: TaskFrontmatterSchema(),
  },
  {
    file: 'handoff.schema.json',
    title: 'loom handoff',
    description: "A hand-over summary in a spec directory's handoffs/: handoffs/<stage>.json between stages, handoffs/TN.json after a task.",
    schema: HandoffSchema(),
  },
  {
    file: 'pipeline-state.schema.json',
    title: 'loom pipeline state',
    description: "A spec directory's pipeline.state.json: the current stage of the feature's pipeline and its stage history.",
    schema: PipelineStateSchema(),
  },
  {
    file: 'task-state.schema.json',
    title: 'loom task state',
    description: 'The execution state of one task, task-states/TN.state.json in a spec directory.',
    schema: TaskStateSchema(),
  },
  {
    file: 'workflow.schema.json',
    title: 'loom workflow',
    description: "The repository's .loom/workflow.yaml: defaults and the steps of each pipeline type.",
    schema: WorkflowSchema(),
  },
  {
    file: 'findings.schema.json',
    title: 'loom findings',
    description: "A findings file in a spec directory's findings/ (findings/*.json).",
    schema: FindingsFileSchema(),
  },
  {
    file: 'artifact-analysis.schema.json',
    title: 'loom artifact analysis',
    description: "A spec directory's artifact-analysis.json, written by the artifact-analysis-pass validator.",
    schema: ArtifactAnalysisSchema(),
  },
  {
    file: 'convergence-report.schema.json',
    title: 'loom convergence report',
    description: "A spec directory's convergence-report.json, written by the convergence-pass validator.",
    schema: ConvergenceReportSchema(),
  },
];

/**
 * Shared parts become `definitions` under these names (loom's published schemas use the same
 * ones), instead of being inlined at every use.
 */
const DEFINITION_NAMES: ReadonlyMap<z.core.$ZodType, string> = new Map<z.core.$ZodType, string>([
  [RequirementSchema(), 'requirement'],
  [RequirementEntrySchema(), 'requirementEntry'],
  [BehaviorSchema(), 'behavior'],
  [TestPlanSchema(), 'testPlan'],
  [TraceEntrySchema(), 'traceabilityEntry'],
  [TraceEntryWithoutIdSchema(), 'traceabilityEntryWithoutId'],
  [BehaviorTraceSchema(), 'behaviorTraceability'],
  [FindingSchema(), 'finding'],
  [StageHistoryEntrySchema(), 'stageHistoryEntry'],
  [WorkflowStepSchema(), 'workflowStep'],
]);

/**
 * Names definitions without hiding metadata that the source schemas may carry in zod's global
 * registry (`.describe()`, `.meta()`): passing a plain registry to `toJSONSchema` would replace it.
 */
class DefinitionNames extends z.core.$ZodRegistry<z.core.JSONSchemaMeta> {
  override get<S extends z.core.$ZodType>(schema: S): z.core.JSONSchemaMeta | undefined {
    const meta = z.globalRegistry.get(schema);
    const id = DEFINITION_NAMES.get(schema);
    return id === undefined ? meta : { ...meta, id };
  }
}

/**
 * The aliases loom accepts for traceability's three reference lists. traceability.ts folds them
 * into the canonical names; when it does so in a `z.preprocess` step, the input side zod converts
 * is the schema *after* folding: only the canonical names, all three required, so every file using
 * an alias would be flagged. The unit test checks this table against what TraceabilityFileSchema
 * parses.
 */
export const TRACEABILITY_ALIASES: Readonly<Record<'tasks' | 'tests' | 'evidence', readonly string[]>> = {
  tasks: ['task_ids'],
  tests: ['test_refs', 'test_ids'],
  evidence: ['evidence_refs', 'receipts'],
};
const TRACE_DEFINITIONS = [BehaviorTraceSchema(), TraceEntrySchema(), TraceEntryWithoutIdSchema()].map((s) => DEFINITION_NAMES.get(s)!);

/**
 * Declares the aliases next to their canonical list and makes none of the lists required (a missing
 * list is empty). Runs on zod's finished output, not in its `override` hook: there, child schemas
 * that zod shares between properties may not be filled in yet. Aliases the zod schema already
 * declares are left as they are.
 */
function acceptTraceabilityAliases(json: JsonSchema): void {
  // zod types `definitions` loosely; draft-07 output puts its definitions there.
  const definitions = (json.definitions ?? {}) as Record<string, JsonSchema | boolean>;
  for (const name of TRACE_DEFINITIONS) {
    const definition = definitions[name];
    if (typeof definition !== 'object') continue;
    const declared = definition.properties ?? {};
    const properties: Record<string, JsonSchema> = {};
    for (const [key, value] of Object.entries(declared)) {
      if (Object.hasOwn(properties, key)) continue;
      const aliases = Object.hasOwn(TRACEABILITY_ALIASES, key) ? TRACEABILITY_ALIASES[key as keyof typeof TRACEABILITY_ALIASES] : [];
      if (!aliases.length || typeof value !== 'object') {
        properties[key] = value as JsonSchema;
        continue;
      }
      properties[key] = { description: `Also accepted as ${aliases.map((a) => `\`${a}\``).join(' or ')}; empty when absent.`, ...value };
      for (const alias of aliases) {
        const own = declared[alias];
        properties[alias] = { description: `Alias of \`${key}\`.`, ...(typeof own === 'object' ? own : value) };
      }
    }
    definition.properties = properties;
    const required = (definition.required ?? []).filter((key) => !Object.hasOwn(TRACEABILITY_ALIASES, key));
    if (required.length) definition.required = required;
    else delete definition.required;
  }
}

/** Keyword order in the output; keywords not listed follow in alphabetical order. */
const KEYWORD_ORDER = [
  '$schema',
  '$id',
  '$ref',
  'title',
  'description',
  'type',
  'const',
  'enum',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'items',
  'propertyNames',
  'properties',
  'required',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'default',
  'definitions',
];
/** Keywords whose value maps names to schemas, rather than being a schema itself. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions']);

function keywordRank(key: string): number {
  const i = KEYWORD_ORDER.indexOf(key);
  return i === -1 ? KEYWORD_ORDER.length : i;
}

/**
 * Puts keywords in a fixed order so that output depends only on the zod schemas, not on the order
 * in which zod happens to emit keywords. Property names keep their declaration order (the order a
 * reader expects); definitions are sorted by name.
 */
function canonicalize(value: unknown, keyIsSchemaMap = false, sortMap = false): unknown {
  if (Array.isArray(value)) return value.map((item) => canonicalize(item));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (keyIsSchemaMap) {
    if (sortMap) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([name, schema]) => [name, canonicalize(schema)]));
  }
  entries.sort(([a], [b]) => keywordRank(a) - keywordRank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, child]) => [key, canonicalize(child, SCHEMA_MAPS.has(key), key === 'definitions')]));
}

export function generateSchema(target: SchemaTarget): JsonSchema {
  const json = z.toJSONSchema(target.schema, {
    target: 'draft-07',
    io: 'input',
    metadata: new DefinitionNames(),
  });
  if (target.schema === TraceabilityFileSchema()) acceptTraceabilityAliases(json);
  return canonicalize({
    ...json,
    $id: SCHEMA_ID_BASE + target.file,
    title: target.title,
    description: `${target.description} ${GENERATED_NOTE}`,
  }) as JsonSchema;
}

/** File name in `schemas/` → file text, exactly as `npm run schemas` writes it. */
export function generateSchemas(): Map<string, string> {
  const files = new Map<string, string>();
  for (const target of SCHEMA_TARGETS) files.set(target.file, `${JSON.stringify(generateSchema(target), null, 2)}\n`);
  return files;
}
