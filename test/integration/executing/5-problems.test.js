'use strict';
/**
 * Done means done, in a real VS Code with its TypeScript service: the scripted implementer writes
 * a type-checked file (`// @ts-check`) with a type error; tests and review pass, but the error the
 * TypeScript service reports on the file sends the task back to its implementer in fix mode, the
 * fix instruction naming the Problems panel, and the task is done once the fix round cleared it.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { git, loom } = require('../helpers');

const WS = process.env.LOOM_TEST_WORKSPACE;
const SPEC = path.join(WS, 'specs', '2026-11-29+typing');
const readJson = (p) => JSON.parse(fs.readFileSync(p, 'utf8'));

suite('Executing: a TypeScript error in the Problems panel', () => {
  let worktree;

  suiteSetup(async () => {
    // Run alone (LOOM_TEST_GREP), the workspace is not yet the throwaway repository the first suite makes.
    if (!fs.existsSync(path.join(WS, '.git'))) {
      git(WS, 'init', '-q', '-b', 'main');
      git(WS, 'add', '-A');
      git(WS, '-c', 'user.name=Loom Test', '-c', 'user.email=test@example.com', 'commit', '-qm', 'the fixture');
    }
    // The settings the earlier suites changed and put back leave .vscode/settings.json behind; the worktree starts from a clean HEAD.
    if (git(WS, 'status', '--porcelain')) {
      git(WS, 'add', '-A');
      git(WS, '-c', 'user.name=Loom Test', '-c', 'user.email=test@example.com', 'commit', '-qm', 'what the earlier suites left');
    }
    await loom();
    const made = await vscode.commands.executeCommand('loom.createWorktree', { specDir: SPEC });
    assert.strictEqual(made.status, 'done', JSON.stringify(made));
    worktree = vscode.Uri.parse(made.uri).fsPath;
  });

  test('a task whose file has a type error is not done until the fix round cleared it; the fix instruction names the Problems panel', async () => {
    assert.ok(vscode.extensions.getExtension('vscode.typescript-language-features'), "VS Code's TypeScript extension is there");
    const before = (await vscode.commands.executeCommand('loomTest.requests')).length;
    const run = vscode.commands.executeCommand('loom.runTasks', { specDir: SPEC, confirm: true });
    const result = await Promise.race([run, new Promise((r) => setTimeout(() => r(undefined), 90000))]);
    if (!result) {
      // What the run waits for, in the test's output.
      const meta = readJson(path.join(SPEC, 'pipeline.state.json')).metadata;
      const asked = (await vscode.commands.executeCommand('loomTest.requests')).slice(before);
      console.log(JSON.stringify({ breaker: meta.circuit_breaker, T1: readJson(path.join(SPEC, 'task-states', 'T1.state.json')), asked }, null, 1));
      await vscode.commands.executeCommand('loom.stopTasks', { specDir: SPEC });
      assert.fail('the run did not end within 90 s');
    }
    assert.strictEqual(result.status, 'done', JSON.stringify(result));
    assert.strictEqual(result.outcome, 'completed', result.message);
    assert.deepStrictEqual(result.finished, ['T1']);

    const requests = (await vscode.commands.executeCommand('loomTest.requests')).slice(before).filter((r) => r.feature === 'typing');
    const fixes = requests.filter((r) => r.role === 'implementer' && !r.afterTools && r.notDone);
    assert.strictEqual(fixes.length, 1, JSON.stringify(requests));
    // The TypeScript service's own words, source and code: a string is not a number, on the line of the declaration.
    assert.match(fixes[0].notDone, /^not done yet: src\/typing1\.js:5 has a new error in the Problems panel \(ts 2322\): Type 'string' is not assignable to type 'number'\./);
    // Its review passed before the Problems panel was read: the task went back after a PASS, not a FAIL.
    const order = requests.filter((r) => !r.afterTools).map((r) => `${r.role}${r.notDone ? ' (fix)' : ''}`);
    assert.deepStrictEqual(order, ['implementer', 'reviewer', 'implementer (fix)', 'reviewer', 'test-reporter'], order.join(', '));

    const t1 = readJson(path.join(SPEC, 'task-states', 'T1.state.json'));
    assert.strictEqual(t1.status, 'done');
    assert.match(fs.readFileSync(path.join(worktree, 'src', 'typing1.js'), 'utf8'), /@type \{string\}/);
    assert.strictEqual(git(worktree, 'log', '-1', '--format=%s'), 'T1: Typed');
  });
});
