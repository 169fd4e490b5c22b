'use strict';
/**
 * After the runs of 1-runTasks: Loom: Show Transcripts from a task row of the tree lists that
 * task's dispatches in a quick pick (accepted through the workbench's own command) and opens
 * the chosen one read-only as Markdown; the spec rows carry the stage in their contextValue for
 * the Run Tasks / Stop Tasks / Create Worktree menu items.
 */
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { loom, waitFor, specRow, stageRows } = require('../helpers');

const WS = process.env.LOOM_TEST_WORKSPACE;
const GREETING = path.join(WS, 'specs', '2026-11-29+greeting');

/** Runs `command` and accepts its quick pick's first item the way Enter does. */
async function acceptingQuickPick(command, arg) {
  let outcome;
  const run = vscode.commands.executeCommand(command, arg).then((r) => (outcome = r));
  await waitFor(
    'the quick pick to be answered',
    async () => {
      if (outcome) return true;
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((r) => setTimeout(r, 200));
      return outcome !== undefined;
    },
    15000,
  );
  return run;
}

suite('Executing: transcripts and the tree menus', () => {
  let api;

  suiteSetup(async () => {
    api = await loom();
  });

  test('spec rows at executing say so in their contextValue; a recorded worktree drops :worktree', async () => {
    api.registry.settleNow(GREETING);
    await api.registry.whenIdle();
    const greeting = await waitFor('the greeting row', () => specRow(api, 'greeting'));
    assert.match(greeting.contextValue, /^loomSpec:running.*:executing$/);
    assert.doesNotMatch(greeting.contextValue, /:worktree/);
  });

  test("Show Transcripts from a task row opens that task's chosen dispatch read-only as Markdown", async () => {
    const tasks = await stageRows(api, 'greeting', 'executing');
    const t1 = tasks.find((t) => /^T1\b/.test(t.label));
    assert.ok(t1, JSON.stringify(tasks.map((t) => t.label)));
    assert.match(t1.contextValue, /^loomTask:/);

    const result = await acceptingQuickPick('loom.showTranscripts', t1.node);
    assert.strictEqual(result.status, 'done', JSON.stringify(result));
    const uri = vscode.Uri.parse(result.uri);
    assert.strictEqual(uri.scheme, 'loom-transcript');
    const doc = await vscode.workspace.openTextDocument(uri);
    const text = doc.getText();
    // The newest dispatch of T1 comes first: the reviewer's.
    assert.match(text, /^# T1 · (implementer|reviewer)/);
    assert.match(text, /- Spec: `specs\/2026-11-29\+greeting`/);
    assert.match(text, /## Prompt to the (implementer|reviewer)/);
    assert.match(text, /## Reply of the (implementer|reviewer)/);
    assert.ok(!/T2 · /.test(text.split('\n')[0]), 'only T1 is listed');
  });

  test('Show Transcripts for a spec without transcripts says so', async () => {
    const result = await vscode.commands.executeCommand('loom.showTranscripts', { specDir: path.join(WS, 'specs', '2026-11-29+waving'), taskId: 'T3' });
    assert.strictEqual(result.status, 'refused', JSON.stringify(result));
    assert.match(result.message, /no transcripts/);
  });
});
