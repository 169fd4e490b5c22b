import * as vscode from 'vscode';
import { buildTraceabilityMatrix, type TraceRef } from '../../core/trace/traceabilityMatrix';
import { isStale } from '../../core/spec/staleness';
import { localTime, relativeTime, splitSpecName } from '../format';
import { Disposable } from '../lifecycle';
import type { SpecEntry, SpecRegistry } from '../specs/specRegistry';
import { groupLabel, stageText } from '../tree/treeItems';

export const LOOM_VIEW_SCHEME = 'loom-view';

/** A table cell: no line breaks, no unescaped pipes. */
const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const bar = (done: number, total: number) => `${'▓'.repeat(done)}${'░'.repeat(Math.max(0, total - done))}`;
const refs = (list: readonly TraceRef[]) => list.length ? list.map((r) => `${r.exists ? '✅' : '❌'} \`${cell(r.ref)}\``).join('<br>') : '—';

/**
 * Read-only Markdown views of the dashboard and the traceability matrix, served as virtual
 * documents (shown in the Markdown preview) and re-rendered when their specs change.
 */
export class LoomDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;
  private readonly open = new Map<string, vscode.Uri>();

  constructor(private readonly registry: SpecRegistry) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(LOOM_VIEW_SCHEME, this));
    this._register(registry.onDidChange((e) => {
      for (const uri of this.open.values()) {
        const dir = uri.query;
        if (!dir || e.all || e.changed.includes(dir) || e.removed.includes(dir)) this._onDidChange.fire(uri);
      }
    }));
    this._register(vscode.workspace.onDidCloseTextDocument((d) => this.open.delete(d.uri.toString())));
  }

  static dashboardUri(): vscode.Uri {
    return vscode.Uri.from({ scheme: LOOM_VIEW_SCHEME, path: `/${vscode.l10n.t('Loom Dashboard')}.md` });
  }

  static traceabilityUri(e: SpecEntry): vscode.Uri {
    const { feature } = splitSpecName(e.spec.snapshot.name);
    return vscode.Uri.from({ scheme: LOOM_VIEW_SCHEME, path: `/${vscode.l10n.t('Traceability')} - ${feature}.md`, query: e.dir });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    this.open.set(uri.toString(), uri);
    if (!uri.query) return this.dashboard();
    const e = this.registry.entry(uri.query);
    return e ? this.traceability(e) : `# ${vscode.l10n.t('Traceability')}\n\n${vscode.l10n.t('This spec no longer exists.')}\n`;
  }

  /** Every spec: stage, progress, tasks, what blocks the next step. */
  dashboard(): string {
    const out = [`# ${vscode.l10n.t('Loom Dashboard')}`, ''];
    const entries = this.registry.entries().sort((a, b) => b.spec.snapshot.name.localeCompare(a.spec.snapshot.name));
    if (entries.length === 0) return [...out, vscode.l10n.t('No loom specs in this workspace.'), ''].join('\n');
    const multi = this.registry.folderCount > 1;
    for (const group of ['in-progress', 'failed', 'done'] as const) {
      const list = entries.filter((e) => e.overview.group === group);
      if (!list.length) continue;
      out.push(`## ${groupLabel(group)} (${list.length})`, '');
      out.push(`| ${[vscode.l10n.t('Spec'), ...(multi ? [vscode.l10n.t('Folder')] : []), vscode.l10n.t('Stage'), vscode.l10n.t('Progress'), vscode.l10n.t('Tasks'), vscode.l10n.t('Updated'), vscode.l10n.t('Next')].join(' | ')} |`);
      out.push(`|${' --- |'.repeat(multi ? 7 : 6)}`);
      for (const e of list) {
        const { date, feature } = splitSpecName(e.spec.snapshot.name);
        const tasks = e.overview.tasks;
        const done = tasks.filter((t) => t.status === 'done').length;
        const blocked = tasks.filter((t) => t.status === 'blocked').length;
        const next = e.spec.next();
        const nextText = e.overview.group === 'done' ? '—' : next.length === 0 ? '—'
          : next.map((n) => `${n.to}: ${n.ready ? vscode.l10n.t('ready') : vscode.l10n.t('blocked ({0})', n.unmet.length)}`).join('<br>');
        out.push(`| ${[
          `**${cell(feature)}**${date ? ` ${date}` : ''}${isStale(e.staleness) ? ' ⚠' : ''}`,
          ...(multi ? [cell(e.folder.name)] : []),
          `\`${cell(stageText(e))}\``,
          `${bar(e.overview.progress.done, e.overview.progress.total)} ${e.overview.progress.done}/${e.overview.progress.total}`,
          tasks.length ? `${done}/${tasks.length}${blocked ? ` · ${vscode.l10n.t('{0} blocked', blocked)}` : ''}` : '—',
          relativeTime(e.spec.snapshot.state?.updated_at) ?? '—',
          cell(nextText),
        ].join(' | ')} |`);
      }
      out.push('');
    }
    const attention = entries.filter((e) => e.overview.failureReason || isStale(e.staleness) || e.spec.next().some((n) => !n.ready));
    if (attention.length) {
      out.push(`## ${vscode.l10n.t('Needs attention')}`, '');
      for (const e of attention) {
        out.push(`### ${cell(splitSpecName(e.spec.snapshot.name).feature)} — \`${stageText(e)}\``, '');
        if (e.overview.failureReason) out.push(`- ❌ ${vscode.l10n.t('Failed in {0}: {1}', e.overview.failedIn ?? '?', e.overview.failureReason)}`);
        for (const a of e.staleness.approvals) out.push(`- ⚠ ${vscode.l10n.t('The approval of {0} is stale: {1} changed since; re-approval is needed.', a.stage, a.changed.join(', '))}`);
        for (const h of e.staleness.handoffs) out.push(`- ⚠ ${vscode.l10n.t('{0} is stale: {1} changed since it was written.', h.handoff, h.changed.join(', '))}`);
        for (const d of e.staleness.derived) out.push(`- ⚠ ${vscode.l10n.t('{0} is older than {1}, which it is derived from.', d.output, d.input)}`);
        for (const n of e.spec.next().filter((x) => !x.ready)) {
          out.push(`- ${vscode.l10n.t('To move to {0}:', n.to)}`);
          for (const r of n.unmet) out.push(`  - ${r}`);
        }
        out.push('');
      }
    }
    out.push(`_${vscode.l10n.t('Read-only view, updated when the files change. Generated {0}.', localTime(new Date().toISOString()))}_`, '');
    return out.join('\n');
  }

  /** The traceability matrix of one spec: one row per behavior, category coverage, orphans. */
  traceability(e: SpecEntry): string {
    const m = buildTraceabilityMatrix(e.spec.snapshot);
    const { feature } = splitSpecName(e.spec.snapshot.name);
    const out = [`# ${vscode.l10n.t('Traceability')}: ${cell(feature)}`, '', `\`${e.spec.snapshot.specDir}\` — \`${stageText(e)}\``, ''];
    if (!e.spec.snapshot.requirements) {
      out.push(e.spec.snapshot.requirementsCondition === 'missing' ? vscode.l10n.t('requirements.json does not exist yet.') : vscode.l10n.t('requirements.json could not be read: see the Problems panel.'), '');
      return out.join('\n');
    }
    out.push(`**${vscode.l10n.t('{0} of {1} behaviors closed', m.summary.closed, m.summary.behaviors)}**`, '');
    out.push(`| ${[vscode.l10n.t('Requirement'), vscode.l10n.t('Behavior'), vscode.l10n.t('Category'), vscode.l10n.t('Status'), vscode.l10n.t('Tasks'), vscode.l10n.t('Tests'), vscode.l10n.t('Evidence'), vscode.l10n.t('Closed')].join(' | ')} |`);
    out.push(`|${' --- |'.repeat(8)}`);
    for (const r of m.rows) {
      out.push(`| ${[r.requirement, `${r.behavior}<br>${cell(r.description)}`, r.category, r.status, r.tasks.join(', ') || '—', refs(r.tests), refs(r.evidence), r.closed ? '✅' : '❌'].join(' | ')} |`);
    }
    out.push('');
    const gaps = m.requirements.filter((r) => r.missing_categories.length);
    if (gaps.length) {
      out.push(`## ${vscode.l10n.t('Missing behavior categories')}`, '');
      for (const r of gaps) out.push(`- ${r.id}: ${r.missing_categories.join(', ')}`);
      out.push('');
    }
    const o = m.orphans;
    const orphanLines = [
      ...o.task_behaviors_unknown.map((x) => vscode.l10n.t('{0} names unknown behavior {1}', x.task, x.behavior)),
      ...o.trace_behaviors_unknown.map((x) => vscode.l10n.t('traceability.json: {0} has no behavior {1}', x.requirement, x.behavior)),
      ...o.trace_requirements_unknown.map((x) => vscode.l10n.t('traceability.json names unknown requirement {0}', x)),
      ...o.behaviors_without_task.map((x) => vscode.l10n.t('{0} has no task', x)),
      ...o.trace_tasks_unknown.map((x) => vscode.l10n.t('traceability.json names task {0}, which has no task file', x.task)),
    ];
    if (orphanLines.length) {
      out.push(`## ${vscode.l10n.t('Orphans')}`, '');
      for (const l of orphanLines) out.push(`- ${cell(l)}`);
      out.push('');
    }
    return out.join('\n');
  }
}
