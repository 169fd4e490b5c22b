import type { DashboardDrift, DashboardModel } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { formatTime } from '../common/format';
import { fileLink } from '../common/openFile';
import { commandButton } from './commands';
import { tvDrift } from '../../src/shared/messages/driftViewMessages';

const short = (commit: string) => commit.slice(0, 7);

function baselineLine(d: DashboardDrift): HTMLElement | null {
  const b = d.baseline;
  if (!b) return null;
  const by = b.by ?? '?';
  const source =
    b.source === 'accepted'
      ? tvDrift('view.drift.source.accepted', { by })
      : b.source === 'reconciled'
        ? tvDrift('view.drift.source.reconciled', { by })
        : tvDrift(b.source === 'inferred' ? 'view.drift.source.inferred' : 'view.drift.source.synced');
  return h(
    'p',
    { className: 'baseline', attrs: { 'data-source': b.source } },
    h('span', { className: 'mono', attrs: { title: b.commit } }, tvDrift('view.drift.baseline', { commit: short(b.commit) })),
    ` — ${source}`,
    b.recordedAt ? h('span', { className: 'muted' }, ', ', h('time', { attrs: { datetime: b.recordedAt, title: b.recordedAt } }, formatTime(b.recordedAt))) : null,
    b.reason ? h('span', { className: 'reason' }, `: ${b.reason}`) : null,
  );
}

const changeText = (f: DashboardDrift['files'][number]) => (f.change === 'renamed' ? tvDrift('view.drift.change.renamed', { to: f.renamedTo ?? '?' }) : tvDrift(`view.drift.change.${f.change}`));

/**
 * A synced spec's drift from its code: the baseline (and who moved it, and why), each file the spec
 * speaks for that changed since, with its commits and a Show diff from the baseline to the working
 * tree, the commits since, and Accept as Accurate. Nothing for a spec that is not synced.
 */
export function renderDrift(m: DashboardModel): HTMLElement | null {
  const d = m.drift;
  if (!d) return null;
  const drifted = d.status === 'drifted';
  return h(
    'section',
    { className: 'card', attrs: { id: 'drift', 'data-status': d.status, 'aria-labelledby': 'drift-title' } },
    h('h2', { attrs: { id: 'drift-title' } }, tvDrift('view.drift.title'), h('span', { className: `chip ${drifted ? 'warn' : d.status === 'clean' ? 'ok' : 'bad'}` }, d.summary)),
    baselineLine(d),
    drifted
      ? h(
          'div',
          { className: 'table-wrap' },
          h(
            'table',
            { className: 'data' },
            h('caption', null, tvDrift('view.drift.files')),
            h('thead', null, h('tr', null, ...(['file', 'change', 'commits', 'why'] as const).map((c) => h('th', { attrs: { scope: 'col' } }, tvDrift(`view.drift.col.${c}`))), h('th', null))),
            h(
              'tbody',
              null,
              ...d.files.map((f) =>
                h(
                  'tr',
                  { attrs: { 'data-file': f.path, 'data-change': f.change } },
                  h('td', { className: 'mono' }, f.change === 'deleted' ? f.path : fileLink({ path: f.renamedTo ?? f.path }, f.path)),
                  h('td', null, changeText(f)),
                  h('td', { className: 'mono' }, f.commits.map(short).join(', ')),
                  h('td', null, [...f.tasks, ...f.behaviors].join(', ') || '—'),
                  h(
                    'td',
                    null,
                    commandButton(m.specDir, { command: 'showDriftDiff', args: { file: f.path } }, tvDrift('view.drift.showDiff'), {
                      key: `drift-diff-${f.path}`,
                      secondary: true,
                      title: tvDrift('view.drift.showDiffTitle', { file: f.renamedTo ?? f.path, commit: d.baseline ? short(d.baseline.commit) : '?' }),
                    }),
                  ),
                ),
              ),
            ),
          ),
        )
      : null,
    d.goneTests.length
      ? h(
          'ul',
          { className: 'gone-tests' },
          ...d.goneTests.map((g) => h('li', { attrs: { 'data-test': g.file } }, tvDrift('view.drift.goneTest', { file: g.file, behaviors: g.behaviors.join(', ') }))),
        )
      : null,
    drifted && d.commits.length
      ? h(
          'div',
          null,
          h('h3', null, tvDrift('view.drift.commits')),
          h(
            'ul',
            { className: 'drift-commits' },
            ...d.commits.map((c) =>
              h(
                'li',
                { attrs: { 'data-commit': c.commit } },
                h('span', { className: 'mono', attrs: { title: c.commit } }, short(c.commit)),
                ' ',
                c.subject,
                ' ',
                h('span', { className: 'muted' }, `${c.author}, `, h('time', { attrs: { datetime: c.date, title: c.date } }, formatTime(c.date)), ` — ${c.files.join(', ')}`),
              ),
            ),
          ),
        )
      : null,
    drifted
      ? h(
          'div',
          { className: 'actions' },
          commandButton(m.specDir, { command: 'reconcileSpec' }, tvDrift('view.drift.reconcile'), { key: 'drift-reconcile', secondary: true, title: tvDrift('view.drift.reconcileTitle') }),
          commandButton(m.specDir, { command: 'acceptAsAccurate' }, tvDrift('view.drift.accept'), { key: 'drift-accept', secondary: true, title: tvDrift('view.drift.acceptTitle') }),
        )
      : null,
  );
}
