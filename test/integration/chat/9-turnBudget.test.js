'use strict';
/**
 * loom.budget.credits on @loom /refine and /reconcile in the real VS Code, with the scripted model
 * (priced through loom.credits.prices): each turn's spend is kept in its spec's ledger; past 80 %
 * of the budget the reply warns once per conversation and spec (a new conversation is warned
 * again); a turn whose estimate would pass the budget is not sent, and says how far the spec got
 * and what the turn would cost. The same drafting turn as a stage's command (chatDrafting.ts).
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

/** The scripted model's price per million tokens, in US cents (AI credits). */
const price = (perMillion) => ({ 'loom-test-scripted': { input: perMillion, output: perMillion } });

suite('the credits budget on @loom /refine and /reconcile', () => {
  let api;
  /** The spec /refine works on (an open thread on spec.md), and the drifted one /reconcile works on. */
  const specs = {};
  const config = () => vscode.workspace.getConfiguration('loom');
  const ledger = (dir) => readJson(path.join(dir, 'pipeline.state.json')).metadata.token_usage;

  async function newSpec(name, requirements) {
    const created = await vscode.commands.executeCommand('loom.newFeature', { name });
    assert.strictEqual(created.status, 'done');
    fs.writeFileSync(path.join(created.specDir, 'spec.md'), fixture('spec.md'));
    fs.writeFileSync(path.join(created.specDir, 'requirements.json'), fixture(requirements));
    return created.specDir;
  }

  suiteSetup(async function () {
    this.timeout(60000);
    api = await loom();
    await config().update('models.vendor', 'loom-test', vscode.ConfigurationTarget.Workspace);

    specs.refine = await newSpec('tally', 'requirements.brainstorm.json');
    api.registry.settleNow(specs.refine);
    await settle(api);
    const uri = vscode.Uri.file(path.join(specs.refine, 'spec.md'));
    await vscode.window.showTextDocument(uri);
    const thread = api.review.controller.createCommentThread(uri, new vscode.Range(13, 0, 13, 0), []);
    const added = await vscode.commands.executeCommand('loom.addComment', { thread, text: 'Say that tags are compared without regard to case.' });
    assert.strictEqual(added.status, 'done');

    // A synced spec whose owned file changed in a later commit: it drifts, as in 7-reconcile.
    const root = folderPath();
    const dir = (specs.reconcile = await newSpec('abacus', 'requirements.expanded.json'));
    fs.mkdirSync(path.join(dir, 'tasks'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tasks', 'T1.md'), '---\nowns: [src/abacus.js]\nreads: []\ndepends_on: []\nrequirements: [REQ-001]\n---\n# T1: Abacus\n');
    const state = readJson(path.join(dir, 'pipeline.state.json'));
    fs.writeFileSync(path.join(dir, 'pipeline.state.json'), `${JSON.stringify({ ...state, current_stage: 'synced' }, null, 2)}\n`);
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'abacus.js'), 'module.exports = { tags: true };\n');
    if (!fs.existsSync(path.join(root, '.git'))) git(root, 'init', '-q', '-b', 'main');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'abacus synced');
    fs.writeFileSync(path.join(root, 'src', 'abacus.js'), 'module.exports = {};\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'abacus: no tags');
    api.registry.settleNow(dir);
    await settle(api);
    await waitFor('abacus to drift', () => api.drifts.drift(dir)?.status === 'drifted', 30000);
  });

  teardown(async () => {
    for (const key of ['budget.credits', 'credits.prices']) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
  });

  suiteTeardown(async () => {
    await config().update('models.vendor', undefined, vscode.ConfigurationTarget.Workspace);
  });

  for (const [command, name] of [
    ['refine', 'tally'],
    ['reconcile', 'abacus'],
  ]) {
    test(`/${command}: kept in the ledger; past 80 % warned once per conversation and spec; a turn that would pass the budget is not sent`, async function () {
      this.timeout(REPLY_MS * 5 + 30000);
      const dir = specs[command];
      const sent = async () => (await authorRequests()).filter((r) => r.command === command).length;
      const turn = async () => {
        const before = await sent();
        const result = await chat(api, `@loom /${command} ${name}`, REPLY_MS);
        assert.strictEqual(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
        assert.strictEqual(result.metadata.command, command);
        return { result, sent: (await sent()) - before };
      };
      await vscode.commands.executeCommand('workbench.action.chat.newChat');

      // A first turn at a high price, without a budget: kept in the spec's ledger, no warning.
      await config().update('credits.prices', price(100_000_000), vscode.ConfigurationTarget.Workspace);
      const first = await turn();
      assert.strictEqual(first.sent, 1);
      assert.strictEqual(first.result.metadata.nearLimitSaid, undefined);
      const used = ledger(dir).credits.total;
      assert.ok(used > 0, `the turn was priced (${used})`);
      assert.strictEqual(ledger(dir).requests.drafter.count, 1);

      // 85 % used; at 1 credit a token the next turns stay within the budget.
      await config().update('credits.prices', price(1_000_000), vscode.ConfigurationTarget.Workspace);
      await config().update('budget.credits', Math.ceil(used / 0.85), vscode.ConfigurationTarget.Workspace);
      const warned = await turn();
      assert.strictEqual(warned.sent, 1, 'a turn within the budget is sent');
      assert.strictEqual(warned.result.metadata.nearLimitSaid, true, 'the reply warns of the budget');
      const again = await turn();
      assert.strictEqual(again.sent, 1);
      assert.strictEqual(again.result.metadata.nearLimitSaid, undefined, 'said once in a conversation');
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      const newConversation = await turn();
      assert.strictEqual(newConversation.result.metadata.nearLimitSaid, true, 'a new conversation is warned again');
      assert.strictEqual(ledger(dir).requests.drafter.count, 4, 'every turn is in the ledger');

      // A budget the spec has reached: the next turn would pass it, and is not sent.
      const spent = ledger(dir).credits.total;
      await config().update('budget.credits', Math.floor(spent), vscode.ConfigurationTarget.Workspace);
      const before = await sent();
      const stopped = await chat(api, `@loom /${command} ${name}`, REPLY_MS);
      assert.strictEqual(await sent(), before, 'nothing sent to the model');
      assert.match(
        stopped.metadata.budgetStop,
        /^the credits budget would be passed: [\d.]+ of [\d.]+ credits used, and the next request is estimated at [\d.]+ credits; raise loom\.budget\.credits to continue/,
      );
      assert.strictEqual(stopped.metadata.reply, undefined);
      assert.strictEqual(stopped.metadata.pending, undefined);
      assert.strictEqual(ledger(dir).credits.total, spent, 'a turn not sent costs nothing');
    });
  }
});
