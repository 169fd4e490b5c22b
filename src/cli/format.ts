import { basename } from 'node:path';
import type { Diagnostic } from '../core/diagnostics/diagnostic';
import type { Finding } from '../core/files/findings';
import type { SpecStatus } from '../core/repository/specPipeline';
import type { TaskBatchPlan } from '../core/tasks/taskBatches';
import type { TraceabilityMatrix } from '../core/trace/traceabilityMatrix';

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
    next: s.next.map((n) => ({ to: n.to, interactive: n.interactive, ready: n.ready, unmet: [...n.unmet], ...(n.advice?.length ? { advice: [...n.advice] } : {}) })),
    diagnostics: s.diagnostics,
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

export function traceJson(m: TraceabilityMatrix) {
  const ref = (r: { ref: string; exists: boolean }) => ({ ref: r.ref, exists: r.exists });
  return {
    rows: m.rows.map((r) => ({
      requirement: r.requirement,
      behavior: r.behavior,
      category: r.category,
      status: r.status,
      tasks: r.tasks,
      tests: r.tests.map(ref),
      evidence: r.evidence.map(ref),
      closed: r.closed,
    })),
    requirements: m.requirements.map((r) => ({
      id: r.id,
      required_categories: r.required_categories,
      covered_categories: r.covered_categories,
      missing_categories: r.missing_categories,
    })),
    orphans: m.orphans,
    summary: { behaviors: m.summary.behaviors, closed: m.summary.closed },
  };
}

export function formatStatus(s: SpecStatus): string {
  const source =
    s.stage_source === 'inferred'
      ? ' (inferred from the artifacts)'
      : s.stage_source === 'unknown'
        ? s.diagnostics.some((d) => d.code === 'workflow-unreadable')
          ? ' (.loom/workflow.yaml cannot be read)'
          : ' (pipeline.state.json is corrupt)'
        : '';
  const lines = [`${s.spec_dir}  [${s.pipeline_type}]  stage: ${s.stage ?? 'unknown'}${source}`];
  const done = s.tasks.filter((t) => t.status === 'done').length;
  if (s.tasks.length) {
    const active = s.tasks.filter((t) => t.status !== 'done' && t.status !== 'pending');
    lines.push(`  tasks: ${done}/${s.tasks.length} done${active.map((t) => `, ${t.id} ${t.status}${t.retry_count ? ` (retry ${t.retry_count})` : ''}`).join('')}`);
  }
  for (const n of s.next) {
    // A failed spec leaves through `recover --to`, never `advance`: say so where it is offered.
    const how = n.kind === 'recover' ? `, via recover --to ${n.to}` : n.interactive ? ', needs --confirm' : '';
    const mark = n.ready ? `ready${how}` : 'blocked';
    lines.push(`  → ${n.to} (${n.kind}): ${mark}`);
    for (const u of n.unmet) lines.push(`      - ${u}`);
    // The extension's checks beyond loom's: said, not blocking.
    for (const a of n.advice ?? []) lines.push(`      ~ ${a} (advice)`);
  }
  for (const d of s.diagnostics) lines.push(`  ${formatDiagnostic(d)}`);
  return lines.join('\n');
}

export function formatTasks(plan: TaskBatchPlan): string {
  const lines = plan.batches.map((b, i) => `Batch ${i + 1} (${b.type}): ${b.tasks.join(', ')}`);
  if (lines.length === 0 && plan.tasks.length === 0) lines.push('No tasks.');
  if (plan.cycle) lines.push(`Dependency cycle: ${plan.cycle.join(' → ')}`);
  for (const u of plan.unknown_dependencies) lines.push(`${u.task} depends on unknown task ${u.depends_on}`);
  for (const c of plan.conflicts) lines.push(`Conflict: ${c.a} and ${c.b} both touch ${c.paths.join(', ')}`);
  return lines.join('\n');
}

export function formatTrace(m: TraceabilityMatrix): string {
  const count = (refs: { exists: boolean }[]) => `${refs.filter((r) => r.exists).length}/${refs.length}`;
  const lines = m.rows.map((r) => `${r.closed ? '✅' : '❌'} ${r.behavior} [${r.category}] tasks: ${r.tasks.join(', ') || '-'}; tests: ${count(r.tests)}; evidence: ${count(r.evidence)}`);
  for (const r of m.requirements) {
    if (r.missing_categories.length) lines.push(`${r.id} lacks behaviors for: ${r.missing_categories.join(', ')}`);
  }
  lines.push(`${m.summary.closed}/${m.summary.behaviors} behaviors closed`);
  return lines.join('\n');
}

/** One finding per line: `F-3 error [missing] specs/x/traceability.json:12 message`, then its fix. */
export function formatFindings(specDir: string, findings: readonly Finding[], overridden: ReadonlySet<string> = new Set()): string {
  if (findings.length === 0) return 'No findings.';
  return findings
    .map((f) => {
      const where = f.location?.file ? ` ${specDir}/${f.location.file}${f.location.line ? `:${f.location.line}` : ''}` : '';
      const fix = f.suggested_fix?.details ? `\n    fix: ${f.suggested_fix.details}` : '';
      return `  ${f.id} ${f.severity}${overridden.has(f.id) ? ' (overridden)' : ''} [${f.kind}]${where} ${f.message}${fix}`;
    })
    .join('\n');
}
