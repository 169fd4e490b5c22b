'use strict';
/**
 * A run that died resumed in a real VS Code (#44): another window ran the tasks of a spec whose
 * T1 and T2 form one parallel batch (each in a worktree of its own) and T3 depends on both, and
 * was killed with SIGKILL while T2's implementer worked and T1 had its checkpoint and waited for
 * its merge (crashedWindow.ts). Run Tasks here resumes it to the end a run never killed reaches:
 * T1 merged without being dispatched again, every task done once with one commit, and no task
 * worktree, branch, lock or temporary file left; never "T1 is already being dispatched".
 */
const assert = require('assert');
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { git, parallelSubagentWorkspace, parallelSubagentsOff } = require('../helpers');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const WS = process.env.LOOM_TEST_WORKSPACE;
const SPEC = path.join(WS, 'specs', '2026-11-29+resuming');
const readJson = (p) => JSON.parse(fs.readFileSync(p, 'utf8'));
const taskState = (task) => readJson(path.join(SPEC, 'task-states', `${task}.state.json`));
const requests = () => vscode.commands.executeCommand('loomTest.requests');

/** The crashed window: a process running the core from the sources, killed at its step. */
function crashedWindow(worktree) {
  return new Promise((resolve, reject) => {
    // The extension host's own executable, as Node (desktop VS Code's is Electron).
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'crashedWindow.ts'), WS, SPEC, worktree], {
      cwd: ROOT,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}

/** Files a run leaves only when it dies: temporary files of atomic writes, locks moved aside. */
function leftovers(dir) {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && (e.name.endsWith('.tmp') || e.name.startsWith('.loom-run.lock')));
}

suite('Executing: a run killed mid-batch resumes', () => {
  let worktree;

  // Subagent mode with parallel dispatch: T1 and T2 form one parallel batch.
  suiteSetup(async () => {
    worktree = await parallelSubagentWorkspace(WS, SPEC);
  });

  suiteTeardown(parallelSubagentsOff);

  test('killed while T1 waits for its merge and T2 works: Run Tasks merges T1 from disk, finishes T2 and T3, one commit each, nothing left behind', async () => {
    const crashed = await crashedWindow(worktree);
    assert.strictEqual(crashed.signal, 'SIGKILL', `the other window was not killed: ${crashed.code} ${crashed.out}`);
    assert.strictEqual(taskState('T1').metadata.step, 'merge');
    assert.strictEqual(taskState('T2').metadata.step, 'implement');
    assert.ok(fs.existsSync(path.join(SPEC, '.loom-run.lock')), 'the dead window left its lock');
    assert.match(git(WS, 'worktree', 'list'), /resuming\.tasks[\\/]T1/);

    const before = (await requests()).length;
    const result = await vscode.commands.executeCommand('loom.runTasks', { specDir: SPEC, confirm: true });
    assert.strictEqual(result.status, 'done', JSON.stringify(result));
    assert.strictEqual(result.outcome, 'completed', result.message);
    assert.deepStrictEqual(result.finished, ['T1', 'T2', 'T3']);
    const asked = (await requests()).slice(before).filter((r) => r.feature === 'resuming' && r.role === 'implementer');
    assert.ok(!asked.some((r) => r.task === 'T1'), 'T1 was not dispatched again');

    const log = git(worktree, 'log', '--format=%s|%(trailers:key=Loom-Task,valueonly,separator=)', '-4').split('\n');
    assert.deepStrictEqual(log.slice(0, 3), ['T3: Cheers|T3', 'T2: Ahoy|T2', 'T1: Welcome|T1']);
    assert.doesNotMatch(log[3], /\|T\d$/, 'one commit per task');
    for (const id of ['T1', 'T2', 'T3']) assert.strictEqual(taskState(id).status, 'done', id);
    assert.deepStrictEqual(readJson(path.join(SPEC, 'handoffs', 'T1.json')).artifacts.sort(), ['src/resuming1.js', 'tests/resuming1.test.js']);
    assert.strictEqual(git(worktree, 'status', '--porcelain'), '');
    assert.doesNotMatch(git(WS, 'worktree', 'list'), /resuming\.tasks/, 'no task worktree left');
    assert.doesNotMatch(git(WS, 'branch', '--list'), /loom-task\/[^\n]*resuming/, 'no task branch left');
    assert.deepStrictEqual(
      leftovers(SPEC).map((e) => e.name),
      [],
    );
  });
});
