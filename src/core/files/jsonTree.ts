/**
 * A JSON document as a tree that remembers where each value and key sits in the text, so that an
 * edit can touch the few characters it changes and leave the rest of the file as it was written.
 * Offsets are into the text as given (a leading byte-order mark counts as white space).
 */
export type JsonNode = JsonObject | JsonArray | JsonScalar;

interface Span {
  /** Offset of the value's first character. */
  start: number;
  /** Offset just after the value's last character. */
  end: number;
}

export interface JsonMember {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: JsonNode;
}

export interface JsonObject extends Span {
  type: 'object';
  members: JsonMember[];
}

export interface JsonArray extends Span {
  type: 'array';
  items: JsonNode[];
}

export interface JsonScalar extends Span {
  type: 'scalar';
  value: string | number | boolean | null;
}

/** The tree of `text`, or undefined when it is not valid JSON. */
export function parseJsonTree(text: string): JsonNode | undefined {
  try {
    JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return undefined;
  }
  // Valid JSON from here on: the scan only records where things are.
  let i = 0;
  const ws = () => {
    while (i < text.length && /[\s\uFEFF]/.test(text[i])) i++;
  };
  const string = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): JsonNode => {
    ws();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const members: JsonMember[] = [];
      ws();
      while (text[i] !== '}') {
        ws();
        const keyStart = i;
        const key = string();
        const keyEnd = i;
        ws();
        i++; // ':'
        members.push({ key, keyStart, keyEnd, value: value() });
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
      return { type: 'object', start, end: i, members };
    }
    if (c === '[') {
      i++;
      const items: JsonNode[] = [];
      ws();
      while (text[i] !== ']') {
        items.push(value());
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
      return { type: 'array', start, end: i, items };
    }
    if (c === '"') return { type: 'scalar', start, value: string(), end: i };
    while (i < text.length && /[^\s,\]}]/.test(text[i])) i++;
    return { type: 'scalar', start, end: i, value: JSON.parse(text.slice(start, i)) as number | boolean | null };
  };
  return value();
}

/** The value of `key` in an object; the last one when the key repeats, as JSON.parse reads it. */
export function memberOf(node: JsonNode | undefined, key: string): JsonMember | undefined {
  if (node?.type !== 'object') return undefined;
  for (let n = node.members.length - 1; n >= 0; n--) if (node.members[n].key === key) return node.members[n];
  return undefined;
}
