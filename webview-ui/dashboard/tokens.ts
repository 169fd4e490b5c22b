import type { DashboardModel, TokenCount } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { commandButton } from './commands';
import { tv } from '../../src/shared/messages/viewText';

const fmt = (n: number) => n.toLocaleString('en-US');

function table(caption: string, rows: readonly ({ id: string } & TokenCount)[]): HTMLElement {
  const total = rows.reduce((t, r) => ({ input: t.input + r.input, output: t.output + r.output }), { input: 0, output: 0 });
  const line = (id: string, c: TokenCount, cls = '') =>
    h(
      'tr',
      { className: cls },
      h('td', { className: 'mono' }, id),
      h('td', { className: 'num' }, fmt(c.input)),
      h('td', { className: 'num' }, fmt(c.output)),
      h('td', { className: 'num' }, fmt(c.input + c.output)),
    );
  return h(
    'table',
    { className: 'data tokens' },
    h('caption', null, caption),
    h('thead', null, h('tr', null, ...['', tv('view.tokens.input'), tv('view.tokens.output'), tv('view.tokens.total')].map((c) => h('th', { attrs: { scope: 'col' } }, c)))),
    h('tbody', null, ...rows.map((r) => line(r.id, r)), line(tv('view.tokens.totalRow'), total, 'total')),
  );
}

/** Token usage per task, per stage and per role, once the executing loop records it; absent otherwise. */
export function renderTokens(m: DashboardModel): HTMLElement | null {
  const u = m.tokenUsage;
  if (!u) return null;
  return h(
    'section',
    { className: 'card', attrs: { id: 'tokens', 'aria-labelledby': 'tokens-title' } },
    h('h2', { attrs: { id: 'tokens-title' } }, tv('view.tokens.title'), h('span', { className: 'muted small' }, tv('view.tokens.inAll', { count: fmt(u.total.input + u.total.output) }))),
    // VS Code reports no provider usage: say what the figures are, so nobody reads them as a bill.
    h('p', { className: 'muted small' }, tv('view.tokens.estimate')),
    ...renderCredits(u.credits),
    // Every dispatch counted here has its full transcript in the extension's storage.
    h('div', { className: 'actions' }, commandButton(m.specDir, { command: 'showTranscripts' }, tv('view.tokens.transcripts'), { key: 'show-transcripts', secondary: true })),
    h(
      'div',
      { className: 'token-tables' },
      u.tasks.length ? table(tv('view.tokens.perTask'), u.tasks) : null,
      u.stages.length ? table(tv('view.tokens.perStage'), u.stages) : null,
      u.roles.length ? table(tv('view.tokens.perRole'), u.roles) : null,
    ),
  );
}

const credits = (n: number) => (n >= 1 || n === 0 ? n.toFixed(2) : n.toFixed(4));

/** What the requests cost in AI credits, per task, with where the prices come from; a model without a price is named, in tokens. */
function renderCredits(c: NonNullable<DashboardModel['tokenUsage']>['credits']): HTMLElement[] {
  if (!c) return [];
  const parts: (HTMLElement | null)[] = [
    h(
      'p',
      { className: 'credits', attrs: { id: 'credits' } },
      h('strong', null, tv('view.tokens.credits', { credits: credits(c.total) })),
      c.tasks.length ? ` · ${c.tasks.map((t) => `${t.id} ${credits(t.credits)}`).join(' · ')}` : '',
    ),
    c.unpricedModels.length
      ? h('p', { className: 'muted small', attrs: { id: 'credits-unpriced' } }, tv('view.tokens.unpriced', { models: c.unpricedModels.join(', '), tokens: fmt(c.unpricedTokens) }))
      : null,
    c.stages?.length
      ? h('p', { className: 'small', attrs: { id: 'credits-stages' } }, tv('view.tokens.creditsPerStage', { stages: c.stages.map((s) => `${s.id} ${credits(s.credits)}`).join(' · ') }))
      : null,
    // Each price's source: VS Code's own where it gave one, else the setting or the table with its date.
    h(
      'p',
      { className: 'muted small', attrs: { id: 'credits-source' } },
      c.prices?.length ? c.prices.map((p) => tv('view.tokens.priceOf', p)).join('; ') : tv('view.tokens.creditsSource', { source: c.source }),
    ),
  ];
  return parts.filter((e): e is HTMLElement => e !== null);
}
