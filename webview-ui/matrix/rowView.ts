import { refExists, refPath, taskFile, type MatrixFileRef, type MatrixLinks, type MatrixRow } from '../../src/shared/matrixModel';
import { h, type Child } from '../common/dom';
import type { TextWidth } from '../common/textWidth';
import type { MatrixItem } from './items';
import { testLabel } from './testNames';
import { testRefs, type CellFit } from './testRefs';
import { tv } from '../../src/shared/messages/viewText';

export const COLUMNS = [{ key: 'behavior' }, { key: 'category' }, { key: 'status' }, { key: 'tasks' }, { key: 'tests' }, { key: 'evidence' }, { key: 'closed' }] as const;
export type ColumnKey = (typeof COLUMNS)[number]['key'];
export const columnLabel = (key: ColumnKey) => tv(`view.matrix.col.${key}`);

export const cellId = (item: number, column: number) => `cell-${item}-${column}`;

/** A requirement status in words for the cell; the raw value is the cell's tooltip. */
const STATUSES = ['failing', 'in_progress', 'candidate_implemented', 'passing', 'blocked', 'superseded'] as const;
type KnownStatus = (typeof STATUSES)[number];
const isKnownStatus = (status: string): status is KnownStatus => (STATUSES as readonly string[]).includes(status);

export const statusLabel = (status: string) => (isKnownStatus(status) ? tv(`view.matrix.status.${status}`) : status);

/** A cell's padding (8px each side), and a pixel of slack for the rounding of text widths. */
export const CELL_PADDING = 17;

/**
 * The grid's column widths, fitted to what the columns can hold, whatever is shown: the header
 * of each column in full, the category column the longest category of the whole ledger (so a filter
 * does not narrow it) when there is room, and at least its longest part between hyphens, status
 * its longest label, Closed "✓ closed", Tasks two of the ledger's longest task ids side by side
 * (a row's ids wrap onto its second line rather than end in "T1…"), Tests the ledger's longest
 * test file name (`parseDueDate`) as far as `room`, the grid's width, leaves after the other
 * columns' least (a name longer than the column is cut in its middle); the
 * link columns at least their header, sharing what is left with the behavior column, which
 * stays in sight (sticky) when the grid scrolls sideways and is wide enough for its id on one
 * line and its description on the next (issue 49: at 600px it was cut to ten characters). Widths
 * are measured (`width`), not guessed from character counts.
 */
export function columnTemplate(
  categories: readonly string[],
  width: TextWidth,
  taskIds: readonly string[] = [],
  testFiles: readonly string[] = [],
  room = Infinity,
): { columns: string; minWidth: string } {
  const fit = (key: ColumnKey, values: readonly string[] = []) => Math.ceil(Math.max(width(columnLabel(key), true), ...values.map((v) => width(v, false)))) + CELL_PADDING;
  const behavior = BEHAVIOR_MIN;
  // A category wraps after its hyphen onto the row's second line ("forbidden-" over "behavior"): its least width is its longest part.
  const category = fit(
    'category',
    categories.flatMap((c) => c.match(/[^-]+-?/g) ?? [c]),
  );
  const categoryWide = fit('category', categories);
  const status = fit('status', STATUSES.map(statusLabel));
  const longestTask = taskIds.reduce((a, b) => (width(b, false) > width(a, false) ? b : a), '');
  const tasks = fit('tasks', longestTask ? [`${longestTask}  ${longestTask}`] : []);
  // Their links wrap onto the row's second line, so 70px holds one; the columns still fit the editor's default width beside a behavior column wide enough to read.
  const [testsLeast, evidence] = [fit('tests'), fit('evidence')].map((w) => Math.max(w, 70));
  const closed = fit('closed', [tv('view.matrix.closed'), tv('view.matrix.open'), tv('view.matrix.closedNa')]);
  // Tests: the longest file name whole on its line, as far as the grid's room allows beside the other columns' least; shorter, names are cut in their middle.
  const others = behavior + category + status + tasks + evidence + closed;
  const tests = Math.max(testsLeast, Math.min(TESTS_MAX_MIN, fit('tests', testFiles), Math.floor(room - others)));
  return {
    columns: [
      `minmax(${behavior}px, 2.4fr)`,
      `minmax(${category}px, ${categoryWide}px)`,
      `${status}px`,
      `minmax(${tasks}px, 0.6fr)`,
      `minmax(${tests}px, 1.2fr)`,
      `minmax(${evidence}px, 1.2fr)`,
      `${closed}px`,
    ].join(' '),
    minWidth: `${behavior + category + status + tasks + tests + evidence + closed}px`,
  };
}

/** The behavior column's least width: with two lines, its id and about fifty characters of its description. */
const BEHAVIOR_MIN = 220;

/** The most the Tests column asks for its longest file name (about thirty characters); a longer one is cut in its middle. */
const TESTS_MAX_MIN = 220;

/** The file names the Tests column shows (each file once), for fitting the column to the longest. */
export function testFileNames(rows: readonly MatrixRow[]): string[] {
  // Keyed by the file found (its number in the model's paths) or, without one, the ref.
  const files = new Map<number | string, string>();
  for (const row of rows) {
    for (const t of row.tests) {
      const key = t.path ?? t.ref;
      if (!files.has(key)) files.set(key, testLabel(t, row.behavior).file);
    }
  }
  return [...new Set(files.values())];
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
const empty = (what: string) => h('span', { className: 'ref-empty' }, h('span', { className: 'mark', attrs: { 'aria-hidden': 'true' } }, '✗ '), what);

/** Refs with a space between them: where the cell's second line may begin, and words to a screen reader. */
const spaced = (refs: Child[]): Child[] => refs.flatMap((r, i) => (i ? [' ', r] : [r]));

function taskRefs(links: MatrixLinks, tasks: readonly string[]): Child[] {
  if (tasks.length === 0) return [empty(tv('view.matrix.noTask'))];
  return spaced(
    tasks.map((id, i) => {
      const file = taskFile(links, id);
      return file ? link(`tasks:${i}`, id, file) : missing(id, tv('view.matrix.taskMissing', { task: id }));
    }),
  );
}

/** Evidence, or a row without tests (a row's tests are testRefs'). */
function fileRefs(links: MatrixLinks, refs: readonly MatrixFileRef[], column: 'tests' | 'evidence'): Child[] {
  if (refs.length === 0) return [empty(tv(column === 'tests' ? 'view.matrix.noTest' : 'view.matrix.noEvidence'))];
  return spaced(
    refs.map((r, i) => {
      const path = refPath(links, r);
      if (refExists(r) && path) return link(`${column}:${i}`, shortRef(r), path);
      if (r.reason === 'only-in-worktree') {
        const title = tv('view.matrix.onlyInWorktreeTitle', { ref: r.ref, path: path ?? '', through: r.recordAs ?? path ?? '' });
        return h('span', { className: 'ref-missing ref-worktree', attrs: { title } }, shortRef(r), h('span', { className: 'note' }, ` (${tv('view.matrix.onlyInWorktree')})`));
      }
      return missing(shortRef(r), tv(r.reason === 'outside-evidence' ? 'view.matrix.outsideEvidence' : 'view.matrix.refMissing', { ref: r.ref }));
    }),
  );
}

/** The file's name rather than its whole path; the tooltip has the rest. */
function shortRef(r: MatrixFileRef): string {
  const file = r.ref.split(/#|::/)[0].trim();
  return file.split(/[\\/]/).pop() || file;
}

function cell(item: number, column: number, className: string, children: Child[], attrs: Record<string, string | number | undefined> = {}): HTMLElement {
  return h('div', { className: `cell ${className}`, attrs: { role: 'gridcell', id: cellId(item, column), 'aria-colindex': column + 1, ...attrs } }, ...children);
}

export function renderBehaviorRow(links: MatrixLinks, index: number, row: MatrixRow, active: { item: number; column: number } | undefined, fit?: CellFit): HTMLElement {
  const selected = active?.item === index;
  const gap = (g: MatrixRow['gaps'][number]) => row.gaps.includes(g);
  const cells = [
    // The id and the description on two lines at most; the rest is in the tooltip.
    cell(index, 0, 'c-behavior', [link('source', row.behavior, `${links.requirementsPath}${row.line ? `:${row.line}` : ''}`), ' ', h('span', { className: 'desc' }, row.description)], {
      title: row.description,
    }),
    cell(index, 1, 'c-category', [row.category]),
    cell(
      index,
      2,
      `c-status status-${row.status}`,
      [statusLabel(row.status), row.applicability === 'not-applicable' ? h('span', { className: 'chip', attrs: { title: tv('view.matrix.notApplicable') } }, tv('view.matrix.na')) : null],
      { title: tv('view.matrix.statusTitle', { status: row.status }) },
    ),
    cell(index, 3, `c-refs${gap('no-task') || gap('unknown-task') ? ' gap' : ''}`, taskRefs(links, row.tasks)),
    cell(index, 4, `c-refs c-tests${gap('no-test') || gap('missing-test') ? ' gap' : ''}`, row.tests.length ? testRefs(links, row.tests, row.behavior, fit) : fileRefs(links, row.tests, 'tests')),
    cell(index, 5, `c-refs${gap('no-evidence') || gap('missing-evidence') ? ' gap' : ''}`, fileRefs(links, row.evidence, 'evidence')),
    cell(index, 6, `c-closed ${row.closed ? 'ok' : 'bad'}`, [tv(row.closed ? (row.applicability === 'not-applicable' ? 'view.matrix.closedNa' : 'view.matrix.closed') : 'view.matrix.open')], {
      title: tv(row.closed ? (row.applicability === 'not-applicable' ? 'view.matrix.closedNaTitle' : 'view.matrix.closedTitle') : 'view.matrix.openTitle'),
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
    ? [h('span', { className: 'bad' }, tv('view.matrix.noBehaviorFor')), ...r.missingCategories.map((c) => h('span', { className: 'chip bad' }, c))]
    : r.requiredCategories.length
      ? [h('span', { className: 'ok', attrs: { title: tv('view.matrix.required', { categories: r.requiredCategories.join(', ') }) } }, tv('view.matrix.requiredCovered'))]
      : [];
  // The toolbar's form, filtered or not: "4 behaviors · 3 closed", "1 of 4 behaviors · 0 closed".
  const counts =
    item.shown === r.behaviors
      ? tv('view.matrix.groupCounts', { behaviors: r.behaviors, closed: r.closed })
      : tv('view.matrix.groupCountsShown', { shown: item.shown, behaviors: r.behaviors, closed: item.shownClosed });
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
