/**
 * A tiny draft-07 validator covering only the keywords loom's schemas and ours use, so tests can
 * run sample files through the schemas without adding a dependency. An unknown keyword throws
 * rather than being ignored: a schema that starts using one must not pass tests unchecked.
 */
export type JsonSchema = boolean | { [keyword: string]: unknown };

const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', 'default', 'examples', 'definitions', 'version']);

/** The problems with `value` under `schema`, as `path: message` lines; empty when it is valid. */
export function validate(schema: JsonSchema, value: unknown): string[] {
  const errors: string[] = [];
  check(schema, value, '$', schema, errors);
  return errors;
}

function check(schema: JsonSchema, value: unknown, path: string, root: JsonSchema, errors: string[]): void {
  if (schema === true) return;
  if (schema === false) {
    errors.push(`${path}: no value is allowed here`);
    return;
  }
  // In draft-07 a `$ref` replaces its siblings.
  if (typeof schema.$ref === 'string') {
    check(resolveRef(root, schema.$ref), value, path, root, errors);
    return;
  }
  const fail = (message: string) => errors.push(`${path}: ${message}`);
  for (const [keyword, arg] of Object.entries(schema)) {
    switch (keyword) {
      case 'type': {
        const types = Array.isArray(arg) ? (arg as string[]) : [arg as string];
        if (!types.some((t) => hasType(value, t))) fail(`expected ${types.join(' or ')}`);
        break;
      }
      case 'enum':
        if (!(arg as unknown[]).some((option) => deepEqual(option, value))) fail(`expected one of ${JSON.stringify(arg)}`);
        break;
      case 'const':
        if (!deepEqual(arg, value)) fail(`expected ${JSON.stringify(arg)}`);
        break;
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(arg as string, 'u').test(value)) fail(`does not match ${String(arg)}`);
        break;
      case 'minLength':
        if (typeof value === 'string' && [...value].length < (arg as number)) fail(`shorter than ${String(arg)}`);
        break;
      case 'maxLength':
        if (typeof value === 'string' && [...value].length > (arg as number)) fail(`longer than ${String(arg)}`);
        break;
      case 'minimum':
        if (typeof value === 'number' && value < (arg as number)) fail(`less than ${String(arg)}`);
        break;
      case 'maximum':
        if (typeof value === 'number' && value > (arg as number)) fail(`greater than ${String(arg)}`);
        break;
      case 'exclusiveMinimum':
        if (typeof value === 'number' && value <= (arg as number)) fail(`not greater than ${String(arg)}`);
        break;
      case 'exclusiveMaximum':
        if (typeof value === 'number' && value >= (arg as number)) fail(`not less than ${String(arg)}`);
        break;
      case 'minItems':
        if (Array.isArray(value) && value.length < (arg as number)) fail(`fewer than ${String(arg)} items`);
        break;
      case 'maxItems':
        if (Array.isArray(value) && value.length > (arg as number)) fail(`more than ${String(arg)} items`);
        break;
      case 'items':
        if (Array.isArray(arg)) throw new Error(`${path}: tuple "items" is not supported by this validator`);
        if (Array.isArray(value)) value.forEach((item, i) => check(arg as JsonSchema, item, `${path}[${i}]`, root, errors));
        break;
      case 'properties':
        if (isObject(value)) {
          for (const [name, sub] of Object.entries(arg as Record<string, JsonSchema>)) {
            if (Object.hasOwn(value, name)) check(sub, value[name], `${path}.${name}`, root, errors);
          }
        }
        break;
      case 'required':
        if (isObject(value)) for (const name of arg as string[]) if (!Object.hasOwn(value, name)) fail(`"${name}" is required`);
        break;
      case 'additionalProperties':
        if (isObject(value)) {
          const declared = isObject(schema.properties) ? schema.properties : {};
          for (const [name, item] of Object.entries(value)) {
            if (!Object.hasOwn(declared, name)) check(arg as JsonSchema, item, `${path}.${name}`, root, errors);
          }
        }
        break;
      case 'propertyNames':
        if (isObject(value)) for (const name of Object.keys(value)) check(arg as JsonSchema, name, `${path} key "${name}"`, root, errors);
        break;
      case 'anyOf':
      case 'oneOf':
      case 'allOf': {
        const passing = (arg as JsonSchema[]).filter((sub) => passes(sub, value, root)).length;
        const count = (arg as unknown[]).length;
        if (keyword === 'anyOf' && passing === 0) fail('matches none of anyOf');
        if (keyword === 'oneOf' && passing !== 1) fail(`matches ${passing} of oneOf, expected exactly 1`);
        if (keyword === 'allOf' && passing !== count) fail('does not match allOf');
        break;
      }
      default:
        if (!ANNOTATIONS.has(keyword)) throw new Error(`${path}: keyword "${keyword}" is not supported by this validator`);
    }
  }
}

function passes(schema: JsonSchema, value: unknown, root: JsonSchema): boolean {
  const errors: string[] = [];
  check(schema, value, '$', root, errors);
  return errors.length === 0;
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema {
  if (!ref.startsWith('#')) throw new Error(`only local $ref is supported, got ${ref}`);
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !Object.hasOwn(node, segment)) throw new Error(`unresolved $ref ${ref}`);
    node = node[segment];
  }
  return node as JsonSchema;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      throw new Error(`unknown type "${type}"`);
  }
}

/** Enough for `enum` and `const`, whose values here are primitives. */
function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
