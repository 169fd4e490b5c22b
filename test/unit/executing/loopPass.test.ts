import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parseReport } from '../../../src/core/files/report';
import { buildTraceabilityMatrix } from '../../../src/core/trace/traceabilityMatrix';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { SPEC, harness, implementerDone, PASS, REPORT_PASS, type Harness } from './helpers/executingFixture';

const made: Harness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));
const track = (h: Harness) => (made.push(h), h);

test('pass first time: both tasks done, handoffs, traceability closed, test report PASS, executing handoff', async () => {
  const h = track(harness());
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);

  const result = await h.loop.run(new AbortController().signal);

  assert.equal(result.outcome, 'completed', result.message);
  assert.equal(result.mode, 'direct');
  assert.deepEqual(result.finished, ['T1', 'T2']);
  for (const role of ['implementer', 'reviewer', 'test-reporter'] as const) assert.equal(h.models.left(role), 0, `${role} replies left`);

  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(t1.status, 'done');
  assert.equal(t1.retry_count, 0);
  assert.equal(t1.last_reviewer_result, 'PASS');

  const handoff = h.repo.json(`${SPEC}/handoffs/T1.json`);
  assert.equal(handoff.task_id, 'T1');
  assert.deepEqual(handoff.artifacts, ['src/due.js', 'tests/due.test.js']);
  assert.equal(handoff.artifact_fingerprints['src/due.js'], h.repo.sha256('src/due.js'));
  assert.deepEqual(handoff.exported_interfaces, [{ name: 'parseDueDate', path: 'src/due.js', signature: '(s: string) => Date | null' }]);

  const trace = h.repo.json(`${SPEC}/traceability.json`);
  const b01 = trace.requirements['REQ-001'].behaviors['REQ-001-B01'];
  assert.deepEqual(b01.tests, ['tests/due.test.js#REQ-001-B01 parses a valid date']);
  assert.equal(b01.evidence.length, 2, 'the task log and the test-report log');
  const matrix = buildTraceabilityMatrix(loadSpec(h.repo.root, h.specDir));
  // The matrix resolves tests against the spec directory and repository root; here the worktree is the repository.
  assert.equal(matrix.summary.closed, 3);

  const report = parseReport('test-report.md', h.repo.read(`${SPEC}/test-report.md`));
  assert.equal(report.verdict, 'PASS');
  assert.equal(report.evidence.exitCode, 0);
  assert.equal(report.evidence.sha256, h.repo.sha256(`${SPEC}/${report.evidence.file}`));
  assert.match(h.repo.read(`${SPEC}/test-report.md`).trimEnd(), /verdict: PASS$/);

  const executing = h.repo.json(`${SPEC}/handoffs/executing.json`);
  assert.equal(executing.status, 'done');
  assert.deepEqual(executing.finished_tasks, ['T1', 'T2']);
  assert.equal(executing.verification_command, 'npm test');
  assert.ok(executing.traceability_changes.some((c: { behavior: string }) => c.behavior === 'REQ-002-B01'));

  const progress = h.repo.read(`${SPEC}/progress.md`);
  assert.match(progress, /`T1` \| ✅ done/);
  assert.match(progress, /`T2` \| ✅ done/);

  const state = h.repo.json(`${SPEC}/pipeline.state.json`);
  assert.ok(state.metadata.token_usage.total.input > 0);
  assert.ok(state.metadata.token_usage.tasks.T1.roles.implementer.input > 0);
  assert.ok(state.metadata.token_usage.tasks.T1.roles.reviewer.output > 0);
  assert.equal(state.metadata.executing_mode.mode, 'direct');

  // Transcripts live in the extension's storage, never in the spec directory.
  assert.ok(h.transcripts.list(SPEC).length >= 5);
  assert.equal(existsSync(join(h.specDir, 'transcripts')), false);
  assert.equal(existsSync(join(h.specDir, '.loom-run.lock')), false, 'the run lock is released');
});

test('direct mode runs one implementer conversation across tasks, and reviews each task in a fresh one', async () => {
  const h = track(harness());
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'completed');
  const impl = h.models.requestsOf('implementer');
  const lastT2 = impl[impl.length - 1];
  assert.ok(
    lastT2.messages.some((m) => m.role === 'user' && m.content.includes('task T1')),
    'T2 continues the conversation that did T1',
  );
  for (const r of h.models.requestsOf('reviewer')) assert.equal(r.messages.filter((m) => m.role === 'user').length, 1);
  const mode = h.events.find((e) => e.type === 'mode');
  assert.ok(mode && mode.type === 'mode' && /direct session/.test(mode.description));
});

test("the reviewer sees the task's changes, never Loom's own files", async () => {
  const h = track(harness());
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  assert.equal((await h.loop.run(new AbortController().signal)).outcome, 'completed');
  const t2Review = h.models.promptsOf('reviewer')[1];
  assert.match(t2Review, /diff --git a\/src\/format.js b\/src\/format.js/);
  assert.doesNotMatch(t2Review, /src\/due.js b\//, "T1's changes came before T2 started");
  assert.doesNotMatch(t2Review, /task-states|progress\.md|traceability\.json|\.loom-run\.lock/);
});

test('a Chinese spec: Chinese prompts, Chinese status lines and verdicts, a Chinese test report loom reads', async () => {
  const h = track(harness({}, { language: 'zh' }));
  const zhDone = (id: 'T1' | 'T2') => {
    const [tools, final] = implementerDone(id);
    return [tools, { text: (final as { text: string }).text.replace('## Summary', '## 摘要').replace('## Tests', '## 测试').replace('STATUS: DONE', '状态：DONE') }];
  };
  h.models.script('implementer', ...zhDone('T1'), ...zhDone('T2'));
  h.models.script('reviewer', { text: '符合任务要求。\n\n结论：通过' }, { text: '结论：通过' });
  h.models.script('test-reporter', { text: '## 摘要\n全部 behavior 已覆盖。\n\n结论：通过' });
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  assert.match(h.models.promptsOf('implementer')[0], /^你是 loom 规格/);
  assert.match(h.models.promptsOf('reviewer')[0], /合并审查者/);
  const report = h.repo.read(`${SPEC}/test-report.md`);
  assert.match(report.trimEnd(), /结论：通过$/);
  assert.equal(parseReport('test-report.md', report).verdict, 'PASS');
  assert.equal(h.repo.json(`${SPEC}/handoffs/T1.json`).summary, 'T1 implemented.');
});
