/**
 * How the matrix names a test in the little room of its cell; plain functions without the DOM
 * (the text's width is measured by the caller), so that they are tested in Node.
 */
import { matrixTestName, type MatrixFileRef } from '../../src/shared/matrixModel';

/** The width in px of a text (as `canvasTextWidth` measures it in the grid's font). */
export type Measure = (text: string, bold: boolean) => number;

/**
 * What names a test in a cell: its file without the folder, extension and `.test`/`.spec`
 * (`tests/due/parseDueDate.test.js` → `parseDueDate`), and the test's name without the
 * behavior's id, which the row shows already (loom names tests after their behavior).
 */
export function testLabel(ref: MatrixFileRef, behavior: string): { file: string; name?: string } {
  const path = ref.ref.split(/#|::/)[0].trim();
  const base = path.split(/[\\/]/).pop() || path;
  const file = base.replace(/\.[^.]+$/, '').replace(/[._-](test|spec)$/i, '') || base;
  let name = matrixTestName(ref)?.trim();
  // The id as a word of its own ("REQ-001-B01 …", "REQ-001-B01: …"), not the start of a longer one ("REQ-001-B010").
  const rest = name?.startsWith(behavior) ? name.slice(behavior.length) : undefined;
  if (rest !== undefined && (rest === '' || /^[\s:：,，\-–—]/.test(rest))) name = rest.replace(/^[\s:：,，\-–—]+/, '') || undefined;
  return name ? { file, name } : { file };
}

/**
 * `text` cut in the middle to fit `room`, keeping its start and more of its end, which is what
 * tells test files apart (`parseDueDate`, `parseDueTime` → `pars…Date`, `pars…Time`).
 */
export function middleEllipsis(text: string, room: number, width: Measure): string {
  if (width(text, false) <= room) return text;
  const chars = Array.from(text);
  const cut = (kept: number) => {
    const head = Math.floor(kept * 0.4);
    return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (kept - head)).join('')}`;
  };
  let lo = 0;
  let hi = chars.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (width(cut(mid), false) <= room) lo = mid;
    else hi = mid - 1;
  }
  return cut(lo);
}
