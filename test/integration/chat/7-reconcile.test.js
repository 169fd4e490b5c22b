'use strict';
/**
 * @loom /reconcile in the real VS Code: a synced spec whose owned file changed in a later commit
 * drifts; /reconcile hands its files and the diff since the baseline to the scripted model, whose
 * requirements.json (a behavior superseded, every id kept) passes the checks and is previewed;
 * "write" writes it and moves the baseline (reconciled), and the spec is true to its code again.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const vscode = require('vscode');
const { folderPath, loom, readJson, settle, waitFor } = require('../helpers');
const { authorRequests, chat } = require('./chat');

const FIXTURE = process.env.LOOM_TEST_AUTHORING_FIXTURE;
const fixture = (name) => fs.readFileSync(path.join(FIXTURE, name), 'utf8');
const REPLY_MS = 90000;
const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.name=Loom Test', '-c', 'user.email=loom-test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();

suite('@loom /reconcile', () => {
  let api;
  let root;
  let dir;

  suiteSetup(async () => {
    api = await loom();
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    root = folderPath();
    const created = await vscode.commands.executeCommand('loom.newFeature', { name: 'ledger' });
    assert.strictEqual(created.status, 'done');
    dir = created.specDir;
    fs.writeFileSync(path.join(dir, 'spec.md'), fixture('spec.md'));
    fs.writeFileSync(path.join(dir, 'requirements.json'), fixture('requirements.expanded.json'));
    fs.mkdirSync(path.join(dir, 'tasks'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tasks', 'T1.md'), '---\nowns: [src/ledger.js]\nreads: []\ndepends_on: []\nrequirements: [REQ-001]\n---\n# T1: Ledger\n');
    const state = readJson(path.join(dir, 'pipeline.state.json'));
    fs.writeFileSync(path.join(dir, 'pipeline.state.json'), `${JSON.stringify({ ...state, current_stage: 'synced' }, null, 2)}\n`);
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'ledger.js'), 'module.exports = { tags: true };\n');
    if (!fs.existsSync(path.join(root, '.git'))) git(root, 'init', '-q', '-b', 'main');
    // The commit that records the move to synced is the spec's (inferred) baseline.
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'ledger synced');
    fs.writeFileSync(path.join(root, 'src', 'ledger.js'), 'module.exports = {};\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'ledger: no tags');
    api.registry.settleNow(dir);
    await settle(api);
    await waitFor('ledger to drift', () => api.drifts.drift(dir)?.status === 'drifted', 30000);
  });

  test('/reconcile sends the diff since the baseline, previews requirements.json with every id kept, and "write" moves the baseline', async function () {
    this.timeout(REPLY_MS * 2 + 30000);
    const before = (await authorRequests()).filter((r) => r.command === 'reconcile').length;
    const result = await chat(api, '@loom /reconcile ledger', REPLY_MS);
    assert.strictEqual(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
    assert.strictEqual(result.metadata.command, 'reconcile');
    assert.ok(result.metadata.pending, 'a proposal is pending');
    assert.strictEqual((await authorRequests()).filter((r) => r.command === 'reconcile').length, before + 1, 'one request to the model');
    const pending = api.drafts.get(dir, 'reconcile');
    assert.deepStrictEqual(
      pending.drafts.map((d) => d.path),
      ['requirements.json'],
    );
    assert.deepStrictEqual(pending.problems, []);
    assert.match(pending.summary, /The diff changed src\/ledger\.js/);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'requirements.json'), 'utf8'), fixture('requirements.expanded.json'), 'nothing is written before "write"');

    const head = git(root, 'rev-parse', 'HEAD');
    const wrote = await chat(api, '@loom /reconcile write', REPLY_MS);
    assert.strictEqual(wrote.errorDetails, undefined, JSON.stringify(wrote.errorDetails));
    assert.deepStrictEqual(wrote.metadata.wrote, ['requirements.json']);
    const ids = (file) =>
      JSON.parse(file)
        .requirements.flatMap((r) => [r.id, ...r.behaviors.map((b) => b.id)])
        .sort();
    assert.deepStrictEqual(ids(fs.readFileSync(path.join(dir, 'requirements.json'), 'utf8')), ids(fixture('requirements.expanded.json')), 'every id kept');
    const state = readJson(path.join(dir, 'pipeline.state.json'));
    assert.strictEqual(state.current_stage, 'synced');
    assert.deepStrictEqual([state.metadata.drift_baseline.commit, state.metadata.drift_baseline.source], [head, 'reconciled']);
    assert.match(state.metadata.drift_baseline.by, /@loom \/reconcile/);
    await waitFor('ledger to be true to its code', () => api.drifts.drift(dir)?.status === 'clean', 30000);
  });
});
