/**
 * A fast reader for the one frontmatter shape loom itself writes: flat `key: value` and
 * `key: [a, b]` lines of plain words and paths. Anything else — block lists, quotes, comments,
 * numbers, YAML keywords, indentation — returns undefined and goes to gray-matter, which stays
 * the parser of record. The scan of a large repository reads thousands of task files; this keeps
 * it from paying for a full YAML parser on each.
 */
export interface SimpleFrontmatter {
  data: Record<string, string | string[]>;
  body: string;
  /** 1-based line of each key, found on the way. */
  keyLines: Map<string, number>;
}

// A plain word or path that YAML reads as the same string: starts with a letter, `_` or `/`.
const PLAIN = /^[A-Za-z_/][\w./@+-]*$/;
// Plain scalars YAML 1.1 (js-yaml, under gray-matter) reads as booleans or null.
const KEYWORDS = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n']);
const LINE = /^([A-Za-z_][\w-]*):[ \t]+(\S.*)$/;

// Every keyword is at most five characters long, so longer words skip the lookup.
const plain = (s: string) => PLAIN.test(s) && (s.length > 5 || !KEYWORDS.has(s.toLowerCase()));

export function simpleFrontmatter(text: string): SimpleFrontmatter | undefined {
  const open = text.startsWith('---\n') ? 4 : text.startsWith('---\r\n') ? 5 : 0;
  if (!open) return undefined;
  const data = new Map<string, string | string[]>();
  const keyLines = new Map<string, number>();
  let at = open;
  let lineNo = 1;
  for (;;) {
    lineNo++;
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    const line = text.charCodeAt(end - 1) === 13 ? text.slice(at, end - 1) : text.slice(at, end);
    if (line === '---') return { data: Object.fromEntries(data), body: text.slice(Math.min(end + 1, text.length)), keyLines };
    if (end === text.length) return undefined;
    at = end + 1;
    if (line.trim() === '') continue;
    const m = LINE.exec(line);
    if (!m || data.has(m[1]) || m[1] === '__proto__') return undefined;
    keyLines.set(m[1], lineNo);
    const value = m[2].trimEnd();
    if (value.startsWith('[')) {
      if (!value.endsWith(']')) return undefined;
      const inner = value.slice(1, -1).trim();
      const items = inner === '' ? [] : inner.split(',').map((s) => s.trim());
      if (!items.every(plain)) return undefined;
      data.set(m[1], items);
    } else if (plain(value)) {
      data.set(m[1], value);
    } else {
      return undefined;
    }
  }
}
