import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { countByChars } from './helpers/scriptedChatModel';
import { SPEC, failWith, harness, implementerDone, implementerFixed, PASS, REPORT_PASS, type Harness } from './helpers/executingFixture';

const made: Harness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));
const track = (h: Harness) => (made.push(h), h);
const run = (h: Harness) => h.loop.run(new AbortController().signal);

test('fail, fix, pass: the fix-mode prompt carries only the fix items, context and requirement lines', async () => {
  const h = track(harness());
  h.models.script('implementer', ...implementerDone('T1'), ...implementerFixed('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', failWith('invalid months are accepted'), PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);

  const result = await run(h);
  assert.equal(result.outcome, 'completed', result.message);
  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(t1.status, 'done');
  assert.equal(t1.retry_count, 1);

  const [first, fix] = h.models.promptsOf('implementer');
  assert.match(fix, /^Fix mode for task T1/);
  assert.match(fix, /### Fix item 1\n- Problem: invalid months are accepted\n- File: src\/due.js/);
  assert.match(fix, /- REQ-001\n {2}- REQ-001-B01: a valid YYYY-MM-DD date is parsed \(checked by a unit test\)\n {2}- REQ-001-B02: /);
  assert.match(fix, /Node 20, CommonJS/, 'subagent-context is passed');
  assert.doesNotMatch(fix, /Add parseDueDate\(text\)/, 'not the task again');
  assert.doesNotMatch(fix, /Out of scope/, 'not the spec again');
  assert.doesNotMatch(fix, /Constitution/);
  // Much smaller even on this small fixture spec; bench/fixModeTokens.ts measures a realistic one.
  assert.ok(countByChars(fix) < 0.4 * countByChars(first), `fix ${countByChars(fix)} vs first ${countByChars(first)} tokens`);

  const sizes = h.events.filter((e) => e.type === 'prompt-size');
  assert.deepEqual(
    sizes.map((e) => e.type === 'prompt-size' && e.mode),
    ['first', 'fix', 'first'],
  );
});

test('the Chinese reviewer protocol: 结论：不通过 with 修复指令 drives fix mode', async () => {
  const h = track(harness());
  h.models.script('implementer', ...implementerDone('T1'), ...implementerFixed('T1'), ...implementerDone('T2'));
  h.models.script(
    'reviewer',
    { text: '## 修复指令\n\n### 修复项 1\n- 问题：月份未校验\n- 文件：src/due.js\n- 位置：parseDueDate\n- 严重度：主要\n- 修复方向：拒绝 1-12 以外的月份\n\n结论：不通过' },
    { text: '结论：通过' },
    PASS,
  );
  h.models.script('test-reporter', REPORT_PASS);
  const result = await run(h);
  assert.equal(result.outcome, 'completed', result.message);
  assert.match(h.models.promptsOf('implementer')[1], /- Problem: 月份未校验\n- File: src\/due.js\n- Location: parseDueDate\n- Severity: 主要\n- Direction: 拒绝 1-12 以外的月份/);
});

/** max_retries is 2 in the fixture: the third FAIL opens the breaker. */
function scriptBreakerOnT1(h: Harness): void {
  h.models.script('implementer', ...implementerDone('T1'), ...implementerFixed('T1'), ...implementerFixed('T1'));
  h.models.script('reviewer', failWith('first'), failWith('second'), failWith('months above 12 still pass'));
}

test('circuit breaker after max_retries, choice A: the failure is recorded, the report shown, the choice persisted, nothing continues', async () => {
  const h = track(harness());
  scriptBreakerOnT1(h);
  h.prompts.choices = ['A'];

  const result = await run(h);
  assert.equal(result.outcome, 'replan');
  assert.equal(result.stoppedAt, 'T1');
  assert.equal(h.models.requestsOf('implementer').length, 6, 'three implementer dispatches of two turns each; T2 never started');

  const report = h.prompts.reports[0];
  assert.equal(report.task, 'T1');
  assert.deepEqual(report.reason, { kind: 'retries', retryCount: 3, maxRetries: 2 });
  assert.deepEqual(report.lastIssues, ['[major] src/due.js:parseDueDate: months above 12 still pass']);
  assert.deepEqual(report.finishedTasks, []);
  assert.deepEqual(report.dependents, ['T2']);
  assert.deepEqual(report.choices, ['A', 'B', 'C']);

  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(t1.status, 'failed');
  assert.equal(t1.retry_count, 3);
  assert.match(t1.last_reviewer_result, /^FAIL: .*months above 12 still pass/);
  assert.equal(t1.metadata.breaker.choice, 'A');
  assert.match(h.repo.read(`${SPEC}/progress.md`), /`T1` \| ❌ failed \| 3/);
  assert.equal(h.repo.json(`${SPEC}/pipeline.state.json`).metadata.circuit_breaker.choice, 'A');

  // A reload neither asks again nor dispatches: the persisted choice stands.
  const again = await h.reload().run(new AbortController().signal);
  assert.equal(again.outcome, 'replan');
  assert.equal(h.prompts.reports.length, 1);

  // Re-planning (editing the task file) starts the task afresh.
  h.repo.write(`${SPEC}/tasks/T1.md`, h.repo.read(`${SPEC}/tasks/T1.md`).replace('Add parseDueDate', 'Add a stricter parseDueDate'));
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const replanned = await h.reload().run(new AbortController().signal);
  assert.equal(replanned.outcome, 'completed', replanned.message);
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).retry_count, 0);
});

test('circuit breaker, choice B: waits for the manual fix, reviews again with a fresh retry budget, continues', async () => {
  const h = track(harness());
  scriptBreakerOnT1(h);
  h.prompts.choices = ['B'];
  h.prompts.onManualFix = () => h.repo.write('src/due.js', '// fixed by hand\n');
  h.models.script('reviewer', PASS, PASS);
  h.models.script('implementer', ...implementerDone('T2'));
  h.models.script('test-reporter', REPORT_PASS);

  const result = await run(h);
  assert.equal(result.outcome, 'completed', result.message);
  assert.deepEqual(h.prompts.manualFixes, ['T1']);
  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(t1.status, 'done');
  assert.equal(t1.retry_count, 0);
  // The reviewer judged the hand-made fix.
  assert.match(h.models.promptsOf('reviewer')[3], /fixed by hand/);
});

test('circuit breaker, choice C: shows the dependents, asks again when the skip is not confirmed, skips the task and its dependents', async () => {
  const h = track(harness());
  scriptBreakerOnT1(h);
  h.prompts.choices = ['C', 'C'];
  h.prompts.confirmations = [false, true];
  h.models.script('test-reporter', REPORT_PASS);

  const result = await run(h);
  assert.deepEqual(h.prompts.skipConfirmations, [
    { task: 'T1', dependents: ['T2'] },
    { task: 'T1', dependents: ['T2'] },
  ]);
  assert.equal(h.prompts.reports.length, 2, 'an unconfirmed skip asks for a choice again');
  assert.deepEqual(result.skipped, ['T1', 'T2']);
  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  const t2 = h.repo.json(`${SPEC}/task-states/T2.state.json`);
  assert.equal(t1.status, 'blocked');
  assert.match(t1.blocker, /skipped by the user/);
  assert.equal(t2.status, 'blocked');
  assert.match(t2.blocker, /depends on T1/);
  assert.equal(t1.metadata.breaker.choice, 'C');
  assert.match(h.repo.read(`${SPEC}/progress.md`), /### Blockers[\s\S]*\*\*T2\*\*: skipped: it depends on T1/);
  // The test reporter still reports on what exists; the stage handoff says what was skipped.
  assert.equal(result.outcome, 'completed', result.message);
  const executing = h.repo.json(`${SPEC}/handoffs/executing.json`);
  assert.equal(executing.status, 'partial');
  assert.ok(executing.remaining_risks.some((r: string) => r.startsWith('T1 was skipped')));
});
