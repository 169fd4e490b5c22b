import type { z } from 'zod';
import { diagnostic, type Diagnostic } from './diagnostic';
import { t } from '../messages';
import { locateJson } from './jsonLocator';
import { positionAt } from './textPosition';
import { describePath, schemaProblems } from './zodIssues';

export interface ParsedDocument<T> {
  /** Present when the text parsed and matched the schema. */
  value?: T;
  /** Present when the text parsed as JSON, even if it did not match the schema. */
  raw?: unknown;
  diagnostics: Diagnostic[];
}

/**
 * Parses one JSON file against a zod schema. Problems become diagnostics that point at the
 * syntax error or at the key that holds the offending value; nothing throws. `plain`, where a
 * file is read by the thousand (a status run), answers for a value plainly in the shape loom
 * writes as the schema would, without zod; anything it leaves (undefined) goes to the schema,
 * which may then be given as the function that builds it (a lazySchema): a status on files in
 * loom's shape then neither loads zod nor builds a schema.
 */
export function parseJsonDocument<S extends z.ZodType>(file: string, source: string, schemaOf: S | (() => S), plain?: (raw: unknown) => z.output<S> | undefined): ParsedDocument<z.output<S>> {
  // Editors hide a byte-order mark, so positions are counted without it.
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const located = locateJson(text);
    const offset = located.error?.offset ?? 0;
    const reason = located.error?.message ?? (e as Error).message;
    return { diagnostics: [diagnostic(file, t('files.notJson', { file, reason }), positionAt(text, offset), 'error', 'json-syntax')] };
  }
  // A `__proto__` key is left to the schema, as it always was, and warned about (prototypeKeys).
  const fast = plain && !text.includes('"__proto__"') ? plain(raw) : undefined;
  if (fast !== undefined) return { value: fast, raw, diagnostics: [] };
  const schema = typeof schemaOf === 'function' ? schemaOf() : schemaOf;
  const result = schema.safeParse(raw);
  if (result.success) return { value: result.data, raw, diagnostics: prototypeKeys(file, text) };
  const located = locateJson(text);
  const diagnostics = schemaProblems(result.error.issues).map(({ path, message }) =>
    diagnostic(file, t('files.schemaProblem', { file, where: describePath(path), problem: message }), positionAt(text, located.offsetOf(path)), 'error', 'schema'),
  );
  return { raw, diagnostics };
}

/**
 * A key named `__proto__` cannot survive into a plain object (assigning it replaces the
 * object's prototype), so the schema silently drops it. It is never a valid loom id either:
 * say so at the key rather than let it vanish.
 */
function prototypeKeys(file: string, text: string): Diagnostic[] {
  if (!text.includes('"__proto__"')) return [];
  return [...text.matchAll(/"__proto__"\s*:/g)].map((m) => diagnostic(file, t('files.prototypeKey', { file }), positionAt(text, m.index ?? 0), 'warning', 'reserved-key'));
}
