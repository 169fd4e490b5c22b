import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolve } from 'node:path';
import { formatStatuses, formatTasks, formatTrace, statusJson } from '../../../src/cli/format';
import { displayLanguage, setDisplayLanguage } from '../../../src/core/messages';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import type { SpecStatus } from '../../../src/core/repository/specPipeline';
import type { TaskBatchPlan } from '../../../src/core/tasks/taskBatches';
import type { TraceabilityMatrix } from '../../../src/core/trace/traceabilityMatrix';

/** What `status`, `tasks` and `trace` print for a person at a terminal (issue 37). */

const status = (specDir: string, next: SpecStatus['next']): SpecStatus => ({
  spec_dir: specDir,
  pipeline_type: 'feature',
  stage: 'verification',
  stage_source: 'state',
  tasks: [],
  next,
  diagnostics: [],
});
const move = (to: string, extra: Partial<SpecStatus['next'][number]>): SpecStatus['next'][number] => ({ to, kind: 'forward', interactive: true, ready: true, unmet: [], confirmations: [], ...extra });

test('status names --compression-confirmed on the ready moves that need it, and says once what it means for a person', () => {
  const text = formatStatuses([
    status('specs/a', [move('code-review-request', { compression_required: true }), move('executing', { kind: 'retry' })]),
    status('specs/b', [move('converge', { ready: false, unmet: ['test-report.md does not exist'], compression_required: true })]),
    status('specs/c', [move('review-gate', { compression_required: true, interactive: false })]),
  ]);
  assert.match(text, /^ {2}→ code-review-request \(forward\): ready, needs --confirm --compression-confirmed$/m);
  assert.match(text, /^ {2}→ executing \(retry\): ready, needs --confirm$/m);
  assert.match(text, /^ {2}→ converge \(forward\): blocked\n {6}- test-report\.md does not exist$/m, 'a blocked move has other things to do first');
  assert.match(text, /^ {2}→ review-gate \(forward\): ready, needs --compression-confirmed$/m);
  assert.equal(text.split('--compression-confirmed is your word that the stage is closed').length - 1, 1, 'said once, under every spec');
  assert.doesNotMatch(text, /compress the closed stage's context/, "the agent's wording stays with MCP");
  assert.ok(text.endsWith('(an agent compresses the stage’s context first).'));
});

test('a ready move out of a human-approval gate names `approve`, never `--confirm` (Advance is refused there, as loom 3 refuses run --advance)', () => {
  const text = formatStatuses([status('specs/tags', [move('detail-expansion', { approval_gate: true })])]);
  assert.match(text, /^ {2}→ detail-expansion \(forward\): ready for your approval \(a human-approval gate\): loom-vscode approve --spec-dir specs\/tags$/m);
  assert.doesNotMatch(text, /--confirm/);
  assert.equal(statusJson(status('specs/tags', [move('detail-expansion', { approval_gate: true })])).next[0].approval_gate, true);
});

test("the sample's tags, at brainstorming (a human-approval gate in its workflow.yaml): its move on is marked approval_gate; todo-crud's are not", () => {
  const specs = new LoomRepository(resolve(__dirname, '..', '..', '..', 'sample')).load();
  assert.deepEqual(
    specs
      .get('specs/2026-11-28+tags')!
      .status()
      .next.map((n) => [n.to, n.approval_gate ?? false]),
    [['detail-expansion', true]],
  );
  assert.ok(
    specs
      .get('specs/2026-11-20+todo-crud')!
      .status()
      .next.every((n) => !n.approval_gate),
  );
});

test('status says nothing of compression when no ready move needs it', () => {
  assert.doesNotMatch(formatStatuses([status('specs/a', [move('detail-expansion', {})])]), /compression/);
});

test('tasks: a batch of one task is just the next task; parallel and serial name batches of several', () => {
  const plan = {
    tasks: [],
    conflicts: [],
    unknown_dependencies: [],
    batches: [
      { type: 'parallel', tasks: ['T1', 'T2'] },
      { type: 'parallel', tasks: ['T3'] },
      { type: 'serial', tasks: ['T4', 'T5'] },
    ],
  } as unknown as TaskBatchPlan;
  assert.equal(formatTasks(plan), ['Batch 1 (parallel): T1, T2', 'Batch 2: T3', 'Batch 3 (serial): T4, T5'].join('\n'));
  // In Chinese, parallel and serial in Chinese too, as the dashboard says them.
  const before = displayLanguage();
  setDisplayLanguage('zh');
  try {
    assert.equal(formatTasks(plan), ['批次 1（并行）：T1, T2', '批次 2：T3', '批次 3（串行）：T4, T5'].join('\n'));
  } finally {
    setDisplayLanguage(before);
  }
});

test('trace: a behavior with no task, test or evidence says none, not 0/0', () => {
  const matrix = {
    rows: [{ behavior: 'REQ-001-B01', category: 'happy-path', closed: false, tasks: [], tests: [], evidence: [] }],
    requirements: [],
    summary: { behaviors: 1, closed: 0 },
  } as unknown as TraceabilityMatrix;
  assert.equal(formatTrace(matrix), ['❌ REQ-001-B01 [happy-path] tasks: none; tests: none; evidence: none', '0/1 behaviors closed'].join('\n'));
});
