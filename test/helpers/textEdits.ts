import type { Position } from '../../src/core/diagnostics/textPosition';
import type { TextEdit } from '../../src/core/files/textEdit';

/** Applies edits of one file to its text, as an editor would (fixes in tests are checked by their result). */
export function applyTextEdits(text: string, edits: readonly Pick<TextEdit, 'range' | 'newText'>[]): string {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const offset = (p: Position) => (lineStarts[p.line - 1] ?? text.length) + p.column - 1;
  const sorted = edits.map((e) => ({ start: offset(e.range.start), end: offset(e.range.end), newText: e.newText })).sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}
