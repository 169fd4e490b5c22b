'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, rows, specRow, specPath, waitFor, writeUntil, readJson } = require('../helpers');

suite('multi-root', () => {
  let api;
  suiteSetup(async () => {
    api = await loom();
  });

  test('reads the specs of every workspace folder, each with its own workflow', async () => {
    assert.deepStrictEqual(
      (vscode.workspace.workspaceFolders || []).map((f) => f.name),
      ['alpha', 'beta'],
    );
    const alpha = await specRow(api, 'alpha-feature');
    const beta = await specRow(api, 'beta-feature');
    assert.match(alpha.description, /^planning · 2 of 13 stages done · .* · alpha$/);
    assert.match(beta.description, /^executing · 3 of 6 stages done · .* · beta$/, "beta's workflow.yaml has six stages");
    assert.deepStrictEqual(
      (await rows(api, beta.node)).map((s) => s.label),
      ['Tasks', 'brainstorming', 'planning', 'approved', 'executing', 'verification', 'synced'],
      'at executing, its Tasks come first',
    );
  });

  test('a spec is found by its folder-relative directory in either folder', async () => {
    const result = await vscode.commands.executeCommand('loom.advance', { specDir: 'specs/2026-11-02+beta-feature' });
    assert.strictEqual(result.status, 'refused');
    assert.ok(result.reasons.includes('test-report.md does not exist'), result.reasons.join('; '));
  });

  test("an edit in one folder reloads that folder's spec only", async () => {
    const dir = specPath('2026-11-01+alpha-feature', 'alpha');
    const changed = [];
    const listener = api.registry.onDidChange((e) => changed.push(...e.changed));
    try {
      // This is the suite's first edit: the watcher may still be starting, so the edit is repeated until seen.
      await writeUntil('the alpha spec to reload', path.join(dir, 'plan.md'), '# Plan, edited\n', () => changed.length > 0);
      await api.registry.whenIdle();
      assert.deepStrictEqual([...new Set(changed)], [dir]);
    } finally {
      listener.dispose();
    }
  });

  test('diagnostics land in the right folder', async () => {
    const file = path.join(specPath('2026-11-02+beta-feature', 'beta'), 'requirements.json');
    const good = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, '{ "requirements": [ { "id": "REQ-1" } ] }\n');
    const list = await waitFor('a diagnostic in beta', () => {
      const found = vscode.languages.getDiagnostics(vscode.Uri.file(file)).filter((d) => d.source === 'Loom');
      return found.length ? found : undefined;
    });
    assert.ok(
      list.some((d) => d.code === 'schema'),
      list.map((d) => d.message).join('\n'),
    );
    // Left as it was found: an unreadable requirements.json puts beta under Needs attention, with a note among its rows.
    fs.writeFileSync(file, good);
    await waitFor('the diagnostic to go', () => !vscode.languages.getDiagnostics(vscode.Uri.file(file)).some((d) => d.source === 'Loom' && d.severity === vscode.DiagnosticSeverity.Error));
  });

  test("New Feature creates the spec in the folder it is given, with that folder's pipeline", async function () {
    // New Feature waits for the view's first draw and spec.md's editor: 15 s alone on two busy cores.
    this.timeout(60000);
    const result = await vscode.commands.executeCommand('loom.newFeature', { name: 'Gamma', folder: 'beta' });
    assert.strictEqual(result.status, 'done');
    assert.strictEqual(path.dirname(result.specDir), path.join(vscode.workspace.workspaceFolders[1].uri.fsPath, 'specs'));
    assert.strictEqual(readJson(path.join(result.specDir, 'pipeline.state.json')).current_stage, 'brainstorming');
    const row = await specRow(api, 'gamma');
    assert.match(row.description, /^brainstorming · 0 of 6 stages done · just now · beta$/);
  });

  test('New Feature without a folder takes the folder of the spec in focus, not a row left selected in a hidden view', async function () {
    this.timeout(60000);
    const beta = specPath('2026-11-02+beta-feature', 'beta');
    await api.view.reveal(beta);
    await waitFor('the tree selection', () => api.view.selectedSpecDir === beta);
    const inBeta = await vscode.commands.executeCommand('loom.newFeature', { name: 'Delta' });
    assert.strictEqual(path.dirname(inBeta.specDir), path.join(vscode.workspace.workspaceFolders[1].uri.fsPath, 'specs'), 'the row selected in sight is in beta');

    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await waitFor('the view to be hidden', () => !api.view.treeView.visible);
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(specPath('2026-11-01+alpha-feature', 'alpha'), 'spec.md')));
    try {
      const inAlpha = await vscode.commands.executeCommand('loom.newFeature', { name: 'Epsilon' });
      assert.strictEqual(inAlpha.status, 'done');
      assert.strictEqual(
        path.dirname(inAlpha.specDir),
        path.join(vscode.workspace.workspaceFolders[0].uri.fsPath, 'specs'),
        "the active editor's spec is in alpha; Delta, still selected in the hidden view, is in beta",
      );
    } finally {
      await vscode.commands.executeCommand('loom.specs.focus');
    }
  });

  test('Mark Failed and Recover work in the second folder', async () => {
    const dir = specPath('2026-11-02+beta-feature', 'beta');
    assert.strictEqual((await vscode.commands.executeCommand('loom.markFailed', { specDir: dir, reason: 'stuck' })).to, 'failed');
    const recovered = await vscode.commands.executeCommand('loom.recover', { specDir: dir, to: 'brainstorming', reason: 'start over' });
    assert.strictEqual(recovered.status, 'done', JSON.stringify(recovered));
    assert.strictEqual(readJson(path.join(dir, 'pipeline.state.json')).current_stage, 'brainstorming');
  });

  test("an edited workflow.yaml rebuilds that folder's pipeline: a new step is a new stage", async () => {
    const file = path.join(vscode.workspace.workspaceFolders[1].uri.fsPath, '.loom', 'workflow.yaml');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(
      file,
      text.replace(
        '        next: synced\n        outputs: [verify-report.md]',
        '        next: review-gate\n        outputs: [verify-report.md]\n      - id: review-gate\n        gate: human-approval\n        next: synced',
      ),
    );
    await waitFor("beta's pipeline to have seven stages", async () => /^brainstorming · 0 of 7 stages done /.test((await specRow(api, 'beta-feature')).description));
    assert.match((await specRow(api, 'alpha-feature')).description, /^planning · 2 of 13 stages done /, 'alpha keeps its own pipeline');
    const stages = (await rows(api, (await specRow(api, 'beta-feature')).node)).map((s) => s.label);
    assert.deepStrictEqual(stages, ['brainstorming', 'planning', 'approved', 'executing', 'verification', 'review-gate', 'synced']);

    fs.writeFileSync(file, 'pipelines: [unclosed\n');
    const uri = vscode.Uri.file(file);
    const d = await waitFor('a diagnostic on workflow.yaml', () => vscode.languages.getDiagnostics(uri).find((x) => x.source === 'Loom'));
    assert.strictEqual(d.code, 'yaml-syntax');
    fs.writeFileSync(file, text);
    await waitFor('the diagnostic to go', () => !vscode.languages.getDiagnostics(uri).some((x) => x.source === 'Loom'));
  });
});
