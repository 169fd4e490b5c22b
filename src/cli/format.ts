import { basename } from 'node:path';
import type { Diagnostic, TaskBatchPlan, TraceabilityMatrix } from '../core/port/reports';
import type { Finding } from '../core/port/files';
import type { SpecStatus } from '../core/port/specs';
import { t } from '../core/port/messages';

/**
 * `file:line:column: severity: message`, with the path once: a message that starts with its own
 * path (the core's do, for the Problems view's hover) keeps only the file's name, or drops a
 * leading `path: `.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const message = d.message.startsWith(`${d.file}: `) ? d.message.slice(d.file.length + 2) : d.message.startsWith(`${d.file} `) ? `${basename(d.file)}${d.message.slice(d.file.length)}` : d.message;
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${message}`;
}

/*
 * The --json documents are a published contract: each is projected to exactly the keys the CLI
 * promises, so a field added to a core type for the extension's views does not leak into scripts
 * that parse this output.
 */

export function statusJson(s: SpecStatus) {
  return {
    spec_dir: s.spec_dir,
    pipeline_type: s.pipeline_type,
    stage: s.stage,
    tasks: s.tasks.map((t) => ({ id: t.id, status: t.status, retry_count: t.retry_count })),
    next: s.next.map((n) => ({
      to: n.to,
      interactive: n.interactive,
      ready: n.ready,
      unmet: [...n.unmet],
      // Leaving a human-approval gate: `approve` takes it, `advance` is refused there.
      ...(n.approval_gate ? { approval_gate: true } : {}),
      ...(n.compression_required ? { compression_required: true } : {}),
      ...(n.advice?.length ? { advice: [...n.advice] } : {}),
    })),
    diagnostics: s.diagnostics,
    // AI credits of the spec's runs, where a run priced its requests (issue 49).
    ...(s.credits
      ? {
          credits: {
            total: Number(s.credits.total.toFixed(4)),
            stages: Object.fromEntries(Object.entries(s.credits.stages).map(([k, v]) => [k, Number(v.toFixed(4))])),
            unpriced_models: [...s.credits.unpriced_models],
            // A model without a price is shown in tokens, and named: its tokens are not in the total.
            unpriced_tokens: { ...s.credits.unpriced_tokens },
            source: s.credits.source,
            prices: { ...s.credits.prices },
          },
        }
      : {}),
  };
}

export function tasksJson(plan: TaskBatchPlan) {
  return {
    tasks: plan.tasks.map((t) => ({ id: t.id, owns: t.owns, reads: t.reads, depends_on: t.depends_on })),
    conflicts: plan.conflicts.map((c) => ({ a: c.a, b: c.b, paths: c.paths })),
    batches: plan.batches.map((b) => ({ type: b.type, tasks: b.tasks })),
    cycle: plan.cycle,
    unknown_dependencies: plan.unknown_dependencies.map((u) => ({ task: u.task, depends_on: u.depends_on })),
  };
}

export function formatStatus(s: SpecStatus): string {
  const head = { specDir: s.spec_dir, pipeline: s.pipeline_type, stage: s.stage ?? '-' };
  const lineKey =
    s.stage_source === 'inferred'
      ? 'cli.status.lineInferred'
      : s.stage_source === 'unknown'
        ? s.diagnostics.some((d) => d.code === 'workflow-unreadable')
          ? 'cli.status.lineWorkflowUnreadable'
          : 'cli.status.lineUnknown'
        : 'cli.status.line';
  const lines = [t(lineKey, head)];
  const done = s.tasks.filter((t) => t.status === 'done').length;
  if (s.tasks.length) {
    const active = s.tasks.filter((t) => t.status !== 'done' && t.status !== 'pending');
    const each = active.map((a) => t(a.retry_count ? 'cli.status.activeTaskRetried' : 'cli.status.activeTask', { task: a.id, status: a.status, retries: a.retry_count }));
    lines.push([t('cli.status.tasks', { done, total: s.tasks.length }), ...each].join(', '));
  }
  for (const n of s.next) {
    // A failed spec leaves through `recover --to`, never `advance`: say so where it is offered.
    // The flags a ready move needs are named on its line; a blocked one has other things to do first.
    const flags = needsFlags(n);
    // A human-approval gate is passed by `approve`, never `advance --confirm`: the line names the command.
    const key = !n.ready
      ? 'cli.status.next.blocked'
      : n.kind === 'recover'
        ? 'cli.status.next.readyRecover'
        : n.approval_gate
          ? 'cli.status.next.readyApprove'
          : flags.length
            ? 'cli.status.next.readyNeeds'
            : 'cli.status.next.ready';
    lines.push(t(key, { to: n.to, kind: n.kind, flags: flags.join(' '), specDir: s.spec_dir }));
    for (const u of n.unmet) lines.push(`      - ${u}`);
    // The extension's checks beyond loom's: said, not blocking.
    for (const a of n.advice ?? []) lines.push(`      ~ ${a} (advice)`);
  }
  for (const d of s.diagnostics) lines.push(`  ${formatDiagnostic(d)}`);
  return lines.join('\n');
}

const needsFlags = (n: SpecStatus['next'][number]): string[] =>
  n.ready && n.kind !== 'recover' && !n.approval_gate ? [...(n.interactive ? ['--confirm'] : []), ...(n.compression_required ? ['--compression-confirmed'] : [])] : [];

/**
 * Every spec's status, and once under them, when a ready move needs it, what --compression-confirmed
 * asks of the person at the terminal: loom's word for it is written for agents.
 */
export function formatStatuses(statuses: readonly SpecStatus[]): string {
  const text = statuses.map(formatStatus).join('\n\n');
  const compression = statuses.some((s) => s.next.some((n) => needsFlags(n).includes('--compression-confirmed')));
  return compression ? `${text}\n\n${t('cli.status.compressionNote')}` : text;
}

export function formatTasks(plan: TaskBatchPlan): string {
  const lines = plan.batches.map((b, i) =>
    b.tasks.length === 1 ? t('cli.tasks.batchOfOne', { index: i + 1, task: b.tasks[0] }) : t('cli.tasks.batch', { index: i + 1, type: b.type, tasks: b.tasks.join(', ') }),
  );
  if (lines.length === 0 && plan.tasks.length === 0) lines.push(t('cli.tasks.none'));
  if (plan.cycle) lines.push(t('cli.tasks.cycle', { tasks: plan.cycle.join(' → ') }));
  for (const u of plan.unknown_dependencies) lines.push(t('cli.tasks.unknownDependency', { task: u.task, dependency: u.depends_on }));
  for (const c of plan.conflicts) lines.push(t('cli.tasks.conflict', { a: c.a, b: c.b, paths: c.paths.join(', ') }));
  return lines.join('\n');
}

export function formatTrace(m: TraceabilityMatrix): string {
  // "0/0" would read as all of nothing, that is complete: a behavior with no test names none.
  const count = (refs: { exists: boolean }[]) => (refs.length ? `${refs.filter((r) => r.exists).length}/${refs.length}` : t('cli.trace.none'));
  const lines = m.rows.map((r) =>
    t('cli.trace.row', {
      mark: r.closed ? '✅' : '❌',
      behavior: r.behavior,
      category: r.category,
      tasks: r.tasks.join(', ') || t('cli.trace.none'),
      tests: count(r.tests),
      evidence: count(r.evidence),
    }),
  );
  // A test only the feature worktree has does not count for loom: say where it is and how to name it.
  for (const r of m.rows)
    for (const ref of r.tests) if (ref.reason === 'only-in-worktree') lines.push(t('cli.trace.onlyInWorktree', { behavior: r.behavior, ref: ref.ref, through: ref.recordAs ?? ref.path ?? ref.ref }));
  for (const r of m.requirements) {
    if (r.missing_categories.length) lines.push(t('cli.trace.lacks', { requirement: r.id, categories: r.missing_categories.join(', ') }));
  }
  lines.push(t('cli.trace.summary', { closed: m.summary.closed, total: m.summary.behaviors }));
  return lines.join('\n');
}

/** One finding per line: `F-3 error [missing] specs/x/traceability.json:12 message`, then its fix. */
export function formatFindings(specDir: string, findings: readonly Finding[], overridden: ReadonlyMap<string, { reason: string; by?: string }> = new Map()): string {
  if (findings.length === 0) return t('cli.findings.none');
  return findings
    .map((f) => {
      const where = f.location?.file ? ` ${specDir}/${f.location.file}${f.location.line ? `:${f.location.line}` : ''}` : '';
      const fix = f.suggested_fix?.details ? `\n    ${t('cli.findings.fix', { details: f.suggested_fix.details })}` : '';
      const o = overridden.get(f.id);
      const mark = o ? ` ${o.by ? t('cli.findings.overriddenBy', { by: o.by, reason: o.reason }) : t('cli.findings.overridden', { reason: o.reason })}` : '';
      return `  ${f.id} ${f.severity}${mark} [${f.kind}]${where} ${f.message}${fix}`;
    })
    .join('\n');
}
