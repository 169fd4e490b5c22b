import { scanJson, type JsonMember, type JsonNode, type JsonObject, type JsonSyntaxError } from '../files/jsonTree';

/**
 * Where keys, values and the syntax error sit in a JSON text, read by jsonTree.ts (jsonc-parser).
 * JSON.parse is used for speed on the happy path; this runs only when a file has a problem,
 * so a diagnostic can point at the offending key or at the syntax error itself.
 */
export type JsonPath = ReadonlyArray<string | number>;

export type { JsonSyntaxError };

export interface LocatedJson {
  error?: JsonSyntaxError;
  /** Offset of the key (for object members) or of the value (for array items); the nearest existing ancestor otherwise. */
  offsetOf(path: JsonPath): number;
}

export function locateJson(text: string): LocatedJson {
  const { root, error } = scanJson(text);
  // Findings ask for many paths in one file: index an object's keys the first time one is asked for.
  const indexes = new Map<JsonObject, Map<string, JsonMember>>();
  const memberOf = (object: JsonObject, key: string) => {
    let index = indexes.get(object);
    if (!index) {
      // Set in order, so the last of a repeated key wins, as with JSON.parse.
      index = new Map(object.members.map((m) => [m.key, m]));
      indexes.set(object, index);
    }
    return index.get(key);
  };
  return {
    error,
    offsetOf(path) {
      let node: JsonNode = root;
      let offset = root.start;
      for (const step of path) {
        if (node.type === 'object') {
          const member = memberOf(node, String(step));
          if (!member) break;
          node = member.value;
          offset = member.keyStart;
        } else if (node.type === 'array') {
          // An index by number or by its decimal text (`'1'`), as the locator has always taken it.
          const item: JsonNode | undefined = Object.hasOwn(node.items, step) ? node.items[Number(step)] : undefined;
          if (!item) break;
          node = item;
          offset = item.start;
        } else break;
      }
      return offset;
    },
  };
}
