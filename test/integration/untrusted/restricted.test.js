'use strict';
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { EXTENSION_ID, loom, waitFor, specRow, specPath, folderPath } = require('../helpers');

const TRUST_MESSAGE = /not trusted.*read-only.*nothing is written/i;

/** Every file and directory under `root`: relative path → size, mtime and a hash of its bytes. */
function snapshot(root) {
  const out = {};
  const walk = (dir) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      const rel = path.relative(root, p);
      const st = fs.statSync(p);
      if (d.isDirectory()) {
        out[`${rel}/`] = { mtimeMs: st.mtimeMs };
        walk(p);
      } else {
        out[rel] = { size: st.size, mtimeMs: st.mtimeMs, sha256: crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex') };
      }
    }
  };
  walk(root);
  return out;
}

suite('Restricted Mode (untrusted workspace)', () => {
  let api;
  suiteSetup(async () => {
    // Without this the suite would prove nothing: the harness must have kept workspace trust on.
    if (vscode.workspace.isTrusted !== false) {
      throw new Error(
        `the workspace is trusted (vscode.workspace.isTrusted = ${vscode.workspace.isTrusted}): the "untrusted" suite must run with workspace trust on (runTests.js workspaceTrust → LOOM_TEST_WORKSPACE_TRUST=1 → code-shim.js)`,
      );
    }
    api = await loom();
  });

  test('the workspace really is untrusted', () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
  });

  test('the extension declares limited support and activates', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.strictEqual(ext.packageJSON.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.ok(ext.isActive, 'Loom is active in Restricted Mode');
  });

  test('the tree still lists every spec', async () => {
    const names = api.registry
      .entries()
      .map((e) => e.spec.snapshot.name)
      .sort();
    assert.deepStrictEqual(names, [
      '2026-11-10+payments',
      '2026-11-15+broken',
      '2026-11-18+legacy',
      '2026-11-19+approval',
      '2026-11-20+user-login',
      '2026-11-21+review',
      '2026-11-25+search',
      '2026-11-26+export',
    ]);
    const search = await specRow(api, 'search');
    assert.ok(search, 'the search spec has a row');
    assert.match(search.description, /^brainstorming · /);
    assert.strictEqual((await specRow(api, 'user-login')).group, 'In progress');
  });

  test('the view says it is read-only', async () => {
    const message = await waitFor('the Restricted Mode message on the view', () => {
      const m = api.view.treeView.message;
      return m && /Restricted Mode/.test(m) ? m : undefined;
    });
    assert.match(message, /read-only in an untrusted workspace/);
  });

  test('Advance, Approve, Approve Again, Mark Failed, Recover, New Feature, Check Stage and Override Finding refuse, mention trust and write nothing', async () => {
    const root = folderPath();
    const before = snapshot(root);
    const calls = [
      ['loom.advance', { specDir: specPath('2026-11-25+search'), confirm: true }],
      ['loom.advance', { specDir: 'specs/2026-11-26+export' }],
      ['loom.approve', { specDir: specPath('2026-11-19+approval'), confirm: true }],
      ['loom.reapprove', { specDir: specPath('2026-11-19+approval'), confirm: true }],
      ['loom.markFailed', { specDir: specPath('2026-11-26+export'), reason: '需求变更' }],
      ['loom.recover', { specDir: specPath('2026-11-18+legacy'), to: 'brainstorming', reason: 'x' }],
      ['loom.newFeature', { name: '用户 导出 CSV' }],
      ['loom.checkStage', { specDir: specPath('2026-11-21+review') }],
      ['loom.overrideFinding', { specDir: specPath('2026-11-20+user-login'), findingId: 'F-1', reason: 'x' }],
    ];
    for (const [id, args] of calls) {
      const result = await vscode.commands.executeCommand(id, args);
      assert.strictEqual(result.status, 'refused', `${id} ${JSON.stringify(args)} → ${JSON.stringify(result)}`);
      assert.match(result.message, TRUST_MESSAGE, id);
    }
    // Give a watcher or a debounced write the chance to show itself before comparing.
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepStrictEqual(snapshot(root), before, 'no file or directory of the workspace changed');
    assert.strictEqual(api.registry.entry(specPath('2026-11-25+search')).spec.actor.getSnapshot().value, 'brainstorming');
    assert.strictEqual(api.registry.entries().length, 8, 'no new spec');
  });

  test('no git and no language model: Create Worktree and Run Tasks refuse before doing anything', async () => {
    const root = folderPath();
    const before = snapshot(root);
    for (const id of ['loom.createWorktree', 'loom.runTasks']) {
      const result = await vscode.commands.executeCommand(id, { specDir: specPath('2026-11-20+user-login') });
      assert.strictEqual(result.status, 'refused', `${id} → ${JSON.stringify(result)}`);
      assert.match(result.message, TRUST_MESSAGE, id);
    }
    assert.deepStrictEqual(snapshot(root), before);
  });

  test('reading still works: the filter narrows the tree and the view keeps saying read-only', async () => {
    try {
      const result = await vscode.commands.executeCommand('loom.filter', { text: 'search' });
      assert.notStrictEqual(result.status, 'refused', JSON.stringify(result));
      assert.match(api.view.treeView.message, /Restricted Mode.*Filtered by: "search"/);
      assert.ok(await specRow(api, 'search'));
      assert.strictEqual(await specRow(api, 'export'), undefined);
    } finally {
      await vscode.commands.executeCommand('loom.clearFilter');
    }
    assert.match(api.view.treeView.message, /Restricted Mode/);
    assert.doesNotMatch(api.view.treeView.message, /Filtered/);
  });
});
