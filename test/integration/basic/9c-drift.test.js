'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
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
});
