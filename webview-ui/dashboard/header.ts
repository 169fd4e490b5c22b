import type { DashboardModel } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { formatTime, plural } from '../common/format';
import { post } from '../common/vscodeApi';

export function renderHeader(m: DashboardModel): HTMLElement {
  const stage = m.stage ?? 'unknown';
  const notices: HTMLElement[] = [];
  if (m.stage === null) notices.push(h('p', { className: 'notice error' }, 'pipeline.state.json is corrupt, so the current stage is unknown. Fix or restore it; it is never overwritten.'));
  if (m.failureReason) notices.push(h('p', { className: 'notice error' }, h('strong', null, 'Failed: '), m.failureReason));
  if (m.lockedBy !== undefined) notices.push(h('p', { className: 'notice' }, `Another process (pid ${m.lockedBy}) is driving this spec: changes are refused until it finishes.`));
  if (m.problems.errors || m.problems.warnings) {
    notices.push(
      h(
        'p',
        { className: `notice${m.problems.errors ? ' error' : ''}` },
        `${[m.problems.errors ? plural(m.problems.errors, 'error') : '', m.problems.warnings ? plural(m.problems.warnings, 'warning') : ''].filter(Boolean).join(' and ')} in this spec's files: see the Problems panel.`,
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
      m.stageSource === 'inferred' ? h('span', { className: 'muted', attrs: { title: 'No pipeline.state.json: the stage is inferred from the artifacts' } }, '(inferred)') : null,
      h('span', { className: 'spacer' }),
      h('vscode-button', { attrs: { secondary: true, 'data-key': 'open-matrix' }, on: { click: () => post({ type: 'openMatrix', specDir: m.specDir }) } }, 'Traceability matrix'),
    ),
    h(
      'p',
      { className: 'muted meta' },
      h('span', { className: 'mono' }, m.specDir),
      m.startedAt ? ` · started ${formatTime(m.startedAt)}` : '',
      m.updatedAt ? ` · updated ${formatTime(m.updatedAt)}` : '',
    ),
    ...notices,
  );
}
