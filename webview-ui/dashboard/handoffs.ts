import type { DashboardModel } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { formatTime } from '../common/format';
import { fileLink } from '../common/openFile';
import { tv } from '../../src/shared/messages/viewText';

const STATUS_CLASS: Record<string, string> = { done: 'ok', partial: 'warn', blocked: 'bad', failed: 'bad' };

/** Handoffs with their status and summary; a stale one (its files changed since) blocks advancing and says which files. */
export function renderHandoffs(m: DashboardModel): HTMLElement {
  const stale = m.handoffs.filter((x) => x.stale).length;
  return h(
    'section',
    { className: 'card', attrs: { id: 'handoffs', 'aria-labelledby': 'handoffs-title' } },
    h(
      'h2',
      { attrs: { id: 'handoffs-title' } },
      tv('view.handoffs.title', { count: m.handoffs.length }),
      stale ? h('span', { className: 'chip bad' }, tv('view.handoffs.stale', { count: stale })) : null,
    ),
    m.handoffs.length === 0
      ? h('p', { className: 'muted' }, tv('view.handoffs.none'))
      : h(
          'div',
          { className: 'table-wrap' },
          h(
            'table',
            { className: 'data' },
            h('thead', null, h('tr', null, ...(['handoff', 'status', 'summary', 'written', 'fresh'] as const).map((c) => h('th', { attrs: { scope: 'col' } }, tv(`view.handoffs.col.${c}`))))),
            h(
              'tbody',
              null,
              ...m.handoffs.map((x) =>
                h(
                  'tr',
                  { className: x.stale ? 'stale' : '', attrs: { 'data-handoff': x.name } },
                  h('td', { className: 'mono' }, fileLink({ path: x.path }, x.name)),
                  h('td', null, h('span', { className: `chip ${STATUS_CLASS[x.status] ?? ''}` }, x.status)),
                  h('td', { className: 'summary' }, x.summary),
                  h('td', { className: 'nowrap' }, x.writtenAt ? h('time', { attrs: { datetime: x.writtenAt, title: x.writtenAt } }, formatTime(x.writtenAt)) : '—'),
                  h(
                    'td',
                    null,
                    x.stale
                      ? h(
                          'span',
                          { className: 'bad', attrs: { title: tv('view.handoffs.changedTitle', { files: x.changed.join(', ') }) } },
                          tv('view.handoffs.staleFiles', { files: x.changed.join(', ') }),
                        )
                      : h('span', { className: 'ok' }, tv('view.handoffs.fresh')),
                  ),
                ),
              ),
            ),
          ),
        ),
  );
}
