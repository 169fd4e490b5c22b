'use strict';
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { loom, specPath, waitFor } = require('../helpers');

const loomDiagnostics = (file) => vscode.languages.getDiagnostics(vscode.Uri.file(file)).filter((d) => d.source === 'Loom');

suite('diagnostics', () => {
  suiteSetup(async () => {
    await loom();
  });

  test('bad JSON in a state file is an error on the right line', async () => {
    const [d] = await waitFor('the diagnostic', () => {
      const list = loomDiagnostics(path.join(specPath('2026-11-15+broken'), 'pipeline.state.json'));
      return list.length ? list : undefined;
    });
    assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Error);
    assert.match(d.message, /is not valid JSON/);
    assert.deepStrictEqual([d.range.start.line, d.range.start.character], [4, 0], 'line 5, column 1 of the core is (4, 0)');
    assert.strictEqual(d.code, 'json-syntax');
  });

  test("the specs only summarized were looked at by the look's worker process, not in the extension host", async () => {
    const api = await loom();
    await waitFor('the look at every spec', () => api.registry.timings.checkedAt !== undefined, 15000);
    const summarized = api.registry.rows().length - api.registry.loadedEntries().length;
    assert.ok(api.registry.lookedInWorker > 0, `the worker looked at no spec (${summarized} were only summarized)`);
    assert.ok(api.registry.lookedInWorker <= api.registry.rows().length);
    const [look] = api.registry.timings.look;
    assert.ok(Number.isInteger(look.pid) && look.pid !== process.pid, `the worker ran in a process of its own (${look.pid}, the host is ${process.pid})`);
    assert.ok(look.peakMB > 0, 'it told its peak memory');
  });

  test("an unknown behavior id points at the task's behavior_ids line", async () => {
    const list = loomDiagnostics(path.join(specPath('2026-11-20+user-login'), 'tasks', 'T3.md'));
    const d = list.find((x) => x.code === 'unknown-behavior');
    assert.ok(d, JSON.stringify(list.map((x) => x.message)));
    assert.match(d.message, /REQ-001-B99/);
    assert.strictEqual(d.range.start.line, 5);
  });

  test('a stale approval is a warning at its history entry', async () => {
    const list = loomDiagnostics(path.join(specPath('2026-11-19+approval'), 'pipeline.state.json'));
    const d = list.find((x) => x.code === 'stale-approval');
    assert.ok(d);
    assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(d.message, /re-approval is needed/);
  });

  test("the JSON Schemas are wired to loom's files for editing", async () => {
    const file = path.join(specPath('2026-11-18+legacy'), 'requirements.json');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), '{ "requirements": [ { "id": "not-a-req" } ] }\n');
    await vscode.workspace.applyEdit(edit);
    try {
      const schemaProblem = await waitFor(
        'a JSON Schema diagnostic from the JSON language service',
        () => vscode.languages.getDiagnostics(doc.uri).find((d) => !String(d.source).startsWith('Loom')),
        15000,
      );
      assert.ok(schemaProblem.message.length > 0);
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });
});
