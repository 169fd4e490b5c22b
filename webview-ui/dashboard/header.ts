import type { DashboardModel } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { formatTime } from '../common/format';
import { openFile } from '../common/openFile';
import { post } from '../common/vscodeApi';
import { tv } from '../../src/shared/messages/viewText';

export function renderHeader(m: DashboardModel): HTMLElement {
  const stage = m.stage ?? tv('view.stage.unknown');
  const notices: HTMLElement[] = [];
  const state = m.unreadable.find((f) => f.file === 'pipeline.state.json');
  // The tree's and the toast's remedy, here too: the file opened where it stops being readable.
  const openAtError = (f: DashboardModel['unreadable'][number]) =>
    h(
      'vscode-button',
      { attrs: { secondary: true, 'data-key': `open-error-${f.file}` }, on: { click: () => openFile({ path: f.path, line: f.line }) } },
      tv('view.header.openAtError', { file: f.file }),
    );
  if (m.stage === null) notices.push(h('div', { className: 'notice error with-action' }, h('p', null, tv('view.header.stateCorrupt')), state ? openAtError(state) : null));
  for (const f of m.unreadable) {
    if (f === state) continue;
    notices.push(h('div', { className: 'notice error with-action' }, h('p', null, tv('view.header.unreadable', { file: f.file, line: f.line, message: f.message })), openAtError(f)));
  }
  if (m.failureReason) notices.push(h('p', { className: 'notice error' }, h('strong', null, tv('view.header.failed')), m.failureReason));
  if (m.lockedBy !== undefined) notices.push(h('p', { className: 'notice' }, tv('view.header.locked', { pid: m.lockedBy })));
  if (m.problems.errors || m.problems.warnings) {
    notices.push(
      h(
        'p',
        { className: `notice${m.problems.errors ? ' error' : ''}` },
        m.problems.errors && m.problems.warnings
          ? tv('view.header.problems', m.problems)
          : m.problems.errors
            ? tv('view.header.errors', { errors: m.problems.errors })
            : tv('view.header.warnings', { warnings: m.problems.warnings }),
      ),
    );
  }
  return h(
    'header',
    { className: 'spec-header' },
    h(
      'div',
      { className: 'title-line' },
      h('h1', null, h('span', { className: 'mono' }, m.specName)),
      h('span', { className: 'chip' }, m.pipelineType),
      h('span', { className: `chip stage${m.stage === 'failed' ? ' bad' : ''}`, attrs: { 'data-stage': stage } }, stage),
      m.stageSource === 'inferred' ? h('span', { className: 'muted', attrs: { title: tv('view.header.inferredTitle') } }, tv('view.header.inferred')) : null,
      h('span', { className: 'spacer' }),
      h('vscode-button', { attrs: { secondary: true, 'data-key': 'open-matrix' }, on: { click: () => post({ type: 'openMatrix', specDir: m.specDir }) } }, tv('view.header.openMatrix')),
    ),
    h(
      'p',
      { className: 'muted meta' },
      h('span', { className: 'mono' }, m.specDir),
      m.startedAt ? tv('view.header.started', { time: formatTime(m.startedAt) }) : '',
      m.updatedAt ? tv('view.header.updated', { time: formatTime(m.updatedAt) }) : '',
    ),
    ...notices,
  );
}
