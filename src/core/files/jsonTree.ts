import type * as JsoncParser from 'jsonc-parser/lib/esm/main.js';
import { lazily } from '../../shared/lazily';

// The ESM build: esbuild cannot follow the requires inside the UMD build's wrapper (the default entry).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see lazily); esbuild bundles it as it bundles an import
const jsoncParser = lazily(() => require('jsonc-parser/lib/esm/main.js') as typeof JsoncParser);

/**
 * A JSON document as a tree that remembers where each value and key sits in the text, so that an
 * edit can touch the few characters it changes and leave the rest of the file as it was written,
 * and a diagnostic can point at a key or at a syntax error (jsonLocator.ts). jsonc-parser (the
 * parser VS Code uses) reads it, held to strict JSON: it agrees with JSON.parse on which texts are
 * valid, and stops at the first place JSON.parse would reject.
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

/** What the innermost open value (or the top level) reads next. */
type Expect = 'key' | 'colon' | 'value' | 'next';

interface Frame {
  /** Undefined for the top level. */
  container?: JsonObject | JsonArray;
  expect: Expect;
}

/** jsonc-parser's errors about the characters of a string token, which it reports at the token's start. */
const STRING_ERRORS = new Set(['UnexpectedEndOfString', 'InvalidCharacter', 'InvalidEscapeCharacter', 'InvalidUnicode']);
/** A literal or a number at the start of a token, as far as JSON.parse reads it. */
const LEADING_VALUE = /true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
/** Thrown from the visitor to stop at the first syntax error. */
const STOP = Symbol('stop');

/** The tree of `text` and, when it is not valid JSON, where and why it stops being JSON. */
export function scanJson(text: string): ScannedJson {
  const { printParseErrorCode, visit } = jsoncParser();
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let root: JsonNode | undefined;
  const frames: Frame[] = [{ expect: 'value' }];
  let frame = frames[0];
  /** End of the last token read. */
  let end = bom;
  let error: JsonSyntaxError | undefined;

  /** The node of a value at `at` that was not read: its start is where it would be. */
  const placeholder = (at: number): JsonNode =>
    text[at] === '{' ? { type: 'object', start: at, end: at, members: [] } : text[at] === '[' ? { type: 'array', start: at, end: at, items: [] } : { type: 'scalar', start: at, end: at, value: null };
  /** A value in the place the open container (or the top level) has for it. */
  const place = (node: JsonNode) => {
    const { container } = frame;
    if (!container) root = node;
    else if (container.type === 'array') container.items.push(node);
    else container.members[container.members.length - 1].value = node;
    frame.expect = 'next';
  };
  const found = (at: number) => (at >= text.length ? 'end of file' : `'${text[at]}'`);
  const fail = (offset: number, message: string): never => {
    error = { offset, message };
    throw STOP;
  };
  /** A token at `at` that does not fit: the value that fails to read there stays in the tree at its start. */
  const unexpected = (at: number): never => {
    const { container, expect } = frame;
    if (expect === 'value') place(placeholder(at));
    else if (expect === 'colon') {
      const { members } = container as JsonObject;
      members[members.length - 1].value = placeholder(at);
    }
    if (expect === 'key') return fail(at, `expected a string but found ${found(at)}`);
    if (expect === 'colon') return fail(at, `expected ':' after property name but found ${found(at)}`);
    // A second colon (`"behaviors": : [`) is the slip a person makes most: said as what it is.
    if (expect === 'value' && text[at] === ':' && container?.type === 'object')
      return fail(at, `a second ':' after the property name "${container.members[container.members.length - 1]?.key ?? ''}"; a value was expected`);
    if (expect === 'value') return fail(at, `unexpected ${found(at)}`);
    if (container?.type === 'object') return fail(at, `expected ',' or '}' after property value but found ${found(at)}`);
    if (container?.type === 'array') return fail(at, `expected ',' or ']' after array item but found ${found(at)}`);
    return fail(at, `unexpected ${found(at)} after the end of the JSON value`);
  };
  /** The text before a token at `offset` must be white space as JSON.parse takes it: jsonc-parser also skips U+00A0, U+2028 and others. */
  const spaceUntil = (offset: number) => {
    for (let i = end; i < offset; i++) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) unexpected(i);
    }
  };
  const token = (offset: number, length: number) => {
    spaceUntil(offset);
    end = offset + length;
  };
  const open = (node: JsonObject | JsonArray, offset: number, length: number) => {
    token(offset, length);
    place(node);
    frames.push((frame = { container: node, expect: node.type === 'object' ? 'key' : 'value' }));
  };
  const close = (bracket: string, offset: number, length: number) => {
    // jsonc-parser ends an unclosed value at the end of the text, then reports the error.
    if (text[offset] !== bracket) return;
    token(offset, length);
    frame.container!.end = offset + length;
    frames.pop();
    frame = frames[frames.length - 1];
  };
  const onError = (code: JsoncParser.ParseErrorCode, offset: number) => {
    const name = printParseErrorCode(code);
    spaceUntil(offset);
    if ((frame.expect === 'key' || frame.expect === 'value') && STRING_ERRORS.has(name)) {
      if (frame.expect === 'value') place(placeholder(offset));
      const problem = stringProblem(text, offset);
      fail(problem.offset, problem.message);
    }
    if (frame.expect === 'value') {
      // jsonc-parser reads `truex` or `1.` as one broken token; JSON.parse reads the value `true` or `1` and stops after it.
      LEADING_VALUE.lastIndex = offset;
      const value = LEADING_VALUE.exec(text)?.[0];
      if (value) {
        place({ type: 'scalar', start: offset, end: offset + value.length, value: JSON.parse(value) as JsonScalar['value'] });
        unexpected(offset + value.length);
      }
    }
    unexpected(offset);
  };

  try {
    // jsonc-parser reads a byte-order mark as an unknown symbol: it reads the text after it, and its offsets are moved past it.
    visit(
      bom ? text.slice(1) : text,
      {
        onObjectBegin: (offset, length) => open({ type: 'object', start: offset + bom, end: offset + bom, members: [] }, offset + bom, length),
        onArrayBegin: (offset, length) => open({ type: 'array', start: offset + bom, end: offset + bom, items: [] }, offset + bom, length),
        onObjectEnd: (offset, length) => close('}', offset + bom, length),
        onArrayEnd: (offset, length) => close(']', offset + bom, length),
        onObjectProperty: (key, offset, length) => {
          const start = offset + bom;
          token(start, length);
          (frame.container as JsonObject).members.push({ key, keyStart: start, keyEnd: start + length, value: placeholder(start + length) });
          frame.expect = 'colon';
        },
        onSeparator: (separator, offset, length) => {
          token(offset + bom, length);
          frame.expect = separator === ':' || frame.container?.type === 'array' ? 'value' : 'key';
        },
        onLiteralValue: (value: JsonScalar['value'], offset, length) => {
          token(offset + bom, length);
          place({ type: 'scalar', start: offset + bom, end: offset + bom + length, value });
        },
        onError: (code, offset) => onError(code, offset + bom),
      },
      { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
    );
    spaceUntil(text.length);
  } catch (e) {
    // A nesting deeper than the stack is not readable here either.
    if (e !== STOP) error = { offset: end, message: (e as Error).message };
  }
  root ??= placeholder(bom);
  return error ? { root, error } : { root };
}

/**
 * Where and why a string token starting at `start` is not a JSON string: jsonc-parser says only
 * that it is not, at its start.
 */
function stringProblem(text: string, start: number): JsonSyntaxError {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) break;
    if (c === 92 && i + 1 < text.length) {
      const u = text[i + 1] === 'u';
      if (u ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : !'"\\/bfnrt'.includes(text[i + 1])) return { offset: i, message: 'invalid escape sequence in string' };
      i += u ? 5 : 1;
    } else if (c < 32) return { offset: i, message: 'unescaped control character in string' };
  }
  return { offset: text.length, message: 'unterminated string' };
}
