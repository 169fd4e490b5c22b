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
const KEY = /^[A-Za-z_][\w-]*$/;

// Every keyword is at most five characters long, so longer words skip the lookup.
const plain = (s: string) => PLAIN.test(s) && (s.length > 5 || !KEYWORDS.has(s.toLowerCase()));

export function simpleFrontmatter(text: string): SimpleFrontmatter | undefined {
  const open = text.startsWith('---\n') ? 4 : text.startsWith('---\r\n') ? 5 : 0;
  if (!open) return undefined;
  // Built in place (not a Map made an object at the end): a status run reads twenty thousand task files.
  const data: Record<string, string | string[]> = {};
  const keyLines = new Map<string, number>();
  let at = open;
  let lineNo = 1;
  for (;;) {
    lineNo++;
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    const stop = text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    // The closing `---`, compared in place.
    if (stop - at === 3 && text.startsWith('---', at)) {
      return { data, body: text.slice(Math.min(end + 1, text.length)), keyLines };
    }
    if (end === text.length) return undefined;
    const line = text.slice(at, stop);
    at = end + 1;
    if (line.trim() === '') continue;
    // `key: value`, with at least one blank after the colon, as YAML wants.
    const colon = line.indexOf(':');
    const after = line.charCodeAt(colon + 1);
    if (colon <= 0 || (after !== 32 && after !== 9)) return undefined;
    const key = line.slice(0, colon);
    if (!KEY.test(key) || key === '__proto__' || Object.hasOwn(data, key)) return undefined;
    const value = line.slice(colon + 1).trim();
    if (value === '') return undefined;
    keyLines.set(key, lineNo);
    if (value.charCodeAt(0) === 91 /* [ */) {
      if (value.charCodeAt(value.length - 1) !== 93 /* ] */) return undefined;
      const inner = value.slice(1, -1).trim();
      const items = inner === '' ? [] : inner.split(',');
      for (let i = 0; i < items.length; i++) {
        const item = items[i].trim();
        if (!plain(item)) return undefined;
        items[i] = item;
      }
      data[key] = items;
    } else if (plain(value)) {
      data[key] = value;
    } else {
      return undefined;
    }
  }
}
