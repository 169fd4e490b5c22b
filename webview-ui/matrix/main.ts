/**
 * The traceability matrix webview: filters and counts on top, the windowed grid below. The
 * model comes from the host (`init`, then `update` on every file change); filters, scroll and
 * selection are UI state, saved with setState and restored after a reload.
 */
import '../common/pageLanguage';
import '../common/base.css';
import './matrix.css';
import { countRows, EMPTY_FILTER, filterRows, isFiltered, sanitizeFilter, type MatrixFilter } from '../../src/shared/matrixFilter';
import type { MatrixModel } from '../../src/shared/matrixModel';
import { PROTOCOL_VERSION, type ExportFormat } from '../../src/shared/protocol';
import { h, replaceChildren } from '../common/dom';
import { announceRendered } from '../common/rendered';
import { onHostMessage, post, saveUi, savedUi } from '../common/vscodeApi';
import { toItems } from './items';
import { MatrixGrid } from './matrixGrid';
import { statusLabel, testFileNames } from './rowView';
import { Toolbar } from './toolbar';
import { tv } from '../../src/shared/messages/viewText';

interface MatrixUi {
  filter: MatrixFilter;
  scrollTop: number;
  selected?: string;
  column: number;
}

const app = document.getElementById('app')!;
let model: MatrixModel | undefined;
let shownIds: string[] | undefined;
let saveTimer = 0;

const grid = new MatrixGrid({
  open: (target) => post({ type: 'openFile', ...target }),
  change: () => scheduleSave(),
});
const toolbar = new Toolbar(
  () => applyFilter(),
  (format) => exportMatrix(format),
);
const notice = h('div', { className: 'notices' });

function exportMatrix(format: ExportFormat): void {
  if (!model) return;
  post({ type: 'exportMatrix', specDir: model.specDir, format, ...(shownIds ? { behaviors: shownIds } : {}) });
}

function scheduleSave(): void {
  clearTimeout(saveTimer);
  saveTimer = window.setTimeout(save, 100);
}

function save(): void {
  if (!model) return;
  const s = grid.selection;
  saveUi<MatrixUi>('matrix', model.specDir, { filter: toolbar.filter, scrollTop: grid.scrollTop, column: s.column, ...(s.behavior ? { selected: s.behavior } : {}) });
}

function applyFilter(): void {
  if (!model) return;
  const filter = toolbar.filter;
  const shown = filterRows(model.rows, filter);
  shownIds = isFiltered(filter) ? shown.map((r) => r.behavior) : undefined;
  toolbar.setCounts(countRows(shown, model.rows.length));
  grid.setItems(toItems(model, shown, isFiltered(filter)), model);
  scheduleSave();
}

/** The orphans listed under the notice; the rest are counted. */
const ORPHANS_LISTED = 200;

/** Each orphan's line, in the notice's order, worded only for the first `limit` (a large ledger has thousands). */
function orphanLines(o: MatrixModel['orphans'], limit: number): { lines: string[]; total: number } {
  const kinds: (() => string)[][] = [
    o.traceTasksUnknown.map((x) => () => tv('view.matrix.orphan.traceTask', { item: x.behavior ?? x.requirement, task: x.task })),
    o.taskBehaviorsUnknown.map((x) => () => tv('view.matrix.orphan.taskBehavior', { task: x.task, behavior: x.behavior })),
    o.traceRequirementsUnknown.map((r) => () => tv('view.matrix.orphan.traceRequirement', { requirement: r })),
    o.traceBehaviorsUnknown.map((x) => () => tv('view.matrix.orphan.traceBehavior', { behavior: x.behavior, requirement: x.requirement })),
    o.behaviorsWithoutTask.map((b) => () => tv('view.matrix.orphan.behaviorWithoutTask', { behavior: b })),
  ];
  const all = kinds.flat();
  return { lines: all.slice(0, limit).map((line) => line()), total: all.length };
}

function renderNotices(m: MatrixModel): void {
  const { lines, total } = orphanLines(m.orphans, ORPHANS_LISTED);
  replaceChildren(
    notice,
    m.notice ? h('p', { className: 'notice' }, m.notice) : null,
    total
      ? h(
          'details',
          { className: 'notice orphans' },
          h('summary', null, tv('view.matrix.orphans', { count: total })),
          h('ul', null, ...lines.map((l) => h('li', null, l))),
          total > lines.length ? h('p', { className: 'muted' }, tv('view.matrix.orphansMore', { count: total - lines.length })) : null,
        )
      : null,
  );
}

function show(next: MatrixModel, restore: Partial<MatrixUi> | undefined): void {
  const first = model === undefined;
  model = next;
  if (first) replaceChildren(app, toolbar.element, notice, grid.element);
  toolbar.setTitle(next.specName);
  const changed = [
    toolbar.setOptions('category', tv('view.matrix.allCategories'), next.vocabulary.categories),
    toolbar.setOptions('status', tv('view.matrix.allStatuses'), next.vocabulary.statuses, statusLabel),
    toolbar.setOptions('task', tv('view.matrix.allTasks'), next.vocabulary.tasks),
  ];
  if (changed.some(Boolean)) toolbar.fitControls();
  if (restore) {
    toolbar.filter = sanitizeFilter(restore.filter ?? EMPTY_FILTER);
    grid.selection = { behavior: typeof restore.selected === 'string' ? restore.selected : undefined, column: Number(restore.column) || 0 };
  }
  renderNotices(next);
  grid.setColumns(next.vocabulary.categories, next.vocabulary.tasks, testFileNames(next.rows));
  // An update keeps the scroll position the user has now; init restores the saved one.
  const scrollTop = restore ? Number(restore.scrollTop) || 0 : grid.scrollTop;
  applyFilter();
  // Setting it renders the rows in view again: only when it moves (not on a first render at the top).
  if (grid.scrollTop !== scrollTop) grid.scrollTop = scrollTop;
  // Saved at once, not debounced: the serializer needs the spec even if the window reloads right away.
  save();
  app.setAttribute('aria-busy', 'false');
  announceRendered('matrix', { rows: next.rows.length, domRows: grid.renderedRows });
}

onHostMessage('matrix', (message) => {
  if (message.type === 'unavailable') {
    model = undefined;
    replaceChildren(app, h('p', { className: 'notice error' }, message.message));
    announceRendered('matrix', { rows: 0, domRows: 0 });
    return;
  }
  show(message.model, message.type === 'init' ? (savedUi<MatrixUi>('matrix').ui ?? {}) : undefined);
});

post({ type: 'ready', view: 'matrix', protocol: PROTOCOL_VERSION });
