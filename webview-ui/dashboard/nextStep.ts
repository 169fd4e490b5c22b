import type { DashboardModel, NextTransition } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { fileLink } from '../common/openFile';
import { commandButton } from './commands';
import { nextStepActions } from './nextStepActions';
import { tv } from '../../src/shared/messages/viewText';

function transitionCard(m: DashboardModel, t: NextTransition): HTMLElement {
  const heading = tv(t.kind === 'recover' ? 'view.next.recoverTo' : t.kind === 'retry' ? 'view.next.backTo' : 'view.next.advanceTo', { stage: t.to });
  const action =
    t.kind === 'recover'
      ? commandButton(m.specDir, { command: 'recover', args: { to: t.to } }, heading, { key: `recover-${t.to}`, disabled: !t.ready })
      : t.kind === 'retry'
        ? commandButton(m.specDir, { command: 'advance', args: { to: t.to } }, heading, { key: `retry-${t.to}`, secondary: true, disabled: !t.ready })
        : null;
  return h(
    'div',
    { className: `transition ${t.ready ? 'ready' : 'blocked'}`, attrs: { 'data-to': t.to } },
    h(
      'h3',
      null,
      h('span', { className: t.ready ? 'ok' : 'bad', attrs: { 'aria-hidden': 'true' } }, t.ready ? '✓ ' : '✗ '),
      heading,
      h('span', { className: 'muted' }, tv(t.ready ? 'view.next.ready' : 'view.next.blocked')),
    ),
    t.description ? h('p', { className: 'muted' }, t.description) : null,
    h(
      'ul',
      { className: 'preconditions' },
      ...t.preconditions.map((p) =>
        h(
          'li',
          { className: p.holds ? 'holds' : 'unmet', attrs: { 'data-holds': String(p.holds) } },
          h('span', { className: `mark ${p.holds ? 'ok' : 'bad'}`, attrs: { 'aria-label': tv(p.holds ? 'view.next.holds' : 'view.next.doesNotHold') } }, p.holds ? '✓' : '✗'),
          ' ',
          h('span', null, p.label),
          p.path && !p.holds ? h('span', null, ' ', fileLink({ path: p.path }, tv('view.next.open'))) : null,
          !p.holds && p.reasons.length ? h('ul', { className: 'reasons' }, ...p.reasons.map((r) => h('li', null, r))) : null,
          p.caveat ? h('ul', { className: 'reasons caveat' }, h('li', null, h('span', { className: 'mark warn', attrs: { 'aria-hidden': 'true' } }, '⚠ '), p.caveat)) : null,
        ),
      ),
    ),
    t.confirmations.length
      ? h('div', { className: 'confirmations' }, h('span', { className: 'muted' }, tv('view.next.confirm')), h('ul', null, ...t.confirmations.map((c) => h('li', null, c))))
      : null,
    action ? h('div', { className: 'actions' }, action) : null,
  );
}

/**
 * The next transition with every precondition and whether it holds, and the palette's actions
 * (nextStepActions; the host asks the same confirmations the palette does).
 */
export function renderNextStep(m: DashboardModel): HTMLElement {
  const buttons = nextStepActions(m).map((b) => commandButton(m.specDir, b.command, b.label, b.options));
  const empty = m.next.length === 0 ? h('p', { className: 'muted' }, tv(m.stage === null ? 'view.next.unknownStage' : 'view.next.end')) : null;
  return h(
    'section',
    { className: 'card', attrs: { id: 'next', 'aria-labelledby': 'next-title' } },
    h('div', { className: 'section-head' }, h('h2', { attrs: { id: 'next-title' } }, tv('view.next.title')), h('div', { className: 'actions' }, ...buttons)),
    empty,
    ...m.next.map((t) => transitionCard(m, t)),
  );
}
