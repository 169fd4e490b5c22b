import assert from 'node:assert/strict';
import type { z } from 'zod';
import { parseJsonDocument } from '../../../src/core/diagnostics/jsonDocument';

/**
 * Asserts that a plain check (src/core/files/plainShapes.ts) answers each input as `schema` does,
 * its keys in the same order (compared as JSON text), or leaves it to the schema; and that it
 * answers for most of them (the inputs are mostly the shape loom writes).
 */
export function assertPlainAsZod(inputs: readonly unknown[], plain: (raw: unknown) => unknown, schema: z.ZodType): void {
  let answered = 0;
  for (const raw of inputs) {
    const fast = plain(raw);
    if (fast === undefined) continue;
    answered++;
    const zod = schema.safeParse(raw);
    assert.equal(zod.success, true, JSON.stringify(raw));
    assert.equal(JSON.stringify(fast), JSON.stringify(zod.data), JSON.stringify(raw));
  }
  assert.ok(answered > inputs.length / 2, `${answered} of ${inputs.length}`);
}

/** Asserts that bad input read through the plain check gets the schema's own diagnostics, naming `file`. */
export function assertBadInputAsZod(file: string, texts: readonly string[], plain: (raw: unknown) => unknown, schema: z.ZodType): void {
  for (const text of texts) {
    const viaPlain = parseJsonDocument(file, text, schema, plain);
    assert.deepEqual(viaPlain, parseJsonDocument(file, text, schema), text);
    assert.ok(viaPlain.diagnostics.length > 0, text);
    assert.ok(viaPlain.diagnostics[0].message.startsWith(file), viaPlain.diagnostics[0].message);
  }
}

/**
 * Inputs around `base`: for each key and each of its `values`, the key set to the value, the key
 * left out, and the key first with the others in reverse order (zod gives the declared order).
 */
export function variants(base: Record<string, unknown>, values: Record<string, unknown[]>): Record<string, unknown>[] {
  return Object.entries(values).flatMap(([key, list]) =>
    list.flatMap((value) => {
      const without: Record<string, unknown> = { ...base };
      delete without[key];
      return [{ ...base, [key]: value }, without, { [key]: value, ...Object.fromEntries(Object.entries(base).reverse()) }];
    }),
  );
}
