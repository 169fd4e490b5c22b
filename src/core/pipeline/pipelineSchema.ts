import type { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';
import bundledSchema from '../../../schemas/pipeline.schema.json';

/** The parts of loom's `pipeline.schema.json` the extension relies on; the rest is kept as-is. */
const PreconditionSchema = lazySchema((z) => z.looseObject({ type: z.string(), description: z.string().optional(), check: z.string().optional() }));
const OutputSchema = lazySchema((z) => z.looseObject({ path: z.string(), action: z.string().optional(), note: z.string().optional() }));

export const PipelineStateDefinitionSchema = lazySchema((z) =>
  z.looseObject({
    step: z.number().nullable().optional(),
    skill: z.string().nullable().optional(),
    description: z.string().optional(),
    allowedTransitions: z.array(z.string()).default([]),
    preconditions: z.array(PreconditionSchema()).default([]),
    outputs: z.array(OutputSchema()).default([]),
    reads: z.array(z.string()).default([]),
    interactive: z.boolean().default(false),
    autoTransition: z.boolean().optional(),
    retryOnFail: z.looseObject({ target: z.string(), condition: z.string().optional() }).optional(),
  }),
);
export type PipelineStateDefinition = z.infer<ReturnType<typeof PipelineStateDefinitionSchema>>;

export const PipelineSchemaFileSchema = lazySchema((z) =>
  z.looseObject({
    version: z.number().optional(),
    states: z.record(z.string(), PipelineStateDefinitionSchema()),
    transitions: z.array(z.looseObject({ from: z.string(), to: z.string(), trigger: z.string().optional(), description: z.string().optional() })).default([]),
    progressFileFormat: z
      .looseObject({
        statusValues: z.record(z.string(), z.looseObject({ symbol: z.string(), label: z.string().optional() })).optional(),
      })
      .optional(),
  }),
);
export type PipelineSchemaFile = z.infer<ReturnType<typeof PipelineSchemaFileSchema>>;

/**
 * loom's pipeline definition as shipped in `schemas/pipeline.schema.json`: our own file, in the
 * shape PipelineSchemaFileSchema gives it, defaults and all (test/unit/pipeline/pipelineSchema.test.ts
 * parses it and compares), so it is taken as it is. Parsing it loaded zod on every CLI start,
 * where a status of files in loom's shape needs no zod at all.
 */
export const bundledPipelineSchema = (): PipelineSchemaFile => bundledSchema as PipelineSchemaFile;

export type Precondition = z.infer<ReturnType<typeof PreconditionSchema>>;
export type StageOutput = z.infer<ReturnType<typeof OutputSchema>>;
