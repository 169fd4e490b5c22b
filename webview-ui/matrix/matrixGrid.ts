import type { OpenFileMessage } from '../../src/shared/protocol';
import { matrixTestName, refExists, refPath, taskFile, type MatrixLinks, type MatrixRow } from '../../src/shared/matrixModel';
import { h, replaceChildren } from '../common/dom';
import type { MatrixItem } from './items';
import { canvasTextWidth, type TextWidth } from '../common/textWidth';
import { CELL_PADDING, cellId, columnLabel, columnTemplate, COLUMNS, parseLinkRef, renderBehaviorRow, renderGroupRow, type LinkRef } from './rowView';
import type { CellFit } from './testRefs';
import { WindowedList } from './windowedList';
import { tv } from '../../src/shared/messages/viewText';

/** Fixed heights: the windowed list computes positions from them, the CSS reads them as variables. */
/** Two lines of text: a behavior's id over its description, a cell's links wrapped rather than cut. */
export const ROW_HEIGHT = 44;
export const HEADER_HEIGHT = 30;

export interface GridSelection {
  behavior?: string;
  column: number;
}

/**
 * The matrix grid: a sticky column header, the current requirement's header pinned under it,
 * and a windowed list of requirement headers and behavior rows. Keyboard: arrows move the
 * active cell (up/down between behaviors, left/right between columns), Page Up/Down, Ctrl+Home/End,
 * Enter opens the active cell's first link. ARIA grid semantics with aria-activedescendant, so the
 * focus stays on the grid while rows come and go.
 */
export class MatrixGrid {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private readonly pinned: HTMLElement;
  private readonly list: WindowedList;
  private items: MatrixItem[] = [];
  private links: MatrixLinks = { requirementsPath: '', taskFiles: {}, paths: [] };
  private active: { item: number; column: number } | undefined;
  private column = 0;
  private selectedBehavior: string | undefined;
  private textWidth: TextWidth | undefined;
  /** How the Tests cells are fitted: read from the column's header once, again when it changes width. */
  private fit: CellFit | undefined;
  private readonly testsHeader: HTMLElement;
  private columnsFrom: { categories: readonly string[]; taskIds: readonly string[]; testFiles: readonly string[] } | undefined;

  constructor(private readonly on: { open(target: Omit<OpenFileMessage, 'type'>): void; change(): void }) {
    const header = h(
      'div',
      { className: 'grid-header', attrs: { role: 'rowgroup' } },
      h(
        'div',
        { className: 'row header-row', attrs: { role: 'row', 'aria-rowindex': 1 } },
        ...COLUMNS.map((c, i) => h('div', { className: `cell c-${c.key}`, attrs: { role: 'columnheader', 'aria-colindex': i + 1 } }, columnLabel(c.key))),
      ),
    );
    this.testsHeader = header.querySelector<HTMLElement>('.c-tests')!;
    this.pinned = h('div', { className: 'pin-wrap' });
    this.body = h('div', { className: 'grid-body', attrs: { role: 'rowgroup' } });
    this.element = h(
      'div',
      {
        className: 'grid',
        attrs: { id: 'matrix-grid', role: 'grid', tabindex: 0, 'aria-label': tv('view.matrix.gridLabel'), 'aria-colcount': COLUMNS.length, 'aria-rowcount': 1 },
      },
      header,
      this.pinned,
      this.body,
    );
    this.element.style.setProperty('--row-h', `${ROW_HEIGHT}px`);
    this.element.style.setProperty('--header-h', `${HEADER_HEIGHT}px`);
    // The word after a missing link (matrix.css `.ref-missing::after`), in the view's language.
    this.element.style.setProperty('--loom-missing-mark', JSON.stringify(tv('view.matrix.missingMark')));

    this.list = new WindowedList({
      viewport: this.element,
      body: this.body,
      rowHeight: ROW_HEIGHT,
      overscan: 8,
      stickyTop: () => HEADER_HEIGHT,
      pinnedHeight: ROW_HEIGHT,
      renderRow: (i) => this.renderItem(i),
      onRender: (first) => this.pin(first),
    });
    // The rows in the DOM fit their tests again when the column's width changes (a resize, new columns).
    new ResizeObserver(() => {
      if (this.fit && this.fit.room !== this.testsRoom()) {
        this.fit = undefined;
        this.list.refresh();
      }
    }).observe(this.testsHeader);
    // The Tests column's least width depends on the grid's (columnTemplate's room).
    new ResizeObserver(() => this.layoutColumns()).observe(this.element);
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    this.element.addEventListener('click', (e) => this.onClick(e));
    this.element.addEventListener('scroll', () => this.on.change(), { passive: true });
  }

  /**
   * The column widths, from every category of the ledger (not only those a filter shows, so that
   * filtering does not make the columns jump), measured in the grid's own font.
   */
  setColumns(categories: readonly string[], taskIds: readonly string[] = [], testFiles: readonly string[] = []): void {
    this.columnsFrom = { categories, taskIds, testFiles };
    this.layoutColumns();
  }

  private layoutColumns(): void {
    if (!this.columnsFrom || !this.element.isConnected) return;
    const { categories, taskIds, testFiles } = this.columnsFrom;
    this.textWidth ??= canvasTextWidth(this.element);
    const { columns, minWidth } = columnTemplate(categories, this.textWidth, taskIds, testFiles, this.element.clientWidth);
    if (this.element.style.getPropertyValue('--columns') === columns) return;
    this.element.style.setProperty('--columns', columns);
    this.element.style.setProperty('--grid-min', minWidth);
  }

  private testsRoom(): number {
    return Math.max(0, this.testsHeader.clientWidth - CELL_PADDING);
  }

  /** Read when the first row is rendered, after the layout the windowed list reads anyway. */
  private cellFit(): CellFit {
    this.textWidth ??= canvasTextWidth(this.element);
    this.fit ??= { width: this.textWidth, room: this.testsRoom() };
    return this.fit;
  }

  /** New rows (filters changed or the host sent an update): the selection follows its behavior. */
  setItems(items: MatrixItem[], links: MatrixLinks): void {
    this.items = items;
    this.links = links;
    this.element.setAttribute('aria-rowcount', String(items.length + 1));
    const index = this.selectedBehavior === undefined ? -1 : items.findIndex((it) => it.kind === 'behavior' && it.row.behavior === this.selectedBehavior);
    this.active = index >= 0 ? { item: index, column: this.column } : undefined;
    this.list.setCount(items.length);
    this.updateActiveDescendant();
  }

  get selection(): GridSelection {
    return { behavior: this.selectedBehavior, column: this.column };
  }

  set selection(s: GridSelection) {
    this.selectedBehavior = s.behavior;
    this.column = Math.max(0, Math.min(COLUMNS.length - 1, s.column));
  }

  get scrollTop(): number {
    return this.element.scrollTop;
  }

  set scrollTop(value: number) {
    this.element.scrollTop = value;
    this.list.render();
  }

  /** Number of rows now in the DOM (bounded by the viewport, whatever the ledger's size). */
  get renderedRows(): number {
    return this.body.childElementCount;
  }

  private renderItem(i: number): HTMLElement {
    const item = this.items[i];
    return item.kind === 'requirement' ? renderGroupRow(i, item) : renderBehaviorRow(this.links, i, item.row, this.active, this.cellFit());
  }

  /** Keeps the header of the requirement being scrolled through visible under the column header. */
  private pin(first: number): void {
    const item = this.items[first];
    if (!item || item.kind === 'requirement') {
      this.pinned.replaceChildren();
      return;
    }
    const group = this.items[item.group];
    if (group?.kind === 'requirement') replaceChildren(this.pinned, renderGroupRow(item.group, group, true));
  }

  private move(toItem: number, column = this.column, direction: 1 | -1 = 1): void {
    // Requirement headers are not selectable: step over them in the direction of travel.
    let i = Math.max(0, Math.min(this.items.length - 1, toItem));
    while (i >= 0 && i < this.items.length && this.items[i].kind !== 'behavior') i += direction;
    if (i < 0 || i >= this.items.length) {
      i = toItem;
      while (i >= 0 && i < this.items.length && this.items[i].kind !== 'behavior') i -= direction;
    }
    const item = this.items[i];
    if (!item || item.kind !== 'behavior') return;
    const before = this.active?.item;
    this.active = { item: i, column };
    this.column = column;
    this.selectedBehavior = item.row.behavior;
    this.list.scrollIntoView(i);
    this.list.refresh(before === undefined || before === i ? [i] : [before, i]);
    this.updateActiveDescendant();
    this.on.change();
  }

  private updateActiveDescendant(): void {
    if (this.active) this.element.setAttribute('aria-activedescendant', cellId(this.active.item, this.active.column));
    else this.element.removeAttribute('aria-activedescendant');
  }

  private onKey(e: KeyboardEvent): void {
    const at = this.active?.item;
    // Without a selection, the keys start from the first row in view, not from the top of the list.
    const here = this.list.visibleRange().first;
    const page = this.list.pageSize();
    const last = this.items.length - 1;
    switch (e.key) {
      case 'ArrowDown':
        this.move(at === undefined ? here : at + 1, this.column, 1);
        break;
      case 'ArrowUp':
        this.move(at === undefined ? here : at - 1, this.column, at === undefined ? 1 : -1);
        break;
      case 'ArrowRight':
        if (at !== undefined) this.move(at, Math.min(COLUMNS.length - 1, this.column + 1));
        break;
      case 'ArrowLeft':
        if (at !== undefined) this.move(at, Math.max(0, this.column - 1));
        break;
      case 'PageDown':
        this.move(Math.min(last, (at ?? here) + page), this.column, 1);
        break;
      case 'PageUp':
        this.move(Math.max(0, (at ?? here) - page), this.column, -1);
        break;
      case 'Home':
        if (e.ctrlKey || e.metaKey || at === undefined) this.move(0, this.column, 1);
        else this.move(at, 0);
        break;
      case 'End':
        if (e.ctrlKey || e.metaKey || at === undefined) this.move(last, this.column, -1);
        else this.move(at, COLUMNS.length - 1);
        break;
      case 'Enter':
      case ' ':
        if (at !== undefined) this.openActive();
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  /** Enter on a cell opens its first link; on a cell without links, where the behavior is declared. */
  private openActive(): void {
    const item = this.active && this.items[this.active.item];
    if (!item || item.kind !== 'behavior') return;
    const key = COLUMNS[this.column].key;
    if (key === 'tasks' || key === 'tests' || key === 'evidence') {
      const index = key === 'tasks' ? item.row.tasks.findIndex((id) => taskFile(this.links, id) !== undefined) : item.row[key].findIndex(refExists);
      if (index >= 0) this.open(item.row, { column: key, index });
      return;
    }
    this.open(item.row, { column: 'source' });
  }

  private open(row: MatrixRow, link: LinkRef): void {
    if (link.column === 'source') {
      this.on.open({ path: this.links.requirementsPath, ...(row.line ? { line: row.line } : {}) });
      return;
    }
    if (link.column === 'tasks') {
      const id = row.tasks[link.index];
      const path = id === undefined ? undefined : taskFile(this.links, id);
      if (path) this.on.open({ path });
      return;
    }
    const ref = row[link.column][link.index];
    const path = ref && refExists(ref) ? refPath(this.links, ref) : undefined;
    if (!path) return;
    const testName = link.column === 'tests' ? matrixTestName(ref) : undefined;
    this.on.open({ path, ...(testName ? { testName } : {}) });
  }

  private onClick(e: MouseEvent): void {
    const target = e.target as Element;
    const rowEl = target.closest<HTMLElement>('[data-item]');
    if (!rowEl) return;
    const index = Number(rowEl.dataset.item);
    const item = this.items[index];
    if (!item || item.kind !== 'behavior') return;
    const cellEl = target.closest<HTMLElement>('[aria-colindex]');
    this.move(index, cellEl ? Number(cellEl.getAttribute('aria-colindex')) - 1 : this.column);
    this.element.focus({ preventScroll: true });
    const anchor = target.closest<HTMLElement>('a[data-link]');
    if (anchor) {
      e.preventDefault();
      const link = parseLinkRef(anchor.dataset.link);
      if (link) this.open(item.row, link);
    }
  }
}
