import type { DashboardModel, StageStep, StageVisit } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { formatDuration, formatTime } from '../common/format';
import { tv } from '../../src/shared/messages/viewText';

const ICON: Record<StageStep['status'], string> = { done: '✓', current: '●', waiting: '○', failed: '✗' };

const time = (iso: string | undefined) => (iso ? h('time', { attrs: { datetime: iso, title: iso } }, formatTime(iso)) : null);

/** Failures and retries say why; a plain pass needs no line of its own beyond the step's times. */
function visitLine(v: StageVisit): HTMLElement {
  const what = tv(v.status === 'failed' ? 'view.visit.failed' : v.status === 'retry' ? 'view.visit.retry' : 'view.visit.passed');
  const mark = v.status === 'failed' ? '✗' : v.status === 'retry' ? '↺' : '✓';
  // The colour is on the mark only: warning yellow is too faint for text on a light background.
  return h(
    'li',
    { className: `visit ${v.status}` },
    h('span', { className: `mark ${v.status === 'passed' ? 'ok' : v.status === 'failed' ? 'bad' : 'warn'}`, attrs: { 'aria-hidden': 'true' } }, `${mark} `),
    h('span', { className: 'what' }, what),
    v.exitedAt ? h('span', null, ' ', time(v.exitedAt)) : null,
    v.reason ? h('span', { className: 'reason' }, ` — ${v.reason}`) : null,
    v.validator ? h('span', { className: 'muted' }, tv('view.visit.validator', { validator: v.validator })) : null,
    v.recoveryFrom ? h('span', { className: 'muted' }, tv('view.visit.recovered', { stage: v.recoveryFrom })) : null,
    v.approvedBy
      ? h(
          'span',
          { className: 'muted approved-by', attrs: { 'data-by': v.approvedBy.by } },
          tv(v.approvedBy.by === 'person' ? 'view.visit.approvedByPerson' : 'view.visit.approvedByAgent', { through: v.approvedBy.through ?? '?' }),
        )
      : null,
  );
}

/**
 * The pipeline's stages in order, each done / current / waiting / failed with its times, and
 * under it every failure or retry recorded in stage_history with its reason.
 */
export function renderStepper(m: DashboardModel): HTMLElement {
  const steps = m.steps.map((s, i) => {
    const notable = s.visits.filter((v) => v.status !== 'passed' || v.reason || v.approvedBy);
    const rounds =
      s.role === 'convergence' && m.convergence
        ? h(
            'span',
            { className: 'chip', attrs: { 'data-rounds': m.convergence.round } },
            m.convergence.status
              ? tv('view.stepper.roundStatus', { round: m.convergence.round, max: m.convergence.max, status: m.convergence.status.replace(/_/g, ' ') })
              : tv('view.stepper.round', { round: m.convergence.round, max: m.convergence.max }),
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
          h('span', { className: 'visually-hidden' }, `, ${tv(`view.step.${s.status}`)}`),
          s.humanApproval ? h('span', { className: 'chip', attrs: { title: tv('view.stepper.approvalTitle') } }, tv('view.stepper.approval')) : null,
          rounds,
          h(
            'span',
            { className: 'step-times muted' },
            s.enteredAt ? tv('view.stepper.entered') : '',
            time(s.enteredAt),
            s.exitedAt ? tv('view.stepper.exited') : '',
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
    h('h2', { attrs: { id: 'stepper-title' } }, tv('view.stepper.title')),
    h('ol', { className: 'stepper' }, ...steps),
  );
}
