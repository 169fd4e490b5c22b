import { matrixTestName, refExists, refPath, type MatrixFileRef, type MatrixLinks } from '../../src/shared/matrixModel';
import { h, type Child } from '../common/dom';
import type { TextWidth } from '../common/textWidth';
import { middleEllipsis, testLabel } from './testNames';
import { tv } from '../../src/shared/messages/viewText';

/** What the Tests cells are fitted to: the text width in the grid's font, and the room in a cell. */
export interface CellFit {
  width: TextWidth;
  /** The Tests column's width less its padding, in px. */
  room: number;
}

function fullTitle(links: MatrixLinks, ref: MatrixFileRef): string {
  const path = refPath(links, ref);
  const name = matrixTestName(ref);
  return name ? `${path ?? ref.ref.split(/#|::/)[0]} › ${name}` : (path ?? ref.ref);
}

/** A row's tests of one file (and one standing: found, missing, only in the worktree), with their places in the row's list. */
interface FileGroup {
  file: string;
  refs: { ref: MatrixFileRef; index: number; name?: string }[];
}

function byFile(links: MatrixLinks, refs: readonly MatrixFileRef[], behavior: string): FileGroup[] {
  const groups = new Map<string, FileGroup>();
  refs.forEach((ref, index) => {
    const { file, name } = testLabel(ref, behavior);
    const key = `${refPath(links, ref) ?? ref.ref.split(/#|::/)[0].trim()}\0${ref.reason ?? ''}`;
    const group = groups.get(key) ?? { file, refs: [] };
    group.refs.push({ ref, index, ...(name ? { name } : {}) });
    groups.set(key, group);
  });
  return [...groups.values()];
}

/**
 * A row's tests in the two lines of its cell, each line whole or cut in the middle, never after
 * a few letters. Tests of one file show the file over the first test's name (`+1` for each other
 * test of it); tests of several files show a file a line (`×2` for two tests of it), the second
 * line counting the tests it has no room for (`+3`). Each file's tests, full path and name, are
 * its tooltip and its accessible name.
 */
export function testRefs(links: MatrixLinks, refs: readonly MatrixFileRef[], behavior: string, fit: CellFit | undefined): Child[] {
  const groups = byFile(links, refs, behavior);
  const single = groups.length === 1;
  const line = (text: string, className: string) => h('span', { className: `ref-line ${className}` }, text);
  const count = (text: string, title?: string) => h('span', { className: 'ref-more', attrs: title ? { title } : {} }, text);
  return groups.slice(0, 2).flatMap((g, i) => {
    const first = g.refs[0];
    const found = refExists(first.ref) && first.ref.path !== undefined;
    // After the file on its line: how many tests of it, and on the second line of three files or more, how many tests are left out.
    const times = !single && g.refs.length > 1 ? `×${g.refs.length}` : '';
    const hidden = groups.slice(2).flatMap((x) => x.refs);
    const rest = i === 1 && hidden.length ? `+${hidden.length}` : '';
    // A missing file among several is marked in its line, as "(missing)" has no line of its own.
    const mark = !single && !found ? '✗ ' : '';
    const after = [times, rest].filter(Boolean);
    const room = fit ? fit.room - (mark ? fit.width(mark, false) : 0) - after.reduce((w, t) => w + fit.width(` ${t}`, false), 0) : 0;
    const lines: Child[] = [mark ? h('span', { className: 'mark', attrs: { 'aria-hidden': 'true' } }, mark) : null, line(fit ? middleEllipsis(g.file, room, fit.width) : g.file, 'ref-file')];
    if (times) lines.push(' ', count(times));
    if (rest) lines.push(' ', count(rest, hidden.map((x) => fullTitle(links, x.ref)).join('\n')));
    const titles = g.refs.map((x) => fullTitle(links, x.ref)).join('\n');
    const kind = single ? '' : ' one-line';
    let el: HTMLElement;
    if (found) {
      if (single && first.name) {
        const others = g.refs.length - 1;
        lines.push(' ', others ? h('span', { className: 'ref-line ref-name-line' }, h('span', { className: 'ref-name' }, first.name), ' ', count(`+${others}`)) : line(first.name, 'ref-name'));
      }
      el = h('a', { className: `file-link test-ref${kind}`, attrs: { href: '#', 'data-link': `tests:${first.index}`, title: titles, 'aria-label': titles, tabindex: -1 } }, ...lines);
    } else if (first.ref.reason === 'only-in-worktree') {
      const r = first.ref;
      const path = refPath(links, r);
      const title = tv('view.matrix.onlyInWorktreeTitle', { ref: r.ref, path: path ?? '', through: r.recordAs ?? path ?? '' });
      if (single) lines.push(' ', line(`(${tv('view.matrix.onlyInWorktree')})`, 'ref-name note'));
      el = h('span', { className: `test-ref ref-missing ref-worktree${kind}`, attrs: { title } }, ...lines);
    } else {
      const title = g.refs.map((x) => tv(x.ref.reason === 'outside-evidence' ? 'view.matrix.outsideEvidence' : 'view.matrix.refMissing', { ref: x.ref.ref })).join('\n');
      el = h('span', { className: `test-ref ref-missing${kind}`, attrs: { title } }, ...lines);
    }
    return i ? [' ', el] : [el];
  });
}
