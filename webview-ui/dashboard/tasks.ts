import type { DashboardModel, DashboardTask } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { fileLink } from '../common/openFile';
import { commandButton } from './commands';

const STATUS_ICON: Record<string, string> = { pending: '○', executing: '▶', reviewing: '◎', done: '✓', failed: '✗', blocked: '⊘' };
const STATUS_CLASS: Record<string, string> = { done: 'ok', failed: 'bad', blocked: 'bad', executing: 'info', reviewing: 'info' };

const CHOICE_TITLES: Record<string, string> = {
  A: 'The task stays failed until it is split and re-planned',
  B: 'Fix it yourself; the task is reviewed again when you say it is done',
  C: 'Skip it, and the tasks that depend on it; you confirm the impact first',
};

/** The circuit breaker's report for a tripped task, and loom's three choices; nothing continues on its own. */
function breakerPanel(m: DashboardModel, t: DashboardTask): HTMLElement {
  const b = t.breaker!;
  const chosen = b.chosen ? b.choices.find((c) => c.choice === b.chosen!.choice) : undefined;
  return h(
    'section',
    { className: 'card breaker', attrs: { 'data-task': t.id, 'aria-labelledby': `breaker-${t.id}` } },
    h('h2', { attrs: { id: `breaker-${t.id}` } }, h('span', { className: 'bad', attrs: { 'aria-hidden': 'true' } }, '⚠ '), `Circuit breaker: ${t.id} — ${t.title}`),
    h('p', null, `${b.reason === 'timeout' ? 'Timed out' : 'Stopped'}: ${b.summary}.`, b.chosen ? '' : ' The pipeline waits for your choice.'),
    b.blockingIssues.length
      ? h('div', null, h('h3', null, b.reason === 'timeout' ? 'Timeout' : 'Last blocking issues'), h('ul', { className: 'issues' }, ...b.blockingIssues.map((i) => h('li', null, i))))
      : null,
    h('p', { className: 'muted' }, 'Finished tasks: ', b.finishedTasks.length ? b.finishedTasks.join(', ') : 'none'),
    b.dependents.length ? h('p', { className: 'muted' }, 'Depending on it: ', b.dependents.join(', ')) : null,
    chosen
      ? h('p', { className: 'chosen', attrs: { 'data-chosen': chosen.choice } }, h('strong', null, `You chose [${chosen.choice}] `), chosen.label, '.')
      : h(
          'div',
          { className: 'actions choices' },
          ...b.choices.map((c, i) =>
            commandButton(m.specDir, { command: 'breakerChoice', args: { taskId: t.id, choice: c.choice } }, `[${c.choice}] ${c.label}`, {
              key: `breaker-${t.id}-${c.choice}`,
              secondary: i > 0,
              title: CHOICE_TITLES[c.choice],
            }),
          ),
        ),
  );
}

export function renderBreakers(m: DashboardModel): HTMLElement[] {
  return m.tasks.filter((t) => t.breaker).map((t) => breakerPanel(m, t));
}

const list = (items: readonly string[]) => (items.length ? items.join(', ') : '—');

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
      h('td', { className: 'title' }, t.title),
      h('td', { className: `status ${STATUS_CLASS[t.status] ?? ''}` }, h('span', { attrs: { 'aria-hidden': 'true' } }, `${STATUS_ICON[t.status] ?? '•'} `), t.status),
      h('td', { className: `num${t.retries > t.maxRetries ? ' bad' : ''}` }, `${t.retries}/${t.maxRetries}`),
      h('td', { className: 'reviewer' }, t.lastReviewerResult ?? '—'),
      h('td', { className: t.blocker ? 'bad' : 'muted' }, t.blocker ?? '—'),
      h('td', { className: 'mono small' }, list(t.owns)),
      h('td', { className: 'mono' }, list(t.dependsOn)),
      h(
        'td',
        { className: 'nowrap' },
        t.batch ? `#${t.batch.index} ${t.batch.type}` : h('span', { className: 'muted', attrs: { title: 'Not schedulable: waits on a cycle or an unknown dependency' } }, '—'),
      ),
    ),
  );

  return h(
    'section',
    { className: 'card', attrs: { id: 'tasks', 'aria-labelledby': 'tasks-title' } },
    h('h2', { attrs: { id: 'tasks-title' } }, `Tasks (${m.tasks.length})`),
    m.cycle.length ? h('p', { className: 'notice error' }, `Dependency cycle: ${m.cycle.join(' → ')}. None of these tasks can start.`) : null,
    m.tasks.length === 0
      ? h('p', { className: 'muted' }, 'No tasks yet.')
      : h(
          'div',
          { className: 'table-wrap' },
          h(
            'table',
            { className: 'data', attrs: { 'aria-labelledby': 'tasks-title' } },
            h('thead', null, h('tr', null, ...['Task', 'Title', 'Status', 'Retries', 'Last review', 'Blocker', 'Owns', 'Depends on', 'Batch'].map((c) => h('th', { attrs: { scope: 'col' } }, c)))),
            h('tbody', null, ...rows),
          ),
        ),
  );
}
