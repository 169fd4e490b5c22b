import { positionAt, type Position } from '../diagnostics/textPosition';

/** A replacement of `text.slice(start, end)`. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

/** A replacement of one range of a file (1-based lines and columns, the end exclusive), as editors apply them. */
export interface TextEdit {
  /** The file the edit applies to, as the caller named it. */
  file: string;
  range: { start: Position; end: Position };
  newText: string;
}

/** Offset edits of `text` as the line-and-column edits editors apply. */
export const toTextEdits = (file: string, text: string, edits: readonly OffsetEdit[]): TextEdit[] =>
  edits.map((e) => ({ file, range: { start: positionAt(text, e.start), end: positionAt(text, e.end) }, newText: e.newText }));

/** Applies edits of one file to its text (for tests and for writers without an editor). */
export function applyTextEdits(text: string, edits: readonly Pick<TextEdit, 'range' | 'newText'>[]): string {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const offset = (p: Position) => (lineStarts[p.line - 1] ?? text.length) + p.column - 1;
  const sorted = edits.map((e) => ({ start: offset(e.range.start), end: offset(e.range.end), newText: e.newText })).sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}
