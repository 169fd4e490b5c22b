import type { DashboardModel } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { formatTime } from '../common/format';
import { fileLink } from '../common/openFile';
import { commandButton } from './commands';
import { tv } from '../../src/shared/messages/viewText';

/** The open comment threads of the spec's review, each a link to its lines, and Refine with the model. */
export function renderReviewThreads(m: DashboardModel): HTMLElement {
  const n = m.reviewThreads.length;
  return h(
    'section',
    { className: 'card', attrs: { id: 'review-threads', 'aria-labelledby': 'review-threads-title' } },
    h('h2', { attrs: { id: 'review-threads-title' } }, tv('view.threads.title', { count: n })),
    m.reviewError
      ? h('p', { className: 'notice error' }, m.reviewError)
      : n === 0
        ? h('p', { className: 'muted' }, tv('view.threads.none'))
        : h(
            'ul',
            { className: 'threads' },
            ...m.reviewThreads.map((t) =>
              h(
                'li',
                { attrs: { 'data-thread': t.id } },
                fileLink({ path: t.path, line: t.line }, t.line === t.endLine ? `${t.file}:${t.line}` : `${t.file}:${t.line}-${t.endLine}`),
                ' ',
                h('span', { className: 'muted' }, `${t.author}, `, h('time', { attrs: { datetime: t.createdAt, title: t.createdAt } }, formatTime(t.createdAt))),
                h('div', { className: 'summary' }, t.body, t.replies ? h('span', { className: 'muted' }, tv('view.threads.replies', { count: t.replies })) : null),
              ),
            ),
          ),
    n && !m.reviewError
      ? h(
          'div',
          { className: 'actions' },
          commandButton(m.specDir, { command: 'refineSpec' }, tv('view.threads.refine'), { key: 'refine-spec', secondary: true, title: tv('view.threads.refineTitle') }),
        )
      : null,
  );
}
