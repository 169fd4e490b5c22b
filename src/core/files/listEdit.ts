import type { OffsetEdit } from './textEdit';

/**
 * Removes `hits` from a one-level list written between brackets (a JSON array, a YAML flow list),
 * with the separators that go with them, keeping the list's own separator; removing every item
 * empties `inside` (the text between the brackets). No edits when nothing is hit.
 */
export function removeListItems(text: string, items: readonly { start: number; end: number }[], hits: readonly { start: number; end: number }[], inside: { start: number; end: number }): OffsetEdit[] {
  if (hits.length === 0) return [];
  if (hits.length === items.length) return [{ start: inside.start, end: inside.end, newText: '' }];
  if (hits.length > 1) {
    const kept = items.filter((x) => !hits.includes(x));
    const sep = text.slice(items[0].end, items[1].start);
    return [{ start: items[0].start, end: items[items.length - 1].end, newText: kept.map((x) => text.slice(x.start, x.end)).join(sep) }];
  }
  const i = items.indexOf(hits[0]);
  // `a, ` goes with the item when one follows it; `, b` with the one before it otherwise.
  return i < items.length - 1 ? [{ start: items[i].start, end: items[i + 1].start, newText: '' }] : [{ start: items[i - 1].end, end: items[i].end, newText: '' }];
}
