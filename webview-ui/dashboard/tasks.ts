import type { DashboardModel, DashboardTask, ReadableReview } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { fileLink } from '../common/openFile';
import { commandButton } from './commands';
import { tv } from '../../src/shared/messages/viewText';

const STATUS_ICON: Record<string, string> = { pending: '○', executing: '▶', reviewing: '◎', done: '✓', failed: '✗', blocked: '⊘' };
const STATUS_CLASS: Record<string, string> = { done: 'ok', failed: 'bad', blocked: 'bad', executing: 'info', reviewing: 'info' };

/** The circuit breaker's report for a tripped task, and loom's three choices; nothing continues on its own. */
function breakerPanel(m: DashboardModel, t: DashboardTask): HTMLElement {
  const b = t.breaker!;
  const chosen = b.chosen ? b.choices.find((c) => c.choice === b.chosen!.choice) : undefined;
  return h(
    'section',
    { className: 'card breaker', attrs: { 'data-task': t.id, 'aria-labelledby': `breaker-${t.id}` } },
    h('h2', { attrs: { id: `breaker-${t.id}` } }, h('span', { className: 'bad', attrs: { 'aria-hidden': 'true' } }, '⚠ '), tv('view.breaker.title', { task: t.id, title: t.title || t.id })),
    h('p', null, tv(b.reason === 'timeout' ? 'view.breaker.timedOut' : 'view.breaker.stopped', { summary: b.summary }), b.chosen ? '' : tv('view.breaker.waits')),
    b.blockingIssues.length
      ? h(
          'div',
          null,
          h('h3', null, tv(b.reason === 'timeout' ? 'view.breaker.timeout' : 'view.breaker.lastIssues')),
          h('ul', { className: 'issues' }, ...b.blockingIssues.map((i) => h('li', null, i))),
        )
      : null,
    h('p', { className: 'muted' }, tv('view.breaker.finished'), b.finishedTasks.length ? b.finishedTasks.join(', ') : tv('view.breaker.none')),
    b.dependents.length ? h('p', { className: 'muted' }, tv('view.breaker.dependents'), b.dependents.join(', ')) : null,
    chosen
      ? h('p', { className: 'chosen', attrs: { 'data-chosen': chosen.choice } }, h('strong', null, tv('view.breaker.chosen', { choice: chosen.choice })), chosen.label, '.')
      : h(
          'div',
          { className: 'actions choices' },
          ...b.choices.map((c, i) =>
            commandButton(m.specDir, { command: 'breakerChoice', args: { taskId: t.id, choice: c.choice } }, `[${c.choice}] ${c.label}`, {
              key: `breaker-${t.id}-${c.choice}`,
              secondary: i > 0,
              title: tv(`view.breaker.title${c.choice}`),
            }),
          ),
        ),
  );
}

export function renderBreakers(m: DashboardModel): HTMLElement[] {
  return m.tasks.filter((t) => t.breaker).map((t) => breakerPanel(m, t));
}

const list = (items: readonly string[]) => (items.length ? items.join(', ') : '—');

const TASK_COLUMNS = ['task', 'title', 'status', 'retries', 'lastReview', 'blocker', 'owns', 'dependsOn', 'batch', 'changes'] as const;

/**
 * A review result or blocker as text to read: its words, then loom's fix items as a list (the
 * problem, where, how severe, which way to fix it), never the literal `## 修复指令` markdown.
 */
function readable(r: ReadableReview): HTMLElement {
  return h(
    'div',
    { className: 'readable' },
    r.summary ? h('div', { className: 'summary' }, r.summary) : null,
    r.fixItems.length
      ? h(
          'ol',
          { className: 'fix-items' },
          ...r.fixItems.map((item) =>
            h(
              'li',
              null,
              item.severity ? h('span', { className: 'chip' }, item.severity) : null,
              item.severity ? ' ' : null,
              item.problem,
              item.file ? h('div', { className: 'muted small mono' }, item.location ? `${item.file}:${item.location}` : item.file) : null,
              item.direction ? h('div', { className: 'small' }, h('span', { className: 'muted' }, tv('view.fix.direction')), item.direction) : null,
            ),
          ),
        )
      : null,
  );
}

/** A task's checkpoint: Review Changes first, then Reject a File and Rewind to Before it (the host asks before a rewind). */
function changeButtons(m: DashboardModel, t: DashboardTask): HTMLElement {
  const cp = t.checkpoint!;
  return h(
    'div',
    { className: 'actions', attrs: { title: tv('view.tasks.checkpoint', { commit: cp.commit.slice(0, 8), files: cp.files.join(', ') }) } },
    commandButton(m.specDir, { command: 'reviewChanges', args: { taskId: t.id } }, tv('view.tasks.review'), { key: `review-${t.id}` }),
    commandButton(m.specDir, { command: 'rejectFile', args: { taskId: t.id } }, tv('view.tasks.reject'), { key: `reject-${t.id}`, secondary: true }),
    commandButton(m.specDir, { command: 'rewindTask', args: { taskId: t.id } }, tv('view.tasks.rewind'), { key: `rewind-${t.id}`, secondary: true }),
    t.review ? reviewNote(t.review) : null,
  );
}

/** What of the change was reviewed (Mark as Reviewed, per file) and the comments still open on it. */
function reviewNote(r: NonNullable<DashboardTask['review']>): HTMLElement {
  if (r.error) return h('span', { className: 'muted', attrs: { title: r.error } }, '⚠');
  const parts = [tv('view.tasks.reviewedFiles', { reviewed: r.reviewed, files: r.files })];
  if (r.changed.length) parts.push(tv('view.tasks.changedSinceReviewed', { files: r.changed.join(', ') }));
  if (r.openThreads) parts.push(tv('view.tasks.openComments', { count: r.openThreads }));
  return h('span', { className: 'muted task-review' }, parts.join(' · '));
}

/** Tasks with their state, batch and ownership; a row can be selected (kept across updates). */
export function renderTasks(m: DashboardModel, selected: string | undefined, onSelect: (id: string) => void): HTMLElement {
  const rows = m.tasks.map((t) =>
    h(
      'tr',
      {
        className: `${t.id === selected ? 'selected' : ''}${t.breaker ? ' tripped' : ''}`,
        attrs: { 'data-task': t.id, 'aria-selected': t.id === selected ? 'true' : 'false', 'data-key': `task-${t.id}`, tabindex: t.id === selected ? 0 : -1 },
        on: {
          click: () => onSelect(t.id),
          keydown: (e) => {
            const row = e.currentTarget as HTMLTableRowElement;
            const sibling = e.key === 'ArrowDown' ? row.nextElementSibling : e.key === 'ArrowUp' ? row.previousElementSibling : null;
            if (sibling instanceof HTMLElement && sibling.dataset.task) {
              e.preventDefault();
              onSelect(sibling.dataset.task);
            } else if (e.key === 'Enter' && t.path) {
              e.preventDefault();
              row.querySelector<HTMLAnchorElement>('a.file-link')?.click();
            }
          },
        },
      },
      h('td', { className: 'mono' }, t.path ? fileLink({ path: t.path }, t.id) : t.id),
      h('td', { className: 'title' }, t.title || '—'),
      h('td', { className: `status ${STATUS_CLASS[t.status] ?? ''}` }, h('span', { attrs: { 'aria-hidden': 'true' } }, `${STATUS_ICON[t.status] ?? '•'} `), t.status),
      h('td', { className: `num${t.retries > t.maxRetries ? ' bad' : ''}` }, `${t.retries}/${t.maxRetries}`),
      h('td', { className: 'reviewer' }, t.lastReview ? readable(t.lastReview) : (t.lastReviewerResult ?? '—')),
      h('td', { className: t.blocker ? 'blocker' : 'muted' }, t.blockerText ? readable(t.blockerText) : (t.blocker ?? '—')),
      h('td', { className: 'mono small' }, list(t.owns)),
      h('td', { className: 'mono' }, list(t.dependsOn)),
      h(
        'td',
        { className: 'nowrap' },
        t.batch
          ? // A batch of one task is neither parallel nor serial: it is just the next task (as `tasks` says it).
            m.tasks.filter((o) => o.batch?.index === t.batch!.index).length === 1
            ? tv('view.tasks.batchOfOne', { index: t.batch.index })
            : tv('view.tasks.batch', { index: t.batch.index, type: t.batch.type })
          : h('span', { className: 'muted', attrs: { title: tv('view.tasks.unschedulable') } }, '—'),
      ),
      h('td', { className: 'nowrap' }, t.checkpoint ? changeButtons(m, t) : h('span', { className: 'muted' }, '—')),
    ),
  );

  return h(
    'section',
    { className: 'card', attrs: { id: 'tasks', 'aria-labelledby': 'tasks-title' } },
    h('h2', { attrs: { id: 'tasks-title' } }, tv('view.tasks.title', { count: m.tasks.length })),
    m.cycle.length ? h('p', { className: 'notice error' }, tv('view.tasks.cycle', { tasks: m.cycle.join(' → ') })) : null,
    m.tasks.length === 0
      ? h('p', { className: 'muted' }, tv('view.tasks.none'))
      : h(
          'div',
          { className: 'table-wrap' },
          h(
            'table',
            { className: 'data', attrs: { 'aria-labelledby': 'tasks-title' } },
            h('thead', null, h('tr', null, ...TASK_COLUMNS.map((c) => h('th', { attrs: { scope: 'col' } }, tv(`view.tasks.col.${c}`))))),
            h('tbody', null, ...rows),
          ),
        ),
  );
}
