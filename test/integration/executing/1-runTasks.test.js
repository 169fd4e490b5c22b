'use strict';
/**
 * The executing stage end to end in a real VS Code: Loom: Create Worktree on a throwaway git
 * repository, then Loom: Run Tasks through the real vscode.lm path against the scripted
 * "loom-test" model (test/integration/scripted-model-extension): tool calls, tool results,
 * reviewer verdicts, the test command, and every file the core writes.
 */
const assert = require('assert');
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, waitFor } = require('../helpers');

const WS = process.env.LOOM_TEST_WORKSPACE;
const SPEC = path.join(WS, 'specs', '2026-11-29+greeting');
const readJson = (p) => JSON.parse(fs.readFileSync(p, 'utf8'));

function git(...args) {
  const r = spawnSync('git', ['-c', 'user.name=Loom Test', '-c', 'user.email=test@example.com', ...args], { cwd: WS, encoding: 'utf8' });
  assert.strictEqual(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

suite('Executing: worktree and Run Tasks through vscode.lm', () => {
  let api;

  suiteSetup(async () => {
    // The throwaway repository: the fixture as its first commit.
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-qm', 'greeting app with a spec at executing');
    api = await loom();
  });

  test('the scripted model is selectable through vscode.lm', async () => {
    const models = await waitFor(
      'the loom-test model',
      async () => {
        const found = await vscode.lm.selectChatModels({ vendor: 'loom-test' });
        return found.length ? found : undefined;
      },
      20000,
    );
    assert.strictEqual(models[0].family, 'scripted');
    assert.ok(models[0].maxInputTokens > 0);
  });

  test('Run Tasks refuses without a worktree and writes nothing', async () => {
    const before = fs.readFileSync(path.join(SPEC, 'pipeline.state.json'), 'utf8');
    const result = await vscode.commands.executeCommand('loom.runTasks', { specDir: SPEC, confirm: true });
    assert.strictEqual(result.status, 'refused', JSON.stringify(result));
    assert.ok(
      result.reasons.some((r) => /worktree/.test(r)),
      result.reasons.join('; '),
    );
    assert.strictEqual(fs.readFileSync(path.join(SPEC, 'pipeline.state.json'), 'utf8'), before);
  });

  test("Create Worktree makes feature/<date>-<name> in loom's .worktree/ and records it", async () => {
    const result = await vscode.commands.executeCommand('loom.createWorktree', { specDir: SPEC });
    assert.strictEqual(result.status, 'done', JSON.stringify(result));
    const worktree = vscode.Uri.parse(result.uri).fsPath;
    assert.strictEqual(worktree, path.join(WS, '.worktree', '2026-11-29-greeting'));
    assert.ok(fs.existsSync(path.join(worktree, 'package.json')));
    assert.match(git('worktree', 'list'), /\[feature\/2026-11-29-greeting\]/);
    assert.strictEqual(readJson(path.join(SPEC, 'pipeline.state.json')).metadata.worktree_path, worktree);

    const again = await vscode.commands.executeCommand('loom.createWorktree', { specDir: SPEC });
    assert.strictEqual(vscode.Uri.parse(again.uri).fsPath, worktree, 'the existing worktree is reused');
  });

  test('a breaker choice with no run waiting records nothing and says so', async () => {
    const result = await vscode.commands.executeCommand('loom.executing.breakerChoice', { specDir: SPEC, taskId: 'T1', choice: 'A' });
    assert.strictEqual(result.status, 'refused');
    assert.match(result.message, /nothing was recorded/);
    assert.strictEqual(fs.existsSync(path.join(SPEC, 'task-states', 'T1.state.json')), false);
  });

  test('Run Tasks completes both tasks through the scripted model', async () => {
    const worktree = readJson(path.join(SPEC, 'pipeline.state.json')).metadata.worktree_path;
    const result = await vscode.commands.executeCommand('loom.runTasks', { specDir: SPEC, confirm: true });
    assert.strictEqual(result.status, 'done', JSON.stringify(result));
    assert.strictEqual(result.outcome, 'completed', result.message);

    // The implementer's tool calls wrote into the worktree, not the repository.
    assert.match(fs.readFileSync(path.join(worktree, 'src', 'greet.js'), 'utf8'), /Hello/);
    assert.ok(fs.existsSync(path.join(worktree, 'tests', 'shout.test.js')));
    assert.strictEqual(fs.existsSync(path.join(WS, 'src', 'greet.js')), false);

    for (const id of ['T1', 'T2']) {
      const state = readJson(path.join(SPEC, 'task-states', `${id}.state.json`));
      assert.strictEqual(state.status, 'done', id);
      assert.strictEqual(state.last_reviewer_result, 'PASS', id);
      const handoff = readJson(path.join(SPEC, 'handoffs', `${id}.json`));
      assert.strictEqual(handoff.task_id, id);
      // The worktree's files are the extension's own digests; loom's artifact_fingerprints come from
      // the repository that holds specs/, where these new files do not exist yet (one path rule).
      assert.ok(Object.keys(handoff.worktree_fingerprints || {}).length > 0, `${id} worktree fingerprints`);
      assert.deepStrictEqual(handoff.artifact_fingerprints, {}, `${id} artifact fingerprints`);
    }
    const trace = readJson(path.join(SPEC, 'traceability.json'));
    // Recorded through the worktree, from the repository root: where loom (resolveProjectReference) finds it before the merge.
    assert.deepStrictEqual(trace.requirements['REQ-001'].behaviors['REQ-001-B01'].tests, ['.worktree/2026-11-29-greeting/tests/greet.test.js#REQ-001-B01 greets by name']);
    assert.ok(trace.requirements['REQ-002'].behaviors['REQ-002-B01'].evidence.length > 0);
    assert.match(fs.readFileSync(path.join(SPEC, 'test-report.md'), 'utf8').trimEnd(), /verdict: PASS$/);
    assert.strictEqual(readJson(path.join(SPEC, 'handoffs', 'executing.json')).status, 'done');
    const state = readJson(path.join(SPEC, 'pipeline.state.json'));
    assert.ok(state.metadata.token_usage.total.input > 0, 'tokens were counted');
    assert.strictEqual(fs.existsSync(path.join(SPEC, '.loom-run.lock')), false);

    // Tool results went back to the model as LanguageModelToolResultParts.
    const requests = await vscode.commands.executeCommand('loomTest.requests');
    assert.ok(
      requests.some((r) => r.role === 'implementer' && r.task === 'T1' && r.afterTools),
      JSON.stringify(requests),
    );
    assert.deepStrictEqual([...new Set(requests.map((r) => r.role))].sort(), ['implementer', 'reviewer', 'test-reporter']);

    // The task handoffs stay fresh although their artifacts live in the worktree.
    api.registry.settleNow(SPEC);
    await api.registry.whenIdle();
    const entry = await waitFor('the spec entry', () => api.registry.entry(SPEC));
    assert.deepStrictEqual(entry.staleness.handoffs, []);
  });

  test('the circuit breaker waits for the user; the dashboard command answers it (choice A: re-plan)', async () => {
    const spec = path.join(WS, 'specs', '2026-11-29+farewell');
    // The other spec's state files changed in the main checkout: they do not make the tree dirty.
    const made = await vscode.commands.executeCommand('loom.createWorktree', { specDir: spec });
    assert.strictEqual(made.status, 'done', JSON.stringify(made));
    await vscode.commands.executeCommand('loomTest.setMode', 'reviewer-fails');
    try {
      const run = vscode.commands.executeCommand('loom.runTasks', { specDir: spec, confirm: true });
      let outcome;
      void run.then((r) => (outcome = r));
      // Nothing goes on by itself: the loop waits at the breaker until someone chooses.
      await waitFor(
        'the circuit breaker',
        () => {
          const meta = readJson(path.join(spec, 'pipeline.state.json')).metadata;
          return meta.circuit_breaker && meta.circuit_breaker.task === 'T1' && !meta.circuit_breaker.choice;
        },
        60000,
      );
      await new Promise((r) => setTimeout(r, 500));
      assert.strictEqual(outcome, undefined, 'the run waits for a choice');
      const answered = await waitFor(
        'the breaker question',
        async () => {
          const r = await vscode.commands.executeCommand('loom.executing.breakerChoice', { specDir: spec, taskId: 'T1', choice: 'A' });
          return r.status === 'done' ? r : undefined;
        },
        10000,
      );
      assert.strictEqual(answered.status, 'done');
      const result = await run;
      assert.strictEqual(result.outcome, 'replan', result.message);
      const meta = readJson(path.join(spec, 'pipeline.state.json')).metadata;
      assert.strictEqual(meta.circuit_breaker.choice, 'A');
      assert.notStrictEqual(readJson(path.join(spec, 'task-states', 'T1.state.json')).status, 'done');
    } finally {
      await vscode.commands.executeCommand('loomTest.setMode', 'pass');
    }
  });

  test('Stop Tasks with nothing running says so', async () => {
    const result = await vscode.commands.executeCommand('loom.stopTasks');
    assert.strictEqual(result.status, 'refused');
  });
});
