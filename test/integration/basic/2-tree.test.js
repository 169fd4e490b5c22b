'use strict';
const assert = require('assert');
const vscode = require('vscode');
const { loom, rows, specRow, stageRows } = require('../helpers');

suite('tree', () => {
  let api;
  suiteSetup(async () => {
    api = await loom();
  });

  test('groups the specs: needs attention, in progress, failed, done', async () => {
    const groups = await rows(api);
    assert.deepStrictEqual(
      groups.map((g) => [g.label, g.description]),
      [
        ['Needs attention', '1'],
        ['In progress', '5'],
        ['Failed', '1'],
        ['Done', '1'],
      ],
    );
    const names = async (i) => (await rows(api, groups[i].node)).map((s) => s.label);
    assert.deepStrictEqual(await names(0), ['broken'], 'a corrupt state file has not failed');
    assert.deepStrictEqual(await names(1), ['export', 'search', 'review', 'user-login', 'approval'], 'newest first');
    assert.deepStrictEqual(await names(2), ['legacy']);
    assert.deepStrictEqual(await names(3), ['payments']);
  });

  test('a spec row reads "executing · 6 of 13 stages done · <age>" with a running icon', async () => {
    const spec = await specRow(api, 'user-login');
    assert.match(spec.description, /^executing · 6 of 13 stages done · (\d+[mhd] ago|just now|\d{4}-\d{2}-\d{2})$/);
    assert.strictEqual(spec.icon, 'play-circle');
    // At executing with no worktree recorded: Run Tasks and Create Worktree are offered.
    assert.strictEqual(spec.contextValue, 'loomSpec:running:approve:executing:worktree');
    assert.match(spec.tooltip, /Created: 2026-11-20/);
    assert.match(spec.tooltip, /test-report\.md does not exist/, 'the tooltip says what blocks the next step');
  });

  test('stages carry status icons and theme colors', async () => {
    const spec = await specRow(api, 'user-login');
    const [tasks, ...stages] = await rows(api, spec.node);
    assert.deepStrictEqual([tasks.label, tasks.description, tasks.icon], ['Tasks', '1 of 3 done', 'checklist'], 'at executing, the tasks are one click from the spec row');
    assert.deepStrictEqual(
      (await rows(api, tasks.node)).map((t) => t.label),
      ['T1', 'T2', 'T3'],
    );
    assert.strictEqual(stages.length, 13);
    assert.deepStrictEqual(
      stages.slice(0, 8).map((s) => [s.label, s.icon, s.color]),
      [
        ['brainstorming', 'pass-filled', 'testing.iconPassed'],
        ['detail-expansion', 'pass-filled', 'testing.iconPassed'],
        ['planning', 'pass-filled', 'testing.iconPassed'],
        ['analyze-artifacts', 'pass-filled', 'testing.iconPassed'],
        ['approved', 'pass-filled', 'testing.iconPassed'],
        ['git-worktree', 'pass-filled', 'testing.iconPassed'],
        ['executing', 'play-circle', 'charts.blue'],
        ['converge', 'circle-large-outline', 'disabledForeground'],
      ],
    );
    assert.match(stages[0].description, /done · approved/);
    assert.match(stages[0].tooltip, /passed: 2026-11-20/, 'the tooltip lists entered and exited times');
    assert.match(stages[6].description, /^running · since /);
  });

  test('the tasks under executing show status, retries and blocker; artifacts show as missing or open', async () => {
    const children = await stageRows(api, 'user-login', 'executing');
    const tasks = children.filter((c) => /^T\d+$/.test(c.label));
    assert.deepStrictEqual(
      tasks.map((t) => [t.label, t.icon]),
      [
        ['T1', 'pass'],
        ['T2', 'sync~spin'],
        ['T3', 'circle-slash'],
      ],
    );
    assert.match(tasks[1].description, /executing · 1 retry$/);
    assert.match(tasks[2].description, /blocked · 3 retries · 数据库迁移未完成/);
    assert.strictEqual(tasks[0].command, 'vscode.open');
    const report = children.find((c) => c.label === 'test-report.md');
    assert.deepStrictEqual([report.description, report.icon, report.command], ['missing', 'warning', undefined]);
    const trace = children.find((c) => c.label === 'traceability.json');
    assert.strictEqual(trace.command, 'vscode.open');
  });

  test('a failed spec is filed under Failed, a corrupt one under Needs attention, and each says why', async () => {
    const legacy = await specRow(api, 'legacy');
    assert.strictEqual(legacy.group, 'Failed');
    assert.match(legacy.description, /^failed · 1 of 13 stages done/);
    assert.strictEqual(legacy.icon, 'error');
    assert.match(legacy.tooltip, /需求不清楚/);
    const stages = await rows(api, legacy.node);
    assert.deepStrictEqual(
      stages.slice(0, 2).map((s) => s.icon),
      ['pass-filled', 'error'],
    );

    const broken = await specRow(api, 'broken');
    assert.strictEqual(broken.group, 'Needs attention');
    assert.match(broken.description, /^state unreadable( · |$)/);
    assert.doesNotMatch(broken.description, /stages done/, 'no progress while the stage is unknown');
    assert.match(broken.tooltip, /Line \d+: /, 'the hover gives the line where the file stops being readable');
    const first = (await rows(api, broken.node))[0];
    assert.match(first.label, /^pipeline\.state\.json line \d+: fix or restore it$/);
    assert.match(first.tooltip, /^Line \d+: /);
    assert.strictEqual(first.command, 'vscode.open');
    assert.strictEqual(first.contextValue, 'loomNote:openAtLine', 'the note carries the Open at the Error button');
    const opened = await vscode.commands.executeCommand('loom.openStateFile', { specDir: broken.node.dir });
    assert.strictEqual(opened.status, 'done');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor.document.uri.fsPath.endsWith('pipeline.state.json'));
    assert.strictEqual(editor.selection.active.line + 1, Number(/^Line (\d+)/.exec(first.tooltip)[1]), 'the editor opens at the error line');
  });

  test('a changed approved file shows the spec as stale, with a note and the stage marked', async () => {
    const spec = await specRow(api, 'approval');
    assert.match(spec.description, /⚠ stale/);
    assert.strictEqual(spec.icon, 'warning');
    const children = await rows(api, spec.node);
    assert.match(children[0].label, /Re-approval needed: plan\.md changed after analyze-artifacts was approved/);
    const stage = children.find((c) => c.label === 'analyze-artifacts');
    assert.match(stage.description, /approval stale/);
    assert.strictEqual(stage.icon, 'warning');
  });
});
