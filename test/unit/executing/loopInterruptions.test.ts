import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, test } from 'node:test';
import { ModelRequestError, ModelUnavailableError } from '../../../src/core/executing/dispatch/chatModel';
import { RetryingChatModel } from '../../../src/core/executing/dispatch/retryingChatModel';
import { SPEC, failWith, harness, implementerDone, implementerFixed, PASS, REPORT_PASS, type Harness } from './helpers/executingFixture';

const made: Harness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));
const track = (h: Harness) => (made.push(h), h);
const run = (h: Harness, signal = new AbortController().signal) => h.loop.run(signal);

test('NEEDS_CONTEXT asks the user and re-dispatches with the answer, without counting a retry', async () => {
  const h = track(harness());
  h.models.script('implementer', { text: 'I cannot tell which format to accept.\n\nSTATUS: NEEDS_CONTEXT: should 2026-2-5 (no zero padding) be accepted?' });
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  h.prompts.answers = ['No, only zero-padded dates.'];

  const result = await run(h);
  assert.equal(result.outcome, 'completed', result.message);
  assert.deepEqual(h.prompts.asked, [{ task: 'T1', question: 'should 2026-2-5 (no zero padding) be accepted?' }]);
  const second = h.models.promptsOf('implementer')[1];
  assert.match(second, /## Context from the user\n- Q: should 2026-2-5 \(no zero padding\) be accepted\?\n {2}A: No, only zero-padded dates\./);
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).retry_count, 0);
});

test('NEEDS_CONTEXT dismissed: the run stops, and a resumed run asks the same question before dispatching', async () => {
  const h = track(harness());
  h.models.script('implementer', { text: 'STATUS: NEEDS_CONTEXT — which locale formats the list?' });
  h.prompts.answers = [undefined];
  const result = await run(h);
  assert.equal(result.outcome, 'needs-context');
  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(t1.status, 'blocked');
  assert.match(t1.blocker, /waiting for context: which locale/);

  h.prompts.answers = ['en-GB'];
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const resumed = await h.reload().run(new AbortController().signal);
  assert.equal(resumed.outcome, 'completed', resumed.message);
  assert.equal(h.prompts.asked.length, 2);
  assert.equal(h.prompts.asked[1].question, 'which locale formats the list?');
  assert.match(h.models.promptsOf('implementer')[1], /A: en-GB/);
});

test('BLOCKED stops and reports; no later task starts; it is not a retry', async () => {
  const h = track(harness());
  h.models.script('implementer', { text: 'The repository has no date library and the constitution forbids adding one.\n\nBLOCKED: date parsing needs a dependency the constitution forbids' });
  const result = await run(h);
  assert.equal(result.outcome, 'blocked');
  assert.equal(result.stoppedAt, 'T1');
  assert.match(result.message, /constitution forbids/);
  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(t1.status, 'blocked');
  assert.equal(t1.retry_count, 0);
  assert.equal(t1.blocker, 'date parsing needs a dependency the constitution forbids');
  assert.equal(h.models.requestsOf('reviewer').length, 0);
  assert.match(h.repo.read(`${SPEC}/progress.md`), /\*\*T1\*\*: date parsing needs a dependency/);
});

test('timeout: the request is cancelled and the breaker opens at once, without a retry', async () => {
  // 0.002 minutes = 120 ms. The model never answers, so only the timeout can end the request.
  const h = track(harness({ timeoutMinutes: 0.002 }));
  h.models.script('implementer', { hang: true });
  h.prompts.choices = ['A'];
  const result = await run(h);
  assert.equal(result.outcome, 'replan');
  assert.equal(h.models.requestsOf('implementer').length, 1, 'a timed-out task is never retried');
  const report = h.prompts.reports[0];
  assert.deepEqual(report.reason, { kind: 'timeout', role: 'implementer', minutes: 0.002 });
  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(t1.status, 'failed');
  assert.equal(t1.retry_count, 0);
  assert.match(t1.blocker, /timed out/);
  assert.ok(h.transcripts.entries.some((e) => e.kind === 'error' && /ran longer than/.test(String(e.content))));
});

test('cancellation: the request is aborted, the task stays resumable, and a later run does not redo finished tasks', async () => {
  const h = track(harness());
  const controller = new AbortController();
  h.models.script('implementer', ...implementerDone('T1'), { hang: true });
  h.models.script('reviewer', PASS);
  h.models.onRequest = (role, messages) => {
    if (role === 'implementer' && messages.some((m) => m.role === 'user' && m.content.includes('task T2'))) setTimeout(() => controller.abort(), 10);
  };
  const result = await run(h, controller.signal);
  assert.equal(result.outcome, 'cancelled');
  assert.deepEqual(result.finished, ['T1']);
  assert.equal(h.repo.json(`${SPEC}/task-states/T2.state.json`).status, 'executing');

  h.models.onRequest = undefined;
  h.models.script('implementer', ...implementerDone('T2'));
  h.models.script('reviewer', PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const resumed = await h.reload().run(new AbortController().signal);
  assert.equal(resumed.outcome, 'completed', resumed.message);
  const t1Prompts = h.models.promptsOf('implementer').filter((p) => p.includes('task T1 ('));
  assert.equal(t1Prompts.length, 1, 'T1 was dispatched once in all');
});

test('malformed output: no status line (asked once more, then a counted failure) and no verdict (the review is repeated)', async () => {
  const h = track(harness());
  h.models.script('implementer', ...implementerDone('T1').slice(0, 1), { text: 'I wrote the files.' }, { text: 'Done, I think.' });
  h.models.script('implementer', ...implementerFixed('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', { text: 'Looks fine to me.' }, { text: 'Still fine.' }, PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await run(h);
  assert.equal(result.outcome, 'completed', result.message);
  const impl = h.models.promptsOf('implementer');
  assert.match(impl[1], /did not end with a status line/);
  assert.match(impl[2], /^Fix mode for task T1[\s\S]*the last answer had no status line/);
  assert.match(h.models.promptsOf('reviewer')[1], /did not end with a verdict/);
  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(t1.status, 'done');
  assert.equal(t1.retry_count, 2, 'one for the missing status, one for the missing verdict');
  assert.ok(h.events.some((e) => e.type === 'implementer-status' && e.status === 'malformed'));
  assert.ok(h.events.some((e) => e.type === 'verdict' && e.verdict === 'malformed'));
});

test('a stream that breaks midway is asked again by the model’s own retries (here one), none on top; past them the run stops, resumable', async () => {
  const h = track(harness());
  // As every surface gets its models (vscodeChatModel): the retrying wrapper, here one retry without a pause.
  const select = h.models.select.bind(h.models);
  h.models.select = async (role, tier) => new RetryingChatModel(await select(role, tier), { policy: { retries: 1, baseDelayMs: 0 } });
  h.models.script('implementer', { breakAfter: 'Writing…' }, ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, { breakAfter: 'verd' }, { breakAfter: 'verd' });
  await assert.rejects(run(h), (e: unknown) => e instanceof ModelRequestError && e.code === 'Unknown' && /after 2 tries/.test(e.message));
  assert.equal(h.models.requestsOf('reviewer').length, 3, 'T1’s review, then T2’s asked twice: nothing asked on top of the model’s retries');
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).status, 'done');
  assert.equal(h.repo.json(`${SPEC}/task-states/T2.state.json`).status, 'reviewing');
  assert.equal(existsSync(h.repo.path(`${SPEC}/.loom-run.lock`)), false);
});

test('no model, or a model that refuses: the run stops with a clear message and nothing is counted as a retry', async () => {
  const h = track(harness());
  h.models.unavailable = new ModelUnavailableError('no language model is available for the implementer (standard)');
  const result = await run(h);
  assert.equal(result.outcome, 'model-unavailable');
  assert.match(result.message, /no language model is available/);

  const h2 = track(harness());
  h2.models.script('implementer', { throws: new ModelRequestError('blocked by policy', 'Blocked') });
  const refused = await run(h2);
  assert.equal(refused.outcome, 'model-unavailable');
  assert.match(refused.message, /refused the request: blocked by policy/);
  // Nothing was counted, nor written: T1 had no state, and has none (keepTaskFiles.test.ts).
  assert.equal(existsSync(h2.repo.path(`${SPEC}/task-states/T1.state.json`)), false);
});

test('token budget: dispatch stops with a clear message once the budget is used up', async () => {
  const h = track(harness({}, { tokenBudget: 1500 }));
  h.models.script('implementer', ...implementerDone('T1'));
  h.models.script('reviewer', PASS);
  const result = await run(h);
  assert.equal(result.outcome, 'budget-exceeded');
  assert.match(result.message, /token budget of this spec is used up: \d+ tokens counted, budget 1500/);
  assert.ok(result.tokens.used >= 1500);
  const usage = h.repo.json(`${SPEC}/pipeline.state.json`).metadata.token_usage;
  assert.equal(usage.total.input + usage.total.output, result.tokens.used);
});

test('test reporter FAIL goes to the implementer in fix mode, then the report is run again', async () => {
  const h = track(harness());
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'), ...implementerFixed('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', failWith('the list shows the date in UTC'), REPORT_PASS);
  const result = await run(h);
  assert.equal(result.outcome, 'completed', result.message);
  const fix = h.models.promptsOf('implementer').pop()!;
  assert.match(fix, /^Fix mode for task test-reporter/);
  assert.match(fix, /the list shows the date in UTC/);
  assert.match(fix, /src\/due.js, tests\/due.test.js, src\/format.js, tests\/format.test.js/);
  assert.equal(h.repo.json(`${SPEC}/pipeline.state.json`).metadata.test_reporter.retry_count, 1);
});

test('a failing test command fails the test report even when the reporter says PASS', async () => {
  const h = track(harness());
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'), ...implementerFixed('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS, REPORT_PASS);
  h.tests.exitCodes = [0, 0, 1, 0];
  const result = await run(h);
  assert.equal(result.outcome, 'completed', result.message);
  const fix = h.models.promptsOf('implementer').pop()!;
  assert.match(fix, /the test command npm test exited with 1/);
});

test('a task test run that fails after the reviewer passed sends the task back to fix mode', async () => {
  const h = track(harness());
  h.models.script('implementer', ...implementerDone('T1'), ...implementerFixed('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  h.tests.exitCodes = [1];
  const result = await run(h);
  assert.equal(result.outcome, 'completed', result.message);
  assert.match(h.models.promptsOf('implementer')[1], /test command npm test failed \(exit code 1; log evidence\/T1-tests-/);
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).retry_count, 1);
});

test('reviewer PASS for a task whose behavior has no test: not done, back to fix mode', async () => {
  const h = track(harness());
  const noTests = { 'src/due.js': 'exports.parseDueDate = () => null;\n' };
  h.models.script('implementer', ...implementerDone('T1', 'DONE', noTests).map((r, i) => (i === 1 ? { text: '## Summary\nDone.\n\nSTATUS: DONE' } : r)));
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await run(h);
  assert.equal(result.outcome, 'completed', result.message);
  assert.match(h.models.promptsOf('implementer')[1], /behavior REQ-001-B01 has no persistent test file/);
});

test('an untrusted workspace cannot record evidence: the task is blocked, not done', async () => {
  const h = track(harness({}, { trusted: false }));
  h.models.script('implementer', ...implementerDone('T1'));
  h.models.script('reviewer', PASS);
  const result = await run(h);
  assert.equal(result.outcome, 'blocked');
  assert.match(result.message, /trusted workspace/);
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).status, 'blocked');
  assert.deepEqual(h.tests.runs, []);
});
