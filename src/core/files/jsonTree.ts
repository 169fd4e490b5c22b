/**
 * A JSON document as a tree that remembers where each value and key sits in the text, so that an
 * edit can touch the few characters it changes and leave the rest of the file as it was written,
 * and a diagnostic can point at a key or at a syntax error (jsonLocator.ts). One scanner reads it
 * for both, and agrees with JSON.parse on which texts are valid.
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

export interface JsonSyntaxError {
  offset: number;
  message: string;
}

export interface ScannedJson {
  /**
   * The tree. After a syntax error, the part read before it: every key and item that started
   * before the error is there, with what was read of its value; the values still open end where
   * they start, so only the starts are to be trusted.
   */
  root: JsonNode;
  error?: JsonSyntaxError;
}

/** The tree of `text`, or undefined when it is not valid JSON. */
export function parseJsonTree(text: string): JsonNode | undefined {
  const { root, error } = scanJson(text);
  return error ? undefined : root;
}

/** The value of `key` in an object; the last one when the key repeats, as JSON.parse reads it. */
export function memberOf(node: JsonNode | undefined, key: string): JsonMember | undefined {
  if (node?.type !== 'object') return undefined;
  for (let n = node.members.length - 1; n >= 0; n--) if (node.members[n].key === key) return node.members[n];
  return undefined;
}

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const QUOTE = 34;
const BACKSLASH = 92;

/** A syntax error, thrown where the scan meets it. */
class SyntaxFault extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
  }
}

/** The tree of `text` and, when it is not valid JSON, where and why it stops being JSON. */
export function scanJson(text: string): ScannedJson {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (message: string): never => {
    throw new SyntaxFault(message, i);
  };
  const ws = () => {
    let c = text.charCodeAt(i);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++i);
  };
  const describe = () => (i >= text.length ? 'end of file' : `'${text[i]}'`);
  /** The string at `i`, decoded; `i` ends after its closing quote. */
  const string = (): string => {
    if (text.charCodeAt(i) !== QUOTE) fail(`expected a string but found ${describe()}`);
    const start = i++;
    let escaped = false;
    for (let c = text.charCodeAt(i); i < text.length && c !== QUOTE; c = text.charCodeAt(++i)) {
      if (c === BACKSLASH && i + 1 < text.length) {
        // JSON.parse rejects any other escape; report it here, where it is, not at the file's start.
        const u = text[i + 1] === 'u';
        if (u ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : !'"\\/bfnrt'.includes(text[i + 1])) fail('invalid escape sequence in string');
        escaped = true;
        i += u ? 5 : 1;
      } else if (c < 32) fail('unescaped control character in string');
    }
    if (i >= text.length) fail('unterminated string');
    i++;
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
  };
  const literal = <T>(word: string, value: T): T => {
    if (!text.startsWith(word, i)) fail(`unexpected ${describe()}`);
    i += word.length;
    return value;
  };
  const number = (): number => {
    // Sticky, not a slice: a number of any length is valid JSON and must not end the scan.
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text) ?? fail(`unexpected ${describe()}`);
    i += m[0].length;
    return Number(m[0]);
  };
  /**
   * The node of the value at `i`, before its content is read: its parent holds it while it is
   * read, so that what was read before a syntax error stays in the tree.
   */
  const begin = (): JsonNode => {
    if (text[i] === '{') return { type: 'object', start: i, end: i, members: [] };
    if (text[i] === '[') return { type: 'array', start: i, end: i, items: [] };
    return { type: 'scalar', start: i, end: i, value: null };
  };
  const read = (node: JsonNode) => {
    if (node.type === 'object') object(node);
    else if (node.type === 'array') array(node);
    else node.value = scalar();
    node.end = i;
  };
  const scalar = (): JsonScalar['value'] => {
    const c = text[i];
    if (c === '"') return string();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    return number();
  };
  const object = (node: JsonObject) => {
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      const keyStart = i;
      const key = string();
      const keyEnd = i;
      ws();
      if (text[i] !== ':') {
        // The key was read: a diagnostic about it can still point at it.
        node.members.push({ key, keyStart, keyEnd, value: begin() });
        fail(`expected ':' after property name but found ${describe()}`);
      }
      i++;
      ws();
      const value = begin();
      node.members.push({ key, keyStart, keyEnd, value });
      read(value);
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      fail(`expected ',' or '}' after property value but found ${describe()}`);
    }
  };
  const array = (node: JsonArray) => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      ws();
      const item = begin();
      node.items.push(item);
      read(item);
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      fail(`expected ',' or ']' after array item but found ${describe()}`);
    }
  };

  ws();
  const root = begin();
  try {
    read(root);
    ws();
    if (i < text.length) fail(`unexpected ${describe()} after the end of the JSON value`);
  } catch (e) {
    // A SyntaxFault, or a RangeError from nesting deeper than the stack: either way, not readable here.
    return { root, error: { offset: e instanceof SyntaxFault ? e.offset : i, message: (e as Error).message } };
  }
  return { root };
}
