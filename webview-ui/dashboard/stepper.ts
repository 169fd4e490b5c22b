import type { DashboardModel, StageStep, StageVisit } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { formatDuration, formatTime } from '../common/format';

const ICON: Record<StageStep['status'], string> = { done: '✓', current: '●', waiting: '○', failed: '✗' };
const LABEL: Record<StageStep['status'], string> = { done: 'done', current: 'current', waiting: 'waiting', failed: 'failed' };

const time = (iso: string | undefined) => (iso ? h('time', { attrs: { datetime: iso, title: iso } }, formatTime(iso)) : null);

/** Failures and retries say why; a plain pass needs no line of its own beyond the step's times. */
function visitLine(v: StageVisit): HTMLElement {
  const what = v.status === 'failed' ? 'failed' : v.status === 'retry' ? 'sent back' : 'passed';
  const mark = v.status === 'failed' ? '✗' : v.status === 'retry' ? '↺' : '✓';
  // The colour is on the mark only: warning yellow is too faint for text on a light background.
  return h(
    'li',
    { className: `visit ${v.status}` },
    h('span', { className: `mark ${v.status === 'passed' ? 'ok' : v.status === 'failed' ? 'bad' : 'warn'}`, attrs: { 'aria-hidden': 'true' } }, `${mark} `),
    h('span', { className: 'what' }, what),
    v.exitedAt ? h('span', null, ' ', time(v.exitedAt)) : null,
    v.reason ? h('span', { className: 'reason' }, ` — ${v.reason}`) : null,
    v.validator ? h('span', { className: 'muted' }, ` (validator ${v.validator})`) : null,
    v.recoveryFrom ? h('span', { className: 'muted' }, ` (recovered from ${v.recoveryFrom})`) : null,
  );
}

/**
 * The pipeline's stages in order, each done / current / waiting / failed with its times, and
 * under it every failure or retry recorded in stage_history with its reason.
 */
export function renderStepper(m: DashboardModel): HTMLElement {
  const steps = m.steps.map((s, i) => {
    const notable = s.visits.filter((v) => v.status !== 'passed' || v.reason);
    const rounds =
      s.id === 'converge' && m.convergence
        ? h(
            'span',
            { className: 'chip', attrs: { 'data-rounds': m.convergence.round } },
            `round ${m.convergence.round} of ${m.convergence.max}${m.convergence.status ? ` · ${m.convergence.status.replace(/_/g, ' ')}` : ''}`,
          )
        : null;
    return h(
      'li',
      { className: `step ${s.status}`, attrs: { 'data-stage': s.id, 'aria-current': s.status === 'current' ? 'step' : undefined } },
      h('span', { className: 'step-icon', attrs: { 'aria-hidden': 'true' } }, ICON[s.status]),
      h(
        'div',
        { className: 'step-body' },
        h(
          'div',
          { className: 'step-line' },
          h('span', { className: 'step-name', attrs: { title: s.description ?? '' } }, `${i + 1}. ${s.id}`),
          h('span', { className: 'visually-hidden' }, `, ${LABEL[s.status]}`),
          s.humanApproval ? h('span', { className: 'chip', attrs: { title: 'Leaving this stage needs your approval' } }, 'approval') : null,
          rounds,
          h(
            'span',
            { className: 'step-times muted' },
            s.enteredAt ? 'entered ' : '',
            time(s.enteredAt),
            s.exitedAt ? ' · exited ' : '',
            time(s.exitedAt),
            s.enteredAt && s.exitedAt ? ` · ${formatDuration(s.enteredAt, s.exitedAt)}` : '',
          ),
        ),
        notable.length ? h('ul', { className: 'visits' }, ...notable.map(visitLine)) : null,
      ),
    );
  });
  return h(
    'section',
    { className: 'card', attrs: { id: 'stepper', 'aria-labelledby': 'stepper-title' } },
    h('h2', { attrs: { id: 'stepper-title' } }, 'Pipeline'),
    h('ol', { className: 'stepper' }, ...steps),
  );
}
