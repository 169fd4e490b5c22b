import { LoomError } from '../errors';
import { removeListItems } from './listEdit';
import type { OffsetEdit } from './textEdit';
import { itemText, unquote } from './yamlScalar';

interface Item {
  /** Offsets of the item's text in the file. */
  start: number;
  end: number;
  value: string;
}

/** The items of a flow list `[a, b]` opening at `open`, and the offset of its `]`. */
function flowItems(file: string, text: string, open: number, limit: number): { items: Item[]; close: number } {
  const items: Item[] = [];
  let quote = '';
  let itemStart = open + 1;
  const push = (end: number) => {
    let s = itemStart;
    let e = end;
    while (s < e && /\s/.test(text[s])) s++;
    while (e > s && /\s/.test(text[e - 1])) e--;
    if (e > s) items.push({ start: s, end: e, value: unquote(text.slice(s, e)) });
  };
  for (let i = open + 1; i < limit; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === ',') {
      push(i);
      itemStart = i + 1;
    } else if (c === ']') {
      push(i);
      return { items, close: i };
    } else if (c === '[' || c === '{') {
      throw new LoomError(`${file}: a nested list in the frontmatter cannot be edited automatically`, file);
    }
  }
  throw new LoomError(`${file}: a list in the frontmatter opens with [ but never closes with ]`, file);
}

/**
 * The edits that add `value` to, or remove it from, a YAML flow list `[a, b]` (on one line or
 * several) opening at `open` and closing before `limit`, keeping its separator and quotes. `same`
 * tells an item that already is the value. A nested or unclosed list throws a LoomError naming the file.
 */
export function flowListEdits(file: string, text: string, open: number, limit: number, op: 'add' | 'remove', value: string, same: (item: string) => boolean): OffsetEdit[] {
  const { items, close } = flowItems(file, text, open, limit);
  const hits = items.filter((it) => same(it.value));
  if (op === 'remove') return removeListItems(text, items, hits, { start: open + 1, end: close });
  if (hits.length) return [];
  if (items.length === 0) return [{ start: open + 1, end: close, newText: itemText(value, undefined) }];
  const last = items[items.length - 1];
  // The separator the list already uses (`, ` or a line break and an indent), else `, `.
  const sep = items.length > 1 ? text.slice(items[items.length - 2].end, last.start) : ', ';
  return [{ start: last.end, end: last.end, newText: `${sep}${itemText(value, text.slice(last.start, last.end))}` }];
}
