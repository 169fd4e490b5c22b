import type { JsonArray, JsonNode, JsonObject } from './jsonTree';
import { removeListItems } from './listEdit';
import type { OffsetEdit } from './textEdit';

/*
 * Minimal edits over the tree jsonc-parser reads (jsonTree.ts). jsonc-parser's own `modify` is not
 * used for writing: with formatting options it re-lays the edited line (a one-line list or file
 * comes back spread over many lines), without them it writes `,"key": value` with no line break,
 * and the quick fixes must leave loom's files laid out as their authors wrote them.
 */

/** How a JSON file is written, so that what is added reads like the rest of it. */
export interface JsonStyle {
  eol: string;
  /** One level of indentation; undefined for a file written on one line. */
  indent: string | undefined;
  /** Between a key and its value: `": "` in most files, `":"` in compact ones (the quote not included). */
  colon: string;
  /** Whether lists of plain values are written on one line (`["T1", "T2"]`). */
  inlineLists: boolean;
  /** Between the items of a one-line list or object, comma included: `", "`, or `","` in compact files. */
  listSeparator: string;
}

/** The leading white space of the line `offset` is on. */
export function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

const isScalarList = (n: JsonNode): n is JsonArray => n.type === 'array' && n.items.length > 0 && n.items.every((x) => x.type === 'scalar');

function firstNode(node: JsonNode, test: (n: JsonNode) => boolean): JsonNode | undefined {
  if (test(node)) return node;
  const children = node.type === 'object' ? node.members.map((m) => m.value) : node.type === 'array' ? node.items : [];
  for (const child of children) {
    const found = firstNode(child, test);
    if (found) return found;
  }
  return undefined;
}

/** The style of `text`, read from its first indented member and its first non-empty list of plain values. */
export function jsonStyle(text: string, root: JsonNode): JsonStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const withMembers = firstNode(root, (n) => n.type === 'object' && n.members.length > 0) as JsonObject | undefined;
  const first = withMembers?.members[0];
  let indent: string | undefined;
  if (withMembers && first && text.slice(withMembers.start, first.keyStart).includes('\n')) {
    const outer = lineIndent(text, withMembers.start);
    const inner = lineIndent(text, first.keyStart);
    indent = inner.startsWith(outer) && inner.length > outer.length ? inner.slice(outer.length) : '  ';
  }
  const colon = first ? text.slice(first.keyEnd, first.value.start) : ': ';
  const list = firstNode(root, isScalarList) as JsonArray | undefined;
  const inlineLists = list ? !text.slice(list.start, list.end).includes('\n') : indent === undefined;
  const listSeparator = list && list.items.length > 1 && inlineLists ? text.slice(list.items[0].end, list.items[1].start) : indent === undefined && colon === ':' ? ',' : ', ';
  return { eol, indent, colon, inlineLists, listSeparator };
}

/** `value` written in `style`, its nested lines indented from `base` (the indentation of the line it starts on). */
export function renderJson(value: unknown, style: JsonStyle, base: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const plain = value.every((v) => v === null || typeof v !== 'object');
    if (style.indent === undefined || (plain && style.inlineLists)) return `[${value.map((v) => renderJson(v, style, base)).join(style.listSeparator)}]`;
    const inner = base + style.indent;
    return `[${style.eol}${value.map((v) => inner + renderJson(v, style, inner)).join(`,${style.eol}`)}${style.eol}${base}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const member = (k: string, v: unknown, at: string) => `${JSON.stringify(k)}${style.colon}${renderJson(v, style, at)}`;
    if (style.indent === undefined) return `{${entries.map(([k, v]) => member(k, v, base)).join(style.listSeparator)}}`;
    const inner = base + style.indent;
    return `{${style.eol}${entries.map(([k, v]) => inner + member(k, v, inner)).join(`,${style.eol}`)}${style.eol}${base}}`;
  }
  return JSON.stringify(value);
}

/**
 * Children inserted into a non-empty container at position `at` (its end when `at` is its length),
 * with the separator its children already have (the comma, and a line break and indentation or
 * a space), or the file's own for a one-line container with a single child. `write` renders them
 * for the indentation their lines start at (undefined when they stay on one line).
 */
function insertChildren(text: string, open: number, starts: readonly number[], ends: readonly number[], at: number, style: JsonStyle, write: (indent: string | undefined) => string[]): OffsetEdit {
  const n = starts.length;
  let sep: string;
  if (n >= 2) {
    const k = Math.min(Math.max(at, 1), n - 1);
    sep = text.slice(ends[k - 1], starts[k]);
  } else {
    const gap = text.slice(open + 1, starts[0]);
    sep = gap.includes('\n') ? `,${gap}` : style.listSeparator;
  }
  const children = write(sep.includes('\n') ? sep.slice(sep.lastIndexOf('\n') + 1) : undefined);
  if (at >= n) return { start: ends[n - 1], end: ends[n - 1], newText: children.map((c) => `${sep}${c}`).join('') };
  return { start: starts[at], end: starts[at], newText: children.map((c) => `${c}${sep}`).join('') };
}

/** The style for children at `indent`: a container written on one line keeps its children on it. */
const styleAt = (style: JsonStyle, indent: string | undefined): JsonStyle => (indent === undefined ? { ...style, indent: undefined } : style);

/**
 * Adds a member to an object at position `index` (the end by default), keeping the members' own
 * separators and indentation. An empty object is written out in the file's style.
 */
export function insertMember(text: string, object: JsonObject, key: string, value: unknown, style: JsonStyle, index = object.members.length): OffsetEdit {
  if (object.members.length === 0) {
    return { start: object.start, end: object.end, newText: renderJson({ [key]: value }, style, lineIndent(text, object.start)) };
  }
  const neighbour = object.members[Math.min(index, object.members.length - 1)];
  const colon = text.slice(neighbour.keyEnd, neighbour.value.start);
  return insertChildren(
    text,
    object.start,
    object.members.map((m) => m.keyStart),
    object.members.map((m) => m.value.end),
    index,
    style,
    (indent) => [`${JSON.stringify(key)}${colon}${renderJson(value, styleAt(style, indent), indent ?? '')}`],
  );
}

/**
 * Adds items to an array at position `index` (the end by default), separated and indented like
 * the items already there. An empty array is written out in the file's style.
 */
export function insertItems(text: string, array: JsonArray, values: readonly unknown[], style: JsonStyle, index = array.items.length): OffsetEdit {
  if (array.items.length === 0) {
    return { start: array.start, end: array.end, newText: renderJson(values, style, lineIndent(text, array.start)) };
  }
  return insertChildren(
    text,
    array.start,
    array.items.map((x) => x.start),
    array.items.map((x) => x.end),
    index,
    style,
    (indent) => values.map((v) => renderJson(v, styleAt(style, indent), indent ?? '')),
  );
}

/** Removes the items `remove` picks from an array, with the separators that go with them; removing all leaves `[]`. */
export function removeItems(text: string, array: JsonArray, remove: (item: JsonNode) => boolean): OffsetEdit[] {
  return removeListItems(text, array.items, array.items.filter(remove), { start: array.start + 1, end: array.end - 1 });
}
