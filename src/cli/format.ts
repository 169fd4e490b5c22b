import type { Diagnostic } from '../core/diagnostics/diagnostic';
import type { SpecStatus } from '../core/repository/specPipeline';

export const formatDiagnostic = (d: Diagnostic) => `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;

export function formatStatus(s: SpecStatus): string {
  const lines = [`${s.spec_dir}  [${s.pipeline_type}]  stage: ${s.stage ?? 'unknown'}${s.stage_source === 'inferred' ? ' (inferred from the artifacts)' : ''}`];
  const done = s.tasks.filter((t) => t.status === 'done').length;
  if (s.tasks.length) lines.push(`  tasks: ${done}/${s.tasks.length} done${s.tasks.filter((t) => t.status !== 'done' && t.status !== 'pending').map((t) => `, ${t.id} ${t.status}`).join('')}`);
  for (const n of s.next) {
    const mark = n.ready ? (n.interactive ? 'ready, needs --confirm' : 'ready') : 'blocked';
    lines.push(`  → ${n.to} (${n.kind}): ${mark}`);
    for (const u of n.unmet) lines.push(`      - ${u}`);
  }
  for (const d of s.diagnostics) lines.push(`  ${formatDiagnostic(d)}`);
  return lines.join('\n');
}
