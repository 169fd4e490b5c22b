import type { z } from 'zod';
import { diagnostic, type Diagnostic } from './diagnostic';
import { locateJson } from './jsonLocator';
import { positionAt } from './textPosition';

export interface ParsedDocument<T> {
  /** Present when the text parsed and matched the schema. */
  value?: T;
  /** Present when the text parsed as JSON, even if it did not match the schema. */
  raw?: unknown;
  diagnostics: Diagnostic[];
}

/**
 * Parses one JSON file against a zod schema. Problems become diagnostics that point at the
 * syntax error or at the key that holds the offending value; nothing throws.
 */
export function parseJsonDocument<S extends z.ZodType>(file: string, text: string, schema: S): ParsedDocument<z.output<S>> {
  let raw: unknown;
  try {
    raw = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    const located = locateJson(text);
    const offset = located.error?.offset ?? 0;
    const reason = located.error?.message ?? (e as Error).message;
    return { diagnostics: [diagnostic(file, `${file} is not valid JSON: ${reason}`, positionAt(text, offset), 'error', 'json-syntax')] };
  }
  const result = schema.safeParse(raw);
  if (result.success) return { value: result.data, raw, diagnostics: [] };
  const located = locateJson(text);
  const diagnostics = result.error.issues.map((issue) => {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    const where = path.length ? `"${path.join('.')}"` : 'the top level';
    return diagnostic(file, `${file}: ${where}: ${issue.message}`, positionAt(text, located.offsetOf(path)), 'error', 'schema');
  });
  return { raw, diagnostics };
}
