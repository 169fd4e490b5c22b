import type { TraceabilityMatrix } from './traceabilityMatrix';

/**
 * The traceability matrix as JSON, one shape for every reader: `loom-vscode trace --json`, the
 * MCP tools and the `#loomTrace` language-model tool. A reference that is not found says why
 * (`reason`), so an agent can tell a missing file from evidence outside the spec directory.
 */
export function traceJson(m: TraceabilityMatrix) {
  const ref = (r: { ref: string; exists: boolean; reason?: string }) => ({ ref: r.ref, exists: r.exists, ...(r.reason ? { reason: r.reason } : {}) });
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
