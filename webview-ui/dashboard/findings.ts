import type { DashboardFinding, DashboardModel } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { fileLink } from '../common/openFile';
import { tv } from '../../src/shared/messages/viewText';

const SEVERITY_CLASS: Record<DashboardFinding['severity'], string> = { blocker: 'bad', error: 'bad', warning: 'warn', info: 'info' };
const SOURCES = ['artifact-analysis', 'convergence', 'omission-hunter'] as const;
const sourceLabel = (source: string) => ((SOURCES as readonly string[]).includes(source) ? tv(`view.findings.source.${source as (typeof SOURCES)[number]}`) : source);

function finding(f: DashboardFinding): HTMLElement {
  const ids = [f.requirementId, f.behaviorId, f.taskId].filter(Boolean).join(' · ');
  return h(
    'li',
    { className: `finding ${f.severity}`, attrs: { 'data-severity': f.severity, 'data-source': f.source } },
    h('span', { className: `chip ${SEVERITY_CLASS[f.severity]}` }, f.severity),
    h(
      'div',
      { className: 'finding-body' },
      h('div', null, f.message),
      h(
        'div',
        { className: 'muted small' },
        `${sourceLabel(f.source)} · ${f.kind}`,
        ids ? ` · ${ids}` : '',
        ' · ',
        f.location
          ? fileLink({ path: f.location.path, ...(f.location.line ? { line: f.location.line } : {}) }, `${f.location.path}${f.location.line ? `:${f.location.line}` : ''}`)
          : fileLink({ path: f.file }, f.id),
      ),
      f.suggestedFix ? h('div', { className: 'small' }, h('span', { className: 'muted' }, tv('view.findings.fix')), f.suggestedFix) : null,
    ),
  );
}

/** Findings of the artifact analysis, the convergence check and the omission hunter, most severe first. */
export function renderFindings(m: DashboardModel): HTMLElement {
  const counts = new Map<string, number>();
  for (const f of m.findings) counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1);
  return h(
    'section',
    { className: 'card', attrs: { id: 'findings', 'aria-labelledby': 'findings-title' } },
    h(
      'h2',
      { attrs: { id: 'findings-title' } },
      tv('view.findings.title', { count: m.findings.length }),
      ...(['blocker', 'error', 'warning', 'info'] as const)
        .filter((s) => counts.get(s))
        .map((s) => h('span', { className: `chip ${SEVERITY_CLASS[s]}` }, tv('view.findings.severityCount', { count: counts.get(s) ?? 0, severity: s }))),
    ),
    m.findings.length === 0 ? h('p', { className: 'muted' }, tv('view.findings.none')) : h('ul', { className: 'findings' }, ...m.findings.map(finding)),
  );
}
