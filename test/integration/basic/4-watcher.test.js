'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, rows, stageRows, specRow, specPath, waitFor, folderPath, settle } = require('../helpers');

suite('file watcher', () => {
  let api;
  suiteSetup(async () => {
    api = await loom();
  });

  test('a task state edited on disk updates that task in the tree within a second or so', async () => {
    const file = path.join(specPath('2026-11-20+user-login'), 'task-states', 'T2.state.json');
    // Let the watcher finish reporting the writes of earlier tests first.
    await settle(api);
    const changed = [];
    const listener = api.registry.onDidChange((e) => changed.push(...e.changed));
    try {
      const state = JSON.parse(fs.readFileSync(file, 'utf8'));
      state.status = 'done';
      state.retry_count = 2;
      const started = Date.now();
      fs.writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
      await waitFor(
        'T2 to show as done',
        async () => {
          const t2 = (await stageRows(api, 'user-login', 'executing')).find((r) => r.label === 'T2');
          return t2.icon === 'pass' && /done · 2 retries/.test(t2.description);
        },
        5000,
      );
      console.log(`      (tree updated ${Date.now() - started} ms after the write)`);
      assert.deepStrictEqual([...new Set(changed)], [specPath('2026-11-20+user-login')], 'only the spec that changed is reloaded');
    } finally {
      listener.dispose();
    }
  });

  test("a state file written by loom's CLI moves the spec to another stage", async () => {
    const file = path.join(specPath('2026-11-10+payments'), 'pipeline.state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8'));
    state.current_stage = 'code-review-response';
    const tmp = path.join(path.dirname(file), '.pipeline.state.json.1.tmp');
    fs.writeFileSync(tmp, JSON.stringify(state, null, 2));
    fs.renameSync(tmp, file);
    await waitFor('payments to move back to In progress', async () => {
      const row = await specRow(api, 'payments');
      return row && row.group === 'In progress' && /^code-review-response · 11 of 13 stages done/.test(row.description);
    });
    // code-review-response is a stage with states of its own (Answer Review's fixing and testing), waiting idle.
    assert.deepStrictEqual(api.registry.entry(specPath('2026-11-10+payments')).spec.actor.getSnapshot().value, { 'code-review-response': 'idle' });
  });

  test('a spec directory created or deleted by hand appears in and disappears from the tree', async () => {
    const dir = path.join(folderPath(), 'specs', '2026-11-29+by-hand');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'spec.md'), '# By hand\n');
    await waitFor('the new spec to appear', () => specRow(api, 'by-hand'));
    const row = await specRow(api, 'by-hand');
    const entry = api.registry.entry(dir);
    assert.strictEqual(entry.spec.stageSource, 'inferred', 'without a state file the stage is inferred from the artifacts');
    assert.ok(row.description.startsWith(`${entry.spec.stage} · ${entry.overview.progress.done} of 13 stages done`), row.description);
    assert.match(row.tooltip, /stage inferred from the artifacts/);
    fs.rmSync(dir, { recursive: true });
    await waitFor('the spec to disappear', async () => !(await specRow(api, 'by-hand')));
  });

  test('a corrupt file gives a diagnostic and no crash; fixing it clears the diagnostic', async () => {
    const file = path.join(specPath('2026-11-20+user-login'), 'requirements.json');
    const good = fs.readFileSync(file, 'utf8');
    const uri = vscode.Uri.file(file);
    fs.writeFileSync(file, '{\n  "requirements": [\n    { "id": "REQ-001", }\n  ]\n}\n');
    const diag = await waitFor('a diagnostic on requirements.json', () => vscode.languages.getDiagnostics(uri).find((d) => d.source === 'Loom'));
    assert.strictEqual(diag.severity, vscode.DiagnosticSeverity.Error);
    assert.strictEqual(diag.range.start.line, 2);
    assert.ok(await specRow(api, 'user-login'), 'the tree still shows the spec');
    // Seen in the tree too: under Needs attention, its first row a note that opens the file at the error.
    await waitFor('user-login under Needs attention', async () => (await specRow(api, 'user-login'))?.group === 'Needs attention');
    const row = await specRow(api, 'user-login');
    assert.match(row.description, /^executing · 6 of 13 stages done/, 'its stage is still known');
    const [note] = await rows(api, row.node);
    assert.strictEqual(note.label, 'requirements.json line 3: fix or restore it');
    assert.strictEqual(note.contextValue, 'loomNote:openAtLine');
    fs.writeFileSync(file, good);
    await waitFor('the diagnostic to go', () => !vscode.languages.getDiagnostics(uri).some((d) => d.source === 'Loom'));
    await waitFor('user-login back under In progress', async () => (await specRow(api, 'user-login'))?.group === 'In progress');
  });
});
