'use strict';
/**
 * Checkpoints, Review Changes, Reject File and Rewind in a real VS Code, through the scripted
 * model: a batch of two parallel tasks (each in a worktree of its own, merged back in task order)
 * and a third that depends on both; the multi-file diff of one task's checkpoint; one of its files
 * rejected and the fix round that follows; then Rewind to Before T3.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { git, parallelSubagentWorkspace, parallelSubagentsOff, waitFor } = require('../helpers');

const WS = process.env.LOOM_TEST_WORKSPACE;
const SPEC = path.join(WS, 'specs', '2026-11-29+batching');
const readJson = (p) => JSON.parse(fs.readFileSync(p, 'utf8'));
const taskState = (task) => readJson(path.join(SPEC, 'task-states', `${task}.state.json`));

suite('Executing: checkpoints, Review Changes, Reject File, Rewind', () => {
  let worktree;

  // Subagent mode with parallel dispatch: T1 and T2 form one parallel batch.
  suiteSetup(async () => {
    worktree = await parallelSubagentWorkspace(WS, SPEC);
  });

  suiteTeardown(parallelSubagentsOff);

  test('a batch of two parallel tasks in their own worktrees and a dependent third: one checkpoint each, merged in order, task worktrees gone', async () => {
    const mainHead = git(WS, 'rev-parse', 'HEAD');
    const result = await vscode.commands.executeCommand('loom.runTasks', { specDir: SPEC, confirm: true });
    assert.strictEqual(result.status, 'done', JSON.stringify(result));
    assert.strictEqual(result.outcome, 'completed', result.message);
    assert.deepStrictEqual(result.finished, ['T1', 'T2', 'T3']);

    const log = git(worktree, 'log', '--format=%s|%(trailers:key=Loom-Task,valueonly,separator=)', '-3').split('\n');
    assert.deepStrictEqual(log, ['T3: Greetings|T3', 'T2: Howdy|T2', 'T1: Hello there|T1']);
    for (const id of ['T1', 'T2', 'T3']) {
      const s = taskState(id);
      assert.strictEqual(s.status, 'done', id);
      assert.strictEqual(s.metadata.checkpoints.length, 1, id);
      assert.strictEqual(s.metadata.worktree, undefined, `${id} has no worktree left`);
    }
    assert.strictEqual(git(worktree, 'status', '--porcelain'), '');
    assert.doesNotMatch(git(WS, 'worktree', 'list'), /\.tasks/, 'the task worktrees were removed after the merge');
    assert.doesNotMatch(git(WS, 'branch', '--list'), /loom-task|\/T1\b/, 'and their branches');
    assert.strictEqual(git(WS, 'rev-parse', 'HEAD'), mainHead, 'the main checkout has no new commit');
    // Each task's tests ran in its worktree, the log kept as evidence.
    assert.ok(readJson(path.join(SPEC, 'traceability.json')).requirements['REQ-001'].behaviors['REQ-001-B01'].evidence.length > 0);
  });

  test('Review Changes opens the multi-file diff of the checkpoint', async () => {
    const result = await vscode.commands.executeCommand('loom.reviewChanges', { specDir: SPEC, taskId: 'T1' });
    assert.strictEqual(result.status, 'done', JSON.stringify(result));
    assert.strictEqual(result.message, 'src/batching1.js, tests/batching1.test.js');
    const tab = await waitFor('the multi-diff tab', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => /changes of T1/.test(t.label)), 10000);
    assert.ok(tab.input instanceof vscode.TabInputTextMultiDiff, `a multi-diff editor (${tab.input && tab.input.constructor.name})`);
    assert.strictEqual(tab.input.textDiffs.length, 2);
    const original = await vscode.workspace.openTextDocument(tab.input.textDiffs[0].original);
    const modified = await vscode.workspace.openTextDocument(tab.input.textDiffs[0].modified);
    assert.strictEqual(original.getText(), '', 'T1 added the file');
    assert.match(modified.getText(), /Hello there/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Reject File: the file goes back, T1 returns to its implementer in fix mode with the words, and the next run makes its new checkpoint', async () => {
    const words = 'greet with a comma, please';
    const result = await vscode.commands.executeCommand('loom.rejectFile', { specDir: SPEC, taskId: 'T1', file: 'src/batching1.js', words });
    assert.strictEqual(result.status, 'done', JSON.stringify(result));
    assert.strictEqual(fs.existsSync(path.join(worktree, 'src', 'batching1.js')), false);
    const t1 = taskState('T1');
    assert.strictEqual(t1.status, 'pending');
    assert.strictEqual(t1.metadata.mode, 'fix');

    const run = vscode.commands.executeCommand('loom.runTasks', { specDir: SPEC, confirm: true });
    const again = await Promise.race([run, new Promise((r) => setTimeout(() => r(undefined), 60000))]);
    if (!again) {
      // What the run waits for, in the test's output.
      const meta = readJson(path.join(SPEC, 'pipeline.state.json')).metadata;
      console.log(JSON.stringify({ breaker: meta.circuit_breaker, T1: taskState('T1'), status: git(worktree, 'status', '--porcelain'), worktrees: git(WS, 'worktree', 'list') }, null, 1));
      await vscode.commands.executeCommand('loom.stopTasks', { specDir: SPEC });
      assert.fail('the fix run did not end within 60 s');
    }
    assert.strictEqual(again.outcome, 'completed', again.message);
    const requests = await vscode.commands.executeCommand('loomTest.requests');
    assert.ok(requests.some((r) => r.role === 'implementer' && r.task === 'T1' && r.feature === 'batching'));
    const after = taskState('T1');
    assert.strictEqual(after.status, 'done');
    assert.strictEqual(after.metadata.checkpoints.length, 2);
    assert.ok(fs.existsSync(path.join(worktree, 'src', 'batching1.js')));
    assert.strictEqual(git(worktree, 'log', '-1', '--format=%s'), 'T1: Hello there');
    assert.strictEqual(git(worktree, 'status', '--porcelain'), '');
  });

  test('Rewind to Before T3: the feature branch goes back, T3 pending; the main checkout untouched', async () => {
    const mainHead = git(WS, 'rev-parse', 'HEAD');
    const target = taskState('T3').metadata.checkpoints[0].parent;
    const result = await vscode.commands.executeCommand('loom.rewindTask', { specDir: SPEC, taskId: 'T3', confirm: true });
    assert.strictEqual(result.status, 'done', JSON.stringify(result));
    // T1's fix came after T3: it is undone too, and says so.
    assert.deepStrictEqual(result.finished, ['T3', 'T1']);
    assert.strictEqual(git(worktree, 'rev-parse', 'HEAD'), target);
    assert.strictEqual(fs.existsSync(path.join(worktree, 'src', 'batching3.js')), false);
    assert.strictEqual(taskState('T3').status, 'pending');
    assert.strictEqual(taskState('T2').status, 'done');
    assert.strictEqual(git(WS, 'rev-parse', 'HEAD'), mainHead);

    // T2 is still done: its checkpoint stays in front for code-shim's SHIM_SCREENSHOT, taken when the tests end.
    const review = await vscode.commands.executeCommand('loom.reviewChanges', { specDir: SPEC, taskId: 'T2' });
    assert.strictEqual(review.status, 'done', JSON.stringify(review));
    await new Promise((r) => setTimeout(r, 1500));
  });
});
