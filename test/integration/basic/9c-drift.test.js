'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, waitFor, specRow, specPath, folderPath, git } = require('../helpers');

/** A commit by a test identity, all files taken. */
const commit = (root, message) => {
  git(root, 'add', '-A');
  git(root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', message);
  return git(root, 'rev-parse', 'HEAD');
};

suite('drift after synced', () => {
  let api;
  let root;
  let task;
  suiteSetup(async () => {
    api = await loom();
    root = folderPath();
    task = path.join(specPath('2026-11-10+payments'), 'tasks', 'T1.md');
  });
  suiteTeardown(() => {
    fs.rmSync(path.join(root, '.git'), { recursive: true, force: true });
    fs.rmSync(path.join(root, 'src'), { recursive: true, force: true });
    fs.rmSync(path.dirname(task), { recursive: true, force: true });
  });

  test('a commit that changes a file a synced spec owns marks its row "1 file changed since <baseline>", read again when HEAD moves', async function () {
    this.timeout(60000);
    // payments is synced; its state file committed at synced is its (inferred) baseline.
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'pay.ts'), 'export const pay = 1;\n');
    fs.mkdirSync(path.dirname(task), { recursive: true });
    fs.writeFileSync(task, '---\nowns: [src/pay.ts]\nreads: []\ndepends_on: []\n---\n# T1 Pay\n');
    git(root, 'init', '-q', '-b', 'main');
    // A repository made a moment ago: VS Code's watcher takes the new .git in a moment (a commit made
    // before it is seen at the window's next focus or terminal command instead: specDrifts.ts).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const baseline = commit(root, 'payments synced');
    const dir = specPath('2026-11-10+payments');
    await waitFor('payments to be read as true to its code', async () => api.drifts.drift(dir)?.status === 'clean', 30000).catch((e) => {
      throw new Error(`${e.message}: ${JSON.stringify(api.drifts.drift(dir))} stage ${api.registry.entry(dir)?.spec.stage}`);
    });
    let row = await specRow(api, 'payments');
    assert.ok(!row.description.includes('changed since'), row.description);

    fs.writeFileSync(path.join(root, 'src', 'pay.ts'), 'export const pay = 2;\n');
    commit(root, 'pay twice');
    row = await waitFor(
      'the payments row to say it drifted',
      async () => {
        const r = await specRow(api, 'payments');
        return r.description.includes('changed since') && r;
      },
      30000,
    );
    assert.ok(row.description.startsWith(`⚠ 1 file changed since ${baseline.slice(0, 7)} (inferred from git history) · synced`), row.description);
  });

  test('the dashboard lists the drifted file with a diff from the baseline; Accept as Accurate moves the baseline with who and why, and the row and the dashboard say it is true to the code', async function () {
    this.timeout(90000);
    const dir = specPath('2026-11-10+payments');
    await waitFor('payments to be drifted', async () => api.drifts.drift(dir)?.status === 'drifted', 30000);
    const row = await specRow(api, 'payments');
    assert.match(row.contextValue, /^loomSpec:.*:drifted$/, 'Accept and Reconcile are offered on the row');
    const baseline = api.drifts.drift(dir).baseline.commit;

    await vscode.commands.executeCommand('loom.openDashboard', { specDir: dir });
    const view = api.webviews.get('dashboard', dir);
    const drifted = await waitFor('the dashboard model to carry the drift', () => view.posted.map((m) => m.model && m.model.drift).find((d) => d && d.status === 'drifted'), 15000);
    assert.deepEqual(
      drifted.files.map((f) => [f.path, f.change, f.tasks]),
      [['src/pay.ts', 'modified', ['T1']]],
    );
    assert.equal(drifted.baseline.commit, baseline);

    // The dashboard's Show diff, as the page sends it: the baseline's file against the working tree's.
    await view.receive({ type: 'runCommand', specDir: 'specs/2026-11-10+payments', command: 'showDriftDiff', args: { file: 'src/pay.ts' } });
    const tab = await waitFor(
      'a diff editor',
      () => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab && vscode.window.tabGroups.activeTabGroup.activeTab.input;
        return input instanceof vscode.TabInputTextDiff && input;
      },
      10000,
    );
    assert.equal(tab.original.scheme, 'loom-checkpoint');
    assert.match(tab.original.query, new RegExp(`commit=${baseline}`));
    assert.equal(tab.modified.fsPath, path.join(root, 'src', 'pay.ts'));
    assert.equal((await vscode.workspace.openTextDocument(tab.original)).getText(), 'export const pay = 1;\n');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    const head = git(root, 'rev-parse', 'HEAD');
    const outcome = await vscode.commands.executeCommand('loom.acceptSpecAsAccurate', { specDir: dir, reason: 'paying twice is what REQ-001 means' });
    assert.equal(outcome.status, 'done', JSON.stringify(outcome));
    const state = JSON.parse(fs.readFileSync(path.join(dir, 'pipeline.state.json'), 'utf8'));
    const moved = state.metadata.drift_baseline;
    assert.deepEqual([moved.commit, moved.source, moved.reason], [head, 'accepted', 'paying twice is what REQ-001 means']);
    assert.match(moved.by, /\(Loom: Accept Spec as Accurate\)$/);
    const clean = await waitFor(
      'the dashboard to say payments is true to its code',
      () => {
        const last = view.posted.filter((m) => m.model).pop();
        return last && last.model.drift && last.model.drift.status === 'clean' && last.model.drift;
      },
      30000,
    );
    assert.deepEqual([clean.baseline.commit, clean.baseline.source], [head, 'accepted']);
    const after = await specRow(api, 'payments');
    assert.ok(!after.description.includes('changed since') && !/:drifted/.test(after.contextValue), after.description);
    view.dispose();
  });
});
