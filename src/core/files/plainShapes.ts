/*
 * Checks of a JSON value plainly in the shape loom writes, for the files a status run reads by the
 * thousand (requirements.json, traceability.json, task states, handoffs, pipeline.state.json):
 * each gives what the file's zod schema would, or NOT_PLAIN, and the value then goes to the
 * schema, which checks and words it.
 * zod's generic checks, in the fresh process of each run, cost about as much as reading the files.
 */

/** The answer of a check when the value is not plainly in the shape: the schema decides. */
export const NOT_PLAIN: unique symbol = Symbol('not plain');
export type PlainCheck = (value: unknown) => unknown;

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((item) => typeof item === 'string');

/** A string (matching `pattern`, at least one character when `nonEmpty`). */
export const plainString =
  (options: { pattern?: RegExp; nonEmpty?: boolean } = {}): PlainCheck =>
  (v) =>
    typeof v === 'string' && (!options.pattern || options.pattern.test(v)) && (!options.nonEmpty || v.length > 0) ? v : NOT_PLAIN;

/** One of `values` (zod's enum). */
export const plainOneOf = (values: readonly string[]): PlainCheck => {
  const set: ReadonlySet<unknown> = new Set(values);
  return (v) => (set.has(v) ? v : NOT_PLAIN);
};

/** An array of what `item` accepts (copied, as zod's arrays are), at least `min` long. */
export const plainArray =
  (item: PlainCheck, min = 0): PlainCheck =>
  (v) => {
    if (!Array.isArray(v) || v.length < min) return NOT_PLAIN;
    const out: unknown[] = [];
    for (const x of v) {
      const checked = item(x);
      if (checked === NOT_PLAIN) return NOT_PLAIN;
      out.push(checked);
    }
    return out;
  };

/** Anything (zod's unknown). */
export const plainAny: PlainCheck = (v) => v;

/** A record of strings by key (zod's record of strings), copied. */
export const plainStringRecord: PlainCheck = (v) => {
  if (!isPlainObject(v)) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    if (typeof v[key] !== 'string') return NOT_PLAIN;
    out[key] = v[key];
  }
  return out;
};

/** A record of anything by key (zod's record of unknown), copied. */
export const plainRecord: PlainCheck = (v) => (isPlainObject(v) ? { ...v } : NOT_PLAIN);

/** A boolean. */
export const plainBoolean: PlainCheck = (v) => (typeof v === 'boolean' ? v : NOT_PLAIN);

/** What zod's `.default()` puts in place of an absent key. */
export interface PlainDefault {
  default: () => unknown;
}

/** A field of a loose object: its key, its check, and whether it may be absent (or what stands in for it then). */
export type PlainField = readonly [key: string, check: PlainCheck, optional?: 'optional' | PlainDefault];

/**
 * A loose object as zod's looseObject gives it: the declared keys present, in their declared
 * order, each checked; then the others as they are.
 */
export const plainLooseObject = (fields: readonly PlainField[]): PlainCheck => {
  // Kept apart and walked by index: a status run checks tens of thousands of objects.
  const keys = fields.map(([key]) => key);
  const checks = fields.map(([, check]) => check);
  const absent = fields.map(([, , optional]) => optional);
  const declared = new Set(keys);
  return (v) => {
    if (!isPlainObject(v)) return NOT_PLAIN;
    const out: Record<string, unknown> = {};
    let present = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (!Object.hasOwn(v, key)) {
        const optional = absent[i];
        if (optional === undefined) return NOT_PLAIN;
        if (optional !== 'optional') out[key] = optional.default();
        continue;
      }
      present++;
      const checked = checks[i](v[key]);
      if (checked === NOT_PLAIN) return NOT_PLAIN;
      out[key] = checked;
    }
    const own = Object.keys(v);
    if (own.length > present) for (const key of own) if (!declared.has(key)) out[key] = v[key];
    return out;
  };
};

/** The value `check` answers, or undefined when it leaves it to the schema: what parseJsonDocument's `plain` gives. */
export const plainOrUndefined =
  <T>(check: PlainCheck) =>
  (raw: unknown): T | undefined => {
    const v = check(raw);
    return v === NOT_PLAIN ? undefined : (v as T);
  };
