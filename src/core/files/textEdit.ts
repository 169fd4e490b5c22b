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
