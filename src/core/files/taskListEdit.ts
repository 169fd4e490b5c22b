import { LoomError } from '../errors';
import { t as say } from '../messages';
import { normalizeTaskRef } from './taskFile';
import { toTextEdits, type OffsetEdit, type TextEdit } from './textEdit';
import { flowListEdits } from './yamlFlowList';
import { itemText, unquote } from './yamlScalar';

/** The lists of a task's frontmatter a quick fix may change. */
export const TASK_LIST_KEYS = ['behavior_ids', 'requirements', 'depends_on'] as const;
export type TaskListKey = (typeof TASK_LIST_KEYS)[number];

export interface TaskListChange {
  key: TaskListKey;
  op: 'add' | 'remove';
  value: string;
}

interface Line {
  start: number;
  /** End of the line's content, before `\r\n` or `\n`. */
  end: number;
  /** Start of the next line (or the end of the text). */
  next: number;
  text: string;
}

function* linesFrom(text: string, from: number): Generator<Line> {
  let start = from;
  while (start < text.length) {
    let next = text.indexOf('\n', start);
    next = next === -1 ? text.length : next + 1;
    let end = next;
    if (text.charCodeAt(end - 1) === 10) end--;
    if (text.charCodeAt(end - 1) === 13) end--;
    yield { start, end, next, text: text.slice(start, end) };
    start = next;
  }
}

/** Where the frontmatter's lines are: between the opening `---` and the closing one. */
function frontmatter(file: string, text: string): { lines: Line[]; close: Line } | undefined {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const all = linesFrom(text, bom);
  const first = all.next();
  if (first.done || first.value.text.trimEnd() !== '---') return undefined;
  const lines: Line[] = [];
  for (const line of all) {
    if (line.text.trimEnd() === '---') return { lines, close: line };
    lines.push(line);
  }
  throw new LoomError(say('files.frontmatterUnclosed', { file }), file);
}

/** Offset (within `s`) where a `#` comment starts, outside quotes and after a blank; or s.length. */
function commentStart(s: string): number {
  let quote = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || s[i - 1] === ' ' || s[i - 1] === '\t')) return i;
  }
  return s.length;
}

const sameItem = (key: TaskListKey, a: string, b: string) => a === b || (key === 'depends_on' && normalizeTaskRef(a) === normalizeTaskRef(b));

/**
 * The smallest edits to a task file's YAML frontmatter that add `change.value` to, or remove it
 * from, the list under `change.key`, keeping the file's own formatting: a flow list `[a, b]` (on
 * one line or several), a block list of `- a` lines, an empty `[]` or empty value, a lone scalar,
 * quotes, comments, CRLF line ends, and a key that is not there yet. No edits when there is
 * nothing to do (the value is already there, or already absent). A frontmatter that cannot be
 * edited safely (unclosed, nested lists) throws a LoomError naming the file.
 */
export function taskListEdits(file: string, text: string, change: TaskListChange): TextEdit[] {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const fm = frontmatter(file, text);
  let edits: OffsetEdit[];
  if (!fm) {
    edits = change.op === 'add' ? [{ start: 0, end: 0, newText: `---${eol}${change.key}: [${itemText(change.value, undefined)}]${eol}---${eol}` }] : [];
  } else {
    edits = editFrontmatter(file, text, fm, change, eol);
  }
  return toTextEdits(file, text, edits);
}

function editFrontmatter(file: string, text: string, fm: { lines: Line[]; close: Line }, change: TaskListChange, eol: string): OffsetEdit[] {
  const keyPattern = new RegExp(`^(["']?)${change.key}\\1\\s*:`);
  const index = fm.lines.findIndex((l) => keyPattern.test(l.text));
  if (index < 0) {
    return change.op === 'add' ? [{ start: fm.close.start, end: fm.close.start, newText: `${change.key}: [${itemText(change.value, undefined)}]${eol}` }] : [];
  }
  const line = fm.lines[index];
  const colon = line.text.indexOf(':', line.text.search(/\S/) + change.key.length);
  const rest = line.text.slice(colon + 1);
  const valueText = rest.slice(0, commentStart(rest)).trim();
  const valueStart = line.start + colon + 1 + rest.indexOf(valueText);

  if (valueText.startsWith('[')) return flowListEdits(file, text, valueStart, fm.close.start, change.op, change.value, (item) => sameItem(change.key, item, change.value));
  if (valueText === '' || valueText === 'null' || valueText === '~') return editBlock(text, fm.lines, index, line.start + colon + 1, valueText, change, eol);

  // A lone scalar: one item, written as a flow list once it has to change.
  const value = unquote(valueText);
  const valueEnd = valueStart + valueText.length;
  if (change.op === 'add') {
    if (sameItem(change.key, value, change.value)) return [];
    return [{ start: valueStart, end: valueEnd, newText: `[${valueText}, ${itemText(change.value, valueText)}]` }];
  }
  return sameItem(change.key, value, change.value) ? [{ start: valueStart, end: valueEnd, newText: '[]' }] : [];
}

/** A key with an empty value, followed by its `- item` lines, if any. */
function editBlock(text: string, lines: Line[], index: number, afterColon: number, valueText: string, change: TaskListChange, eol: string): OffsetEdit[] {
  const items: { start: number; end: number; value: string; line: Line }[] = [];
  let indent: number | undefined;
  for (const l of lines.slice(index + 1)) {
    const trimmed = l.text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const m = /^(\s*)-(?:\s+(.*))?$/.exec(l.text);
    if (m && (indent === undefined || m[1].length === indent)) {
      indent = m[1].length;
      const raw = m[2] ?? '';
      const itemValue = raw.slice(0, commentStart(raw)).trim();
      const start = l.start + l.text.indexOf(itemValue, indent + 1);
      items.push({ start, end: start + itemValue.length, value: unquote(itemValue), line: l });
    } else if (!m && indent !== undefined && l.text.length - l.text.trimStart().length > indent) {
      // A continuation of the item before: it goes with that item.
      const last = items[items.length - 1];
      last.line = { ...last.line, end: l.end, next: l.next };
    } else break;
  }
  const hits = items.filter((it) => sameItem(change.key, it.value, change.value));
  if (change.op === 'add') {
    if (hits.length) return [];
    if (items.length === 0) {
      // `key:` or `key: null`: the value becomes a flow list; a comment after it stays.
      const end = valueText ? text.indexOf(valueText, afterColon) + valueText.length : afterColon;
      return [{ start: afterColon, end, newText: ` [${itemText(change.value, undefined)}]` }];
    }
    const last = items[items.length - 1];
    const lineText = `${' '.repeat(indent ?? 0)}- ${itemText(change.value, text.slice(last.start, last.end))}`;
    // After the last item's line; when that line has no line break (the end of the text), one is added.
    return last.line.next === last.line.end
      ? [{ start: last.line.end, end: last.line.end, newText: `${eol}${lineText}` }]
      : [{ start: last.line.next, end: last.line.next, newText: `${lineText}${eol}` }];
  }
  if (hits.length === 0) return [];
  // Removing every item leaves `key: []`, not a bare `key:` (which YAML reads as null).
  if (hits.length === items.length) return [{ start: afterColon, end: items[items.length - 1].line.end, newText: ' []' }];
  return hits.map((it) => ({ start: it.line.start, end: it.line.next, newText: '' }));
}
