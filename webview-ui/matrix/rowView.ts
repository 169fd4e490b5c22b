import type { MatrixFileRef, MatrixRow, MatrixTaskRef } from '../../src/shared/matrixModel';
import { h, type Child } from '../common/dom';
import { plural } from '../common/format';
import type { MatrixItem } from './items';

export const COLUMNS = [
  { key: 'behavior', label: 'Behavior' },
  { key: 'category', label: 'Category' },
  { key: 'status', label: 'Status' },
  { key: 'tasks', label: 'Tasks' },
  { key: 'tests', label: 'Tests' },
  { key: 'evidence', label: 'Evidence' },
  { key: 'closed', label: 'Closed' },
] as const;
export type ColumnKey = (typeof COLUMNS)[number]['key'];

export const cellId = (item: number, column: number) => `cell-${item}-${column}`;

/** A requirement status in words for the cell; the raw value is the cell's tooltip. */
const STATUS_LABELS: ReadonlyMap<string, string> = new Map([
  ['failing', 'Failing'],
  ['in_progress', 'In progress'],
  ['candidate_implemented', 'Candidate'],
  ['passing', 'Passing'],
  ['blocked', 'Blocked'],
  ['superseded', 'Superseded'],
]);

export const statusLabel = (status: string) => STATUS_LABELS.get(status) ?? status;

const longest = (values: Iterable<string>) => Math.max(0, ...[...values].map((v) => v.length));

/**
 * The grid's column widths, sized to what the columns hold: the category column to the longest
 * category shown, status to its longest label, Closed to "✓ closed"; the behavior column
 * takes what is left and stays in sight (sticky) when the grid scrolls sideways.
 */
export function columnTemplate(categories: readonly string[]): { columns: string; minWidth: string } {
  // A letter of the UI font is about 0.85 of a `ch` (the width of "0"); 16px is the cell's padding.
  const words = [Math.max(longest(categories), 'Category'.length), longest(STATUS_LABELS.values()), '✓ closed'.length].map((n) => Math.ceil(n * 0.85));
  const [category, status, closed] = words.map((n) => `calc(${n}ch + 16px)`);
  return {
    columns: ['minmax(160px, 2.4fr)', category, status, 'minmax(48px, 0.6fr)', 'minmax(90px, 1.2fr)', 'minmax(90px, 1.2fr)', closed].join(' '),
    minWidth: `calc(${160 + 48 + 90 + 90 + 3 * 16}px + ${words.reduce((a, b) => a + b, 0)}ch)`,
  };
}

/** What a link inside a row opens; `data-link` on the anchor names it. */
export type LinkRef = { column: 'source' } | { column: 'tasks' | 'tests' | 'evidence'; index: number };

export function parseLinkRef(value: string | undefined): LinkRef | undefined {
  if (value === 'source') return { column: 'source' };
  const m = /^(tasks|tests|evidence):(\d+)$/.exec(value ?? '');
  return m ? { column: m[1] as 'tasks' | 'tests' | 'evidence', index: Number(m[2]) } : undefined;
}

const link = (data: string, label: string, title: string) => h('a', { className: 'file-link', attrs: { href: '#', 'data-link': data, title, tabindex: -1 } }, label);

const missing = (label: string, title: string) => h('span', { className: 'ref-missing', attrs: { title } }, label);

/** Shown where a link is missing altogether: marked in words as well as colour. */
const empty = (what: string) => h('span', { className: 'ref-empty' }, h('span', { className: 'mark', attrs: { 'aria-hidden': 'true' } }, '✗ '), `no ${what}`);

function taskRefs(tasks: readonly MatrixTaskRef[]): Child[] {
  if (tasks.length === 0) return [empty('task')];
  return tasks.map((t, i) => (t.exists && t.path ? link(`tasks:${i}`, t.id, t.path) : missing(t.id, `tasks/${t.id}.md does not exist`)));
}

function fileRefs(refs: readonly MatrixFileRef[], column: 'tests' | 'evidence'): Child[] {
  if (refs.length === 0) return [empty(column === 'tests' ? 'test' : 'evidence')];
  return refs.map((r, i) => {
    if (r.exists && r.path) return link(`${column}:${i}`, shortRef(r), r.testName ? `${r.path} › ${r.testName}` : r.path);
    const why = r.reason === 'outside-evidence' ? 'is not inside the spec’s evidence/ folder' : 'does not exist';
    return missing(shortRef(r), `${r.ref} ${why}`);
  });
}

/** The file's name (and test) rather than its whole path; the tooltip has the rest. */
function shortRef(r: MatrixFileRef): string {
  const file = r.ref.split(/#|::/)[0].trim();
  const name = file.split(/[\\/]/).pop() || file;
  return r.testName ? `${name} › ${r.testName}` : name;
}

function cell(item: number, column: number, className: string, children: Child[], attrs: Record<string, string | number | undefined> = {}): HTMLElement {
  return h('div', { className: `cell ${className}`, attrs: { role: 'gridcell', id: cellId(item, column), 'aria-colindex': column + 1, ...attrs } }, ...children);
}

export function renderBehaviorRow(index: number, row: MatrixRow, active: { item: number; column: number } | undefined): HTMLElement {
  const selected = active?.item === index;
  const gap = (g: MatrixRow['gaps'][number]) => row.gaps.includes(g);
  const cells = [
    cell(index, 0, 'c-behavior', [link('source', row.behavior, `${row.source.path}${row.source.line ? `:${row.source.line}` : ''}`), ' ', h('span', { className: 'desc' }, row.description)], {
      title: row.description,
    }),
    cell(index, 1, 'c-category', [row.category]),
    cell(
      index,
      2,
      `c-status status-${row.status}`,
      [statusLabel(row.status), row.applicability === 'not-applicable' ? h('span', { className: 'chip', attrs: { title: 'applicability: not-applicable' } }, 'n/a') : null],
      { title: `status: ${row.status}` },
    ),
    cell(index, 3, `c-refs${gap('no-task') || gap('unknown-task') ? ' gap' : ''}`, taskRefs(row.tasks)),
    cell(index, 4, `c-refs${gap('no-test') || gap('missing-test') ? ' gap' : ''}`, fileRefs(row.tests, 'tests')),
    cell(index, 5, `c-refs${gap('no-evidence') || gap('missing-evidence') ? ' gap' : ''}`, fileRefs(row.evidence, 'evidence')),
    cell(index, 6, `c-closed ${row.closed ? 'ok' : 'bad'}`, [row.closed ? (row.applicability === 'not-applicable' ? '✓ n/a' : '✓ closed') : '✗ open'], {
      title: row.closed ? (row.applicability === 'not-applicable' ? 'closed: not applicable' : 'closed') : 'open',
    }),
  ];
  if (selected) cells[active.column]?.classList.add('active');
  return h(
    'div',
    {
      className: `row behavior${row.closed ? '' : ' open'}${selected ? ' selected' : ''}`,
      attrs: { role: 'row', 'aria-rowindex': index + 2, 'aria-selected': selected ? 'true' : 'false', 'data-item': index },
    },
    ...cells,
  );
}

export function renderGroupRow(index: number, item: Extract<MatrixItem, { kind: 'requirement' }>, pinned = false): HTMLElement {
  const r = item.requirement;
  const missingCats = r.missingCategories.length
    ? [h('span', { className: 'bad' }, '✗ no behavior for: '), ...r.missingCategories.map((c) => h('span', { className: 'chip bad' }, c))]
    : r.requiredCategories.length
      ? [h('span', { className: 'ok', attrs: { title: `required: ${r.requiredCategories.join(', ')}` } }, '✓ required categories covered')]
      : [];
  // The toolbar's form, filtered or not: "4 behaviors · 3 closed", "1 of 4 behaviors · 0 closed".
  const counts = item.shown === r.behaviors ? `${plural(r.behaviors, 'behavior')} · ${r.closed} closed` : `${item.shown} of ${plural(r.behaviors, 'behavior')} · ${item.shownClosed} closed`;
  return h(
    'div',
    {
      className: `row group${r.missingCategories.length ? ' missing-categories' : ''}${pinned ? ' pinned' : ''}`,
      attrs: pinned ? { 'aria-hidden': 'true' } : { role: 'row', 'aria-rowindex': index + 2, 'data-item': index },
    },
    h(
      'div',
      { className: 'cell c-group', attrs: pinned ? {} : { role: 'gridcell', 'aria-colspan': COLUMNS.length } },
      // Spaces between the parts, so the row reads as words to a screen reader (and to textContent).
      h('strong', null, r.id),
      ' ',
      h('span', { className: 'muted' }, counts),
      ' ',
      ...missingCats.flatMap((c) => [c, ' ']),
    ),
  );
}
