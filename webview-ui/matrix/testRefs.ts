import type { MatrixFileRef } from '../../src/shared/matrixModel';
import { h, type Child } from '../common/dom';
import type { TextWidth } from '../common/textWidth';
import { tv } from '../../src/shared/messages/viewText';

/** What the Tests cells are fitted to: the text width in the grid's font, and the room in a cell. */
export interface CellFit {
  width: TextWidth;
  /** The Tests column's width less its padding, in px. */
  room: number;
}

/**
 * What names a test in a cell: its file without the folder, extension and `.test`/`.spec`
 * (`tests/due/parseDueDate.test.js` → `parseDueDate`), and the test's name without the
 * behavior's id, which the row shows already (loom names tests after their behavior).
 */
export function testLabel(ref: MatrixFileRef, behavior: string): { file: string; name?: string } {
  const path = ref.ref.split(/#|::/)[0].trim();
  const base = path.split(/[\\/]/).pop() || path;
  const file = base.replace(/\.[^.]+$/, '').replace(/[._-](test|spec)$/i, '') || base;
  let name = ref.testName?.trim();
  if (name?.startsWith(behavior)) name = name.slice(behavior.length).replace(/^[\s:：,，\-–—]+/, '') || undefined;
  return name ? { file, name } : { file };
}

/**
 * `text` cut in the middle to fit `room`, keeping its start and more of its end, which is what
 * tells test files apart (`parseDueDate`, `parseDueTime` → `pars…Date`, `pars…Time`).
 */
export function middleEllipsis(text: string, room: number, width: TextWidth): string {
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

const fullTitle = (ref: MatrixFileRef) => (ref.testName ? `${ref.path ?? ref.ref.split(/#|::/)[0]} › ${ref.testName}` : (ref.path ?? ref.ref));

/**
 * A row's tests in the two lines of its cell, each line whole or cut in the middle, never after
 * a few letters: one test shows its file over its name; several show a file a line, the second
 * line counting those it has no room for (`+2`). Every test's full path and name is its tooltip and its
 * accessible name.
 */
export function testRefs(refs: readonly MatrixFileRef[], behavior: string, fit: CellFit | undefined): Child[] {
  const single = refs.length === 1;
  const kind = single ? '' : ' one-line';
  const line = (text: string, className: string) => h('span', { className: `ref-line ${className}` }, text);
  return refs.slice(0, 2).flatMap((r, i) => {
    const { file, name } = testLabel(r, behavior);
    // On the second line of three or more, the count of the rest takes its room after the file.
    const rest = refs.length > 2 && i === 1 ? `+${refs.length - 2}` : '';
    // A missing test among several is marked in its line, as "(missing)" has no line of its own.
    const mark = !single && !(r.exists && r.path) ? '✗ ' : '';
    const room = fit ? fit.room - (rest ? fit.width(` ${rest}`, false) : 0) - (mark ? fit.width(mark, false) : 0) : 0;
    const lines: Child[] = [mark ? h('span', { className: 'mark', attrs: { 'aria-hidden': 'true' } }, mark) : null, line(fit ? middleEllipsis(file, room, fit.width) : file, 'ref-file')];
    if (rest) lines.push(' ', h('span', { className: 'ref-more', attrs: { title: refs.slice(2).map(fullTitle).join('\n') } }, rest));
    let el: HTMLElement;
    if (r.exists && r.path) {
      if (single && name) lines.push(' ', line(name, 'ref-name'));
      const title = fullTitle(r);
      el = h('a', { className: `file-link test-ref${kind}`, attrs: { href: '#', 'data-link': `tests:${i}`, title, 'aria-label': title, tabindex: -1 } }, ...lines);
    } else if (r.reason === 'only-in-worktree') {
      const title = tv('view.matrix.onlyInWorktreeTitle', { ref: r.ref, path: r.path ?? '', through: r.recordAs ?? r.path ?? '' });
      if (single) lines.push(' ', line(`(${tv('view.matrix.onlyInWorktree')})`, 'ref-name note'));
      el = h('span', { className: `test-ref ref-missing ref-worktree${kind}`, attrs: { title } }, ...lines);
    } else {
      const title = tv(r.reason === 'outside-evidence' ? 'view.matrix.outsideEvidence' : 'view.matrix.refMissing', { ref: r.ref });
      el = h('span', { className: `test-ref ref-missing${kind}`, attrs: { title } }, ...lines);
    }
    return i ? [' ', el] : [el];
  });
}
