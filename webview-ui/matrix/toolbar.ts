import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type { VscodeSingleSelect } from '@vscode-elements/elements/dist/vscode-single-select/vscode-single-select.js';
import type { VscodeTextfield } from '@vscode-elements/elements/dist/vscode-textfield/vscode-textfield.js';
import { EMPTY_FILTER, type MatrixCounts, type MatrixFilter } from '../../src/shared/matrixFilter';
import type { ExportFormat } from '../../src/shared/protocol';
import { h, replaceChildren } from '../common/dom';
import { canvasTextWidth } from '../common/textWidth';
import { tv } from '../../src/shared/messages/viewText';

type SelectKey = 'category' | 'status' | 'task';

/** The filter controls, the live counts and the export buttons above the grid. */
export class Toolbar {
  readonly element: HTMLElement;
  private readonly search: VscodeTextfield;
  private readonly gapsOnly: VscodeCheckbox;
  private readonly selects: Record<SelectKey, VscodeSingleSelect>;
  private readonly counts: HTMLElement;
  private readonly title: HTMLElement;
  private readonly options = new Map<SelectKey, string>();
  private searchTimer = 0;
  /** The filter itself; the controls reflect it (a select may not take a value until its options are in). */
  private current: MatrixFilter = { ...EMPTY_FILTER };

  constructor(
    private readonly onFilter: () => void,
    onExport: (format: ExportFormat) => void,
  ) {
    this.title = h('h1');
    this.counts = h('span', { className: 'counts', attrs: { id: 'counts', role: 'status', 'aria-live': 'polite' } });
    this.search = h('vscode-textfield', {
      attrs: { id: 'search', type: 'search', placeholder: tv('view.matrix.search'), 'aria-label': tv('view.matrix.searchLabel'), title: tv('view.matrix.searchLabel') },
    }) as VscodeTextfield;
    // Typing a word into a 5,000-row ledger should not refilter on every keystroke.
    this.search.addEventListener('input', () => {
      this.current.text = this.search.value;
      clearTimeout(this.searchTimer);
      this.searchTimer = window.setTimeout(onFilter, 120);
    });
    this.gapsOnly = h('vscode-checkbox', { attrs: { id: 'gaps-only', label: tv('view.matrix.gapsOnly') } }) as VscodeCheckbox;
    this.gapsOnly.addEventListener('change', () => {
      this.current.gapsOnly = this.gapsOnly.checked;
      onFilter();
    });
    const select = (key: SelectKey, label: string) => {
      const el = h('vscode-single-select', { attrs: { id: `filter-${key}`, 'aria-label': label } }) as VscodeSingleSelect;
      el.addEventListener('change', () => {
        this.current[key] = el.value;
        onFilter();
      });
      return el;
    };
    this.selects = { category: select('category', tv('view.matrix.filter.category')), status: select('status', tv('view.matrix.filter.status')), task: select('task', tv('view.matrix.filter.task')) };
    const clear = h('vscode-button', { attrs: { id: 'clear-filters', secondary: true }, on: { click: () => this.clear() } }, tv('view.matrix.clear'));
    // One Export button with a menu keeps the title line on one line at the default editor width.
    const menu = h('div', { className: 'export-menu', attrs: { id: 'export-menu', role: 'menu', hidden: true } });
    const toggle = h('vscode-button', { attrs: { id: 'export', secondary: true, 'aria-haspopup': 'menu', 'aria-controls': 'export-menu' } }, tv('view.matrix.export'));
    const setOpen = (open: boolean) => {
      menu.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
    };
    const item = (id: string, label: string, format: ExportFormat) =>
      h('button', { className: 'menu-item', attrs: { id, role: 'menuitem', type: 'button' }, on: { click: () => (setOpen(false), onExport(format)) } }, label);
    replaceChildren(menu, item('export-csv', 'CSV…', 'csv'), item('export-markdown', 'Markdown…', 'markdown'));
    toggle.addEventListener('click', (e) => {
      e.stopPropagation();
      setOpen(menu.hidden);
    });
    document.addEventListener('click', (e) => !menu.contains(e.target as Node) && setOpen(false));
    document.addEventListener('keydown', (e) => e.key === 'Escape' && setOpen(false));

    this.element = h(
      'header',
      { className: 'toolbar' },
      h('div', { className: 'title-line' }, this.title, this.counts, h('span', { className: 'spacer' }), h('span', { className: 'export' }, toggle, menu)),
      h('div', { className: 'filters', attrs: { role: 'search' } }, this.search, this.gapsOnly, this.selects.category, this.selects.status, this.selects.task, clear),
    );
  }

  setTitle(specName: string): void {
    replaceChildren(this.title, tv('view.matrix.title'), h('span', { className: 'mono' }, specName));
  }

  /**
   * Fills a select's options (`label` words a value as the grid shows it), keeping the chosen
   * value when it is still offered. Says whether they changed: the caller fits the controls once
   * for all three selects (each fit reads the page's layout).
   */
  setOptions(key: SelectKey, all: string, values: readonly string[], label: (value: string) => string = (v) => v): boolean {
    const signature = values.join('\n');
    if (this.options.get(key) === signature) return false;
    this.options.set(key, signature);
    const el = this.selects[key];
    replaceChildren(el, h('vscode-option', { attrs: { value: '' } }, all), ...values.map((v) => h('vscode-option', { attrs: { value: v } }, label(v))));
    if (!values.includes(this.current[key])) this.current[key] = '';
    this.reflect(key);
    return true;
  }

  /**
   * Sizes each control to what it shows, so nothing is cut: a select to its longest option, the
   * search field to its placeholder. The filters wrap onto a second line when the panel is
   * narrower than all of them (a wider side bar), rather than cutting their words.
   */
  fitControls(): void {
    if (!this.element.isConnected) return;
    const width = canvasTextWidth(this.search);
    // The select's padding and its arrow; the text field's padding and border.
    const SELECT_CHROME = 42;
    const FIELD_CHROME = 26;
    for (const key of ['category', 'status', 'task'] as const) {
      const el = this.selects[key];
      const texts = [...el.querySelectorAll('vscode-option')].map((o) => o.textContent ?? '');
      el.style.width = `${Math.ceil(Math.max(0, ...texts.map((t) => width(t, false)))) + SELECT_CHROME}px`;
    }
    this.search.style.minWidth = `${Math.ceil(width(tv('view.matrix.search'), false)) + FIELD_CHROME}px`;
  }

  get filter(): MatrixFilter {
    return { ...this.current };
  }

  set filter(f: MatrixFilter) {
    this.current = { ...f };
    this.gapsOnly.checked = f.gapsOnly;
    this.search.value = f.text;
    for (const key of ['category', 'status', 'task'] as const) this.reflect(key);
  }

  /** Shows the filter's value in a select, again once the select has taken in new options. */
  private reflect(key: SelectKey): void {
    const el = this.selects[key];
    el.value = this.current[key];
    void el.updateComplete.then(() => {
      if (el.value !== this.current[key]) el.value = this.current[key];
    });
  }

  private clear(): void {
    this.filter = { gapsOnly: false, category: '', status: '', task: '', text: '' };
    this.onFilter();
  }

  setCounts(c: MatrixCounts): void {
    const shown = c.shown === c.total ? tv('view.matrix.shownAll', { total: c.total }) : tv('view.matrix.shownSome', { shown: c.shown, total: c.total });
    replaceChildren(
      this.counts,
      h('span', { attrs: { 'data-count': 'shown' } }, shown),
      ' · ',
      h('span', { className: 'ok', attrs: { 'data-count': 'closed' } }, tv('view.matrix.countClosed', { count: c.closed })),
      ' · ',
      h('span', { className: c.open ? 'bad' : '', attrs: { 'data-count': 'open' } }, tv('view.matrix.countOpen', { count: c.open })),
    );
  }
}
