'use strict';
/**
 * What interrupts a run, in a real VS Code against the scripted "loom-test" model: Loom: Stop
 * Tasks while a request is in flight after a catastrophic regular expression search, NEEDS_CONTEXT answered through the input box's code path,
 * and the circuit breaker's choices B (fix by hand, then Continue) and C (skip, confirmed; the
 * dependents are held back). The input box, the Continue notification and the skip confirmation
 * cannot be typed into from a test: their answers are queued through the API's test hooks and
 * then go through HostUserPrompts like the user's own. Runs after 1-runTasks (the repository).
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, waitFor, readJson, specRow } = require('../helpers');

const WS = process.env.LOOM_TEST_WORKSPACE;
const PARTING = path.join(WS, 'specs', '2026-11-29+parting');
const WAVING = path.join(WS, 'specs', '2026-11-29+waving');
/** The tree row of a spec whose run waits for the person. */
const WAITING = /^waiting for you since (\d\d:\d\d|\d{4}-\d\d-\d\d \d\d:\d\d)/;
/** The answer the scripted implementer waits for in needs-context mode (script.js). */
const CONTEXT_ANSWER = 'use-the-short-form-42';

const setMode = (mode) => vscode.commands.executeCommand('loomTest.setMode', mode);
const requests = () => vscode.commands.executeCommand('loomTest.requests');
const taskState = (spec, task) => {
  const file = path.join(spec, 'task-states', `${task}.state.json`);
  return fs.existsSync(file) ? readJson(file) : undefined;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function createWorktree(spec) {
  const made = await vscode.commands.executeCommand('loom.createWorktree', { specDir: spec });
  assert.strictEqual(made.status, 'done', JSON.stringify(made));
  return vscode.Uri.parse(made.uri).fsPath;
}

/** Waits until the breaker is open at `task` with no choice yet. */
function breakerOpen(spec, task) {
  return waitFor(
    `the circuit breaker at ${task}`,
    () => {
      const meta = readJson(path.join(spec, 'pipeline.state.json')).metadata;
      return meta.circuit_breaker && meta.circuit_breaker.task === task && !meta.circuit_breaker.choice;
    },
    90000,
  );
}

/** Answers the open breaker question the way the dashboard does; retries until the loop asks. */
function choose(spec, task, choice) {
  return waitFor(
    `the breaker question at ${task}`,
    async () => {
      const r = await vscode.commands.executeCommand('loom.executing.breakerChoice', { specDir: spec, taskId: task, choice });
      return r.status === 'done' ? r : undefined;
    },
    10000,
  );
}

suite('Executing: Stop Tasks, NEEDS_CONTEXT, breaker choices B and C', () => {
  let api;

  suiteSetup(async () => {
    api = await loom();
    assert.ok(api.testHooks, 'the API has test hooks in ExtensionMode.Test');
  });

  teardown(async () => {
    api.testHooks.prompts.clear();
    await setMode('pass');
  });

  test('a catastrophic regular expression search leaves the host responsive; Stop Tasks during the next request ends the run cancelled, nothing dispatched twice or marked done', async () => {
    // The row offers Run Tasks and Create Worktree (no worktree yet); Stop Tasks once one runs.
    const row = await specRow(api, 'parting');
    assert.match(row.contextValue, /^loomSpec:running.*:executing:worktree$/);
    const worktree = await createWorktree(PARTING);
    // `(a+)+$` against this line would block a JavaScript RegExp (and the whole extension host) for days.
    fs.writeFileSync(path.join(worktree, 'notes.md'), `Notes\n=====\n${'a'.repeat(40)}!\n`);
    const before = (await requests()).length;
    await setMode('search-then-hang');
    // Started as the user does, through the consent, which names the test reporter's locations.
    api.testHooks.prompts.answerNext('consent', true);
    let beats = 0;
    const heartbeat = setInterval(() => beats++, 100);
    let result;
    try {
      const run = vscode.commands.executeCommand('loom.runTasks', { specDir: PARTING });
      const afterSearch = await waitFor('the request after the search', async () => (await requests()).slice(before).find((r) => r.feature === 'parting' && r.afterTools), 60000);
      assert.doesNotMatch(afterSearch.toolText, /^(Refused|Error)/, afterSearch.toolText);
      assert.doesNotMatch(afterSearch.toolText, /notes\.md/, 'the line ending in ! does not match');
      assert.ok(beats > 0, 'the extension host kept running timers during the search');

      // Stopped from the tree row's context menu: the command gets the row's node.
      const stopped = await vscode.commands.executeCommand('loom.stopTasks', (await specRow(api, 'parting')).node);
      assert.strictEqual(stopped.status, 'done', JSON.stringify(stopped));
      result = await run;
    } finally {
      clearInterval(heartbeat);
    }
    assert.strictEqual(result.status, 'done', JSON.stringify(result));
    assert.strictEqual(result.outcome, 'cancelled', result.message);
    const consent = api.testHooks.prompts.shown.find((s) => s.kind === 'consent');
    assert.ok(consent, 'the consent was asked');
    assert.match(consent.text, /The test reporter may write only in the test locations: tests\/\. Never in hidden folders such as \.github\//);

    // The search request and the one in flight after it, and nothing followed, not even after a while.
    const seen = (await requests()).slice(before);
    assert.deepStrictEqual(
      seen.map((r) => `${r.feature} ${r.role} ${r.task} ${r.afterTools}`),
      ['parting implementer T1 false', 'parting implementer T1 true'],
    );
    await sleep(1500);
    assert.strictEqual((await requests()).length, before + 2, 'no request after the stop');

    const t1 = taskState(PARTING, 'T1');
    assert.ok(!t1 || t1.status !== 'done', JSON.stringify(t1));
    assert.strictEqual(taskState(PARTING, 'T2'), undefined, 'T2 never started');
    assert.strictEqual(fs.existsSync(path.join(PARTING, '.loom-run.lock')), false, 'the run lease is released');
    const again = await vscode.commands.executeCommand('loom.stopTasks', { specDir: PARTING });
    assert.strictEqual(again.status, 'refused', 'nothing is running any more');

    // Stopped on its own (not from Run Pipeline), the run still says where it stopped and since when (#44).
    const waiting = await waitFor('the stop of Run Tasks to be kept', () => api.runs.waiting(PARTING));
    assert.strictEqual(waiting.reason, 'tasks-stopped');
    assert.match(String((await specRow(api, 'parting')).description), WAITING);
  });

  test('NEEDS_CONTEXT asks the user; the answer reaches the implementer and the stopped run resumes to the end', async () => {
    await setMode('needs-context');
    api.testHooks.prompts.answerNext('context', `  Yes: ${CONTEXT_ANSWER}  `);
    const before = (await requests()).length;
    const result = await vscode.commands.executeCommand('loom.runTasks', { specDir: PARTING, confirm: true });
    assert.strictEqual(result.outcome, 'completed', result.message);
    assert.deepStrictEqual(result.finished, ['T1', 'T2']);

    const t1 = (await requests()).slice(before).filter((r) => r.feature === 'parting' && r.role === 'implementer' && r.task === 'T1' && !r.afterTools);
    // Asked once without the answer, then dispatched with it: the question was answered, not skipped.
    assert.deepStrictEqual(
      t1.map((r) => r.answered),
      [false, true],
      JSON.stringify(t1),
    );
    assert.strictEqual(api.testHooks.prompts.take('context'), undefined, 'the answer was used');
    assert.strictEqual(taskState(PARTING, 'T1').status, 'done');
    assert.strictEqual(taskState(PARTING, 'T2').status, 'done');
    // The tasks done: the stop Stop Tasks left is over, as a finished pipeline run ends its own.
    assert.strictEqual(api.runs.waiting(PARTING), undefined);
    assert.doesNotMatch(String((await specRow(api, 'parting')).description), WAITING);
  });

  test('breaker choice B waits for the manual fix and reviews again; choice C skips after confirmation and holds back the dependents', async () => {
    const worktree = await createWorktree(WAVING);
    await setMode('reviewer-fails:T1');
    const run = vscode.commands.executeCommand('loom.runTasks', { specDir: WAVING, confirm: true });
    let outcome;
    void run.then((r) => (outcome = r));

    await breakerOpen(WAVING, 'T1');
    assert.strictEqual(taskState(WAVING, 'T1').status, 'failed');
    // The user fixes T1 by hand in the worktree and presses Continue; T2's reviews will fail.
    fs.appendFileSync(path.join(worktree, 'src', 'waving1.js'), '// fixed by hand\n');
    await setMode('reviewer-fails:T2');
    api.testHooks.prompts.answerNext('manualFix', true);
    api.testHooks.prompts.answerNext('confirmSkip', true);
    await choose(WAVING, 'T1', 'B');

    await breakerOpen(WAVING, 'T2');
    const t1 = taskState(WAVING, 'T1');
    assert.strictEqual(t1.status, 'done', JSON.stringify(t1));
    assert.strictEqual(outcome, undefined, 'the run waits at the second breaker');
    await choose(WAVING, 'T2', 'C');

    const result = await run;
    assert.strictEqual(result.outcome, 'completed', result.message);
    assert.deepStrictEqual(result.finished, ['T1']);
    assert.deepStrictEqual(result.skipped, ['T2', 'T3']);
    assert.strictEqual(api.testHooks.prompts.take('confirmSkip'), undefined, 'the skip was confirmed');
    const t2 = taskState(WAVING, 'T2');
    const t3 = taskState(WAVING, 'T3');
    assert.strictEqual(t2.status, 'blocked');
    assert.match(t2.blocker, /choice C/);
    assert.strictEqual(t3.status, 'blocked');
    assert.match(t3.blocker, /depends on T2/);
    const meta = readJson(path.join(WAVING, 'pipeline.state.json')).metadata;
    assert.strictEqual(meta.circuit_breaker.task, 'T2');
    assert.strictEqual(meta.circuit_breaker.choice, 'C');
    // No request was made for the skipped dependent.
    assert.ok(!(await requests()).some((r) => r.feature === 'waving' && r.task === 'T3' && r.role === 'implementer'));
  });
});
