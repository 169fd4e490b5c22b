/**
 * The bundled pipeline.schema.json is taken as it is (bundledPipelineSchema: no zod on a status's
 * start): it must already be what PipelineSchemaFileSchema makes of it, every default written out.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import bundled from '../../../schemas/pipeline.schema.json';
import { bundledPipelineSchema, PipelineSchemaFileSchema } from '../../../src/core/pipeline/pipelineSchema';

test('the bundled pipeline schema is in the shape the schema parses it to, so it is used without parsing', () => {
  assert.deepEqual(PipelineSchemaFileSchema().parse(bundled), bundled);
  assert.equal(bundledPipelineSchema(), bundled);
});
