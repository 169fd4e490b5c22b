'use strict';
/**
 * @loom /review and /respond in the real chat view, on a feature that has been through executing
 * and verification (test/fixtures/authoring-review): its project is a git repository and its work
 * is committed on the feature branch in a worktree, as Loom's git-worktree stage leaves it.
 * /review drafts review-request.md from the diff of that worktree, the reviewer's
 * review-feedback.md lets the spec through the review gate, and /respond drafts
 * review-response.md from it; each draft is written only on the user's word, and the spec moves
 * only through Loom: Advance. Outside git, /review says there is no diff and drafts nothing.
 */
const assert = require('assert');
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { folderPath, loom, readJson, settle, waitFor } = require('../helpers');
const { advanceConfirmed, approveConfirmed, authorRequests, chat } = require('./chat');

const FIXTURE = process.env.LOOM_TEST_AUTHORING_FIXTURE;
const REVIEW_FIXTURE = path.join(FIXTURE, '..', 'authoring-review');
const SPEC = '2026-11-27+priority';
const BRANCH = 'feature/2026-11-27-priority';
/** How long each of this file's replies may take. */
const REPLY_MS = 90000;
const FEATURE_FILES = ['src/priority.js', 'src/sort.js', 'src/todos.js', 'tests/priority.test.js', 'tests/sort.test.js', 'tests/todos.test.js'];
const fixture = (name) => fs.readFileSync(path.join(FIXTURE, name), 'utf8');

/** The last exchange as the chat view shows it (its Copy All action): the user's message and the answer. */
async function lastExchange() {
  await vscode.commands.executeCommand('workbench.action.chat.copyAll');
  const all = await vscode.env.clipboard.readText();
  return all.slice(all.lastIndexOf('User: '));
}

function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The project as the git-worktree stage leaves it: a repository whose main branch holds the
 * project and its specs, and the feature branch checked out in `<repo>-worktrees/<date>-<name>`
 * (Loom's default place) with the feature's work committed on it.
 */
function makeRepository(root) {
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Loom Test');
  git(root, 'config', 'user.email', 'loom-test@example.com');
  git(root, 'config', 'commit.gpgsign', 'false');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'todo-lite 1.4.0');
  const worktree = path.join(`${root}-worktrees`, '2026-11-27-priority');
  git(root, 'worktree', 'add', '-q', '-b', BRANCH, worktree);
  fs.cpSync(path.join(REVIEW_FIXTURE, 'feature'), worktree, { recursive: true });
  git(worktree, 'add', '-A');
  git(worktree, 'commit', '-q', '-m', 'T1, T2: todo priority');
  return worktree;
}

suite('@loom /review and /respond', () => {
  let api;
  let root;
  let dir;
  let otherDir;
  const selectedInView = () => api.registry.entry(api.view.selectedSpecDir || '')?.dir;
  const stage = () => readJson(path.join(dir, 'pipeline.state.json')).current_stage;

  suiteSetup(async () => {
    api = await loom();
    await vscode.workspace.getConfiguration('loom').update('confirmation', 'quickPick', vscode.ConfigurationTarget.Workspace);
    // A conversation of its own, apart from the other suite's.
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    root = folderPath();
    dir = path.join(root, 'specs', SPEC);
    fs.cpSync(path.join(REVIEW_FIXTURE, 'project'), root, { recursive: true });
    fs.cpSync(path.join(REVIEW_FIXTURE, SPEC), dir, { recursive: true });
    await vscode.commands.executeCommand('loom.refresh');
    await waitFor(`${SPEC} in the registry`, () => api.registry.entry(dir)?.spec.stage === 'code-review-request', 30000);
    // The user works on more than one feature: another one, just started, is selected in the Loom view.
    const other = await vscode.commands.executeCommand('loom.newFeature', { name: 'labels' });
    assert.strictEqual(other.status, 'done');
    otherDir = other.specDir;
    await settle(api);
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('loom').update('confirmation', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('/review outside a git repository says there is no diff; the model drafts nothing and nothing is written', async () => {
    const result = await chat(api, '@loom /review priority', REPLY_MS);
    assert.strictEqual(result.metadata.command, 'review');
    assert.strictEqual(result.metadata.dir, dir);
    assert.strictEqual(result.metadata.pending, undefined);
    assert.strictEqual(result.errorDetails, undefined);
    assert.match(result.metadata.reply, /The prompt holds no diff of the feature/);
    assert.deepStrictEqual(
      (await authorRequests()).map((r) => r.command).filter((c) => c === 'review'),
      ['review'],
    );
    const shown = await lastExchange();
    const notice = `> No diff for the prompt: git rev-parse failed in ${root}: fatal: not a git repository (or any of the parent directories): .git`;
    assert.ok(shown.startsWith(`User: @loom /review priority\n\nLoom: ${notice}\n`), shown);
    assert.strictEqual(api.drafts.get(dir, 'review'), undefined);
    assert.ok(!fs.existsSync(path.join(dir, 'review-request.md')));
    assert.ok(!fs.existsSync(path.join(dir, 'handoffs', 'code-review-request.json')));
  });

  test('/review drafts review-request.md from the diff of the feature worktree, previews it and writes it only on "write"', async () => {
    makeRepository(root);
    const result = await chat(api, '@loom /review priority', REPLY_MS);
    const requests = (await authorRequests()).filter((r) => r.command === 'review');
    assert.strictEqual(requests.length, 2, 'one more request to the model');
    // The scripted model names the files of the diff its prompt held, and quotes git's summary line.
    assert.match(
      result.metadata.reply,
      new RegExp(`^I reviewed the diff of ${FEATURE_FILES.join(', ').replace(/[./]/g, '\\$&')} \\(6 files changed, \\d+ insertions\\(\\+\\), \\d+ deletions?\\(-\\)\\)\\.`),
    );
    assert.ok(result.metadata.pending, 'the draft is pending');
    const pending = api.drafts.get(dir, 'review');
    assert.deepStrictEqual(
      pending.drafts.map((d) => d.path),
      ['review-request.md'],
    );
    assert.deepStrictEqual(pending.problems, []);
    assert.strictEqual(pending.drafts[0].content, fixture('review-request.md'));
    const lines = fixture('review-request.md').split('\n').length - 1;
    const shown = await lastExchange();
    assert.ok(shown.startsWith('User: @loom /review priority\n\nLoom: I reviewed the diff of '), shown);
    for (const line of [
      '### Files to write',
      `**review-request.md** — new, ${lines} lines`,
      'Show diff: review-request.md',
      "These files pass loom's checks for leaving code-review-request. Reply **write** to write them, or say what to change.",
    ]) {
      assert.ok(shown.includes(line), `the preview shows "${line}":\n${shown}`);
    }
    assert.ok(!fs.existsSync(path.join(dir, 'review-request.md')), 'nothing is written before the user accepts');

    // "write" accepts what was just previewed, though another feature is selected in the Loom view.
    await waitFor('the other feature selected in the Loom view', () => selectedInView() === otherDir, 30000);
    const written = await chat(api, '@loom /review write', REPLY_MS);
    assert.deepStrictEqual(written.metadata.wrote, ['review-request.md'], JSON.stringify(written));
    assert.ok((await lastExchange()).includes(`Wrote \`review-request.md\`, \`handoffs/code-review-request.json\` in \`specs/${SPEC}\`.`));
    assert.strictEqual(fs.readFileSync(path.join(dir, 'review-request.md'), 'utf8'), fixture('review-request.md'));
    const handoff = readJson(path.join(dir, 'handoffs', 'code-review-request.json'));
    assert.deepStrictEqual([handoff.stage, handoff.status, handoff.artifacts], ['code-review-request', 'done', ['review-request.md']]);
    assert.strictEqual(api.drafts.get(dir, 'review'), undefined);
    assert.strictEqual(stage(), 'code-review-request', '@loom never advances the pipeline itself');
  });

  test('Loom: Advance moves on to the review gate, which waits for review-feedback.md, then to code-review-response', async () => {
    await settle(api);
    const toGate = await advanceConfirmed(dir);
    assert.deepStrictEqual([toGate.status, toGate.from, toGate.to], ['done', 'code-review-request', 'review-gate'], JSON.stringify(toGate));
    await settle(api);
    const waiting = await vscode.commands.executeCommand('loom.advance', { specDir: dir });
    assert.strictEqual(waiting.status, 'refused', JSON.stringify(waiting));
    assert.ok(waiting.reasons.includes('review-feedback.md does not exist'), waiting.reasons.join('; '));
    assert.strictEqual(stage(), 'review-gate');

    // The reviewer answers.
    fs.copyFileSync(path.join(REVIEW_FIXTURE, 'review-feedback.md'), path.join(dir, 'review-feedback.md'));
    await waitFor(
      'the review gate to be ready',
      () =>
        api.registry
          .entry(dir)
          ?.spec.next()
          .some((c) => c.to === 'code-review-response' && c.ready),
      30000,
    );
    await settle(api);
    // review-gate is a human-approval gate: Approve passes it, Advance never does.
    const toResponse = await approveConfirmed(dir);
    assert.deepStrictEqual([toResponse.status, toResponse.from, toResponse.to], ['done', 'review-gate', 'code-review-response'], JSON.stringify(toResponse));
    assert.strictEqual(readJson(path.join(dir, 'pipeline.state.json')).stage_history.at(-1).approval, 'user_confirmed');
  });

  test('/respond drafts review-response.md from review-feedback.md and writes it on "write"; Advance reaches synced', async () => {
    const result = await chat(api, '@loom /respond priority', REPLY_MS);
    assert.strictEqual(result.metadata.command, 'respond');
    assert.strictEqual(result.metadata.dir, dir);
    // The scripted model quotes every point of the feedback its prompt held.
    const points = fs
      .readFileSync(path.join(REVIEW_FIXTURE, 'review-feedback.md'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('- '));
    assert.strictEqual(points.length, 2);
    assert.ok(result.metadata.reply.startsWith(`Answering the 2 points of review-feedback.md:\n${points.join('\n')}\n`), result.metadata.reply);
    const pending = api.drafts.get(dir, 'respond');
    assert.deepStrictEqual([pending.drafts.map((d) => d.path), pending.problems], [['review-response.md'], []]);
    assert.strictEqual(pending.drafts[0].content, fixture('review-response.md'));
    const lines = fixture('review-response.md').split('\n').length - 1;
    const shown = await lastExchange();
    assert.ok(shown.startsWith('User: @loom /respond priority\n\nLoom: Answering the 2 points'), shown);
    assert.ok(shown.includes(`**review-response.md** — new, ${lines} lines`), shown);
    assert.ok(!fs.existsSync(path.join(dir, 'review-response.md')), 'nothing is written before the user accepts');

    assert.strictEqual(selectedInView(), otherDir);
    const written = await chat(api, '@loom /respond write', REPLY_MS);
    assert.deepStrictEqual(written.metadata.wrote, ['review-response.md'], JSON.stringify(written));
    assert.ok((await lastExchange()).includes(`Wrote \`review-response.md\`, \`handoffs/code-review-response.json\` in \`specs/${SPEC}\`.`));
    assert.strictEqual(fs.readFileSync(path.join(dir, 'review-response.md'), 'utf8'), fixture('review-response.md'));
    const handoff = readJson(path.join(dir, 'handoffs', 'code-review-response.json'));
    assert.deepStrictEqual([handoff.stage, handoff.status, handoff.artifacts], ['code-review-response', 'done', ['review-response.md']]);
    assert.strictEqual(stage(), 'code-review-response');

    await settle(api);
    const toSynced = await advanceConfirmed(dir);
    assert.deepStrictEqual([toSynced.status, toSynced.from, toSynced.to], ['done', 'code-review-response', 'synced'], JSON.stringify(toSynced));
    const history = readJson(path.join(dir, 'pipeline.state.json')).stage_history.map((h) => `${h.stage}:${h.status}`);
    assert.deepStrictEqual(history.slice(-3), ['code-review-request:passed', 'review-gate:passed', 'code-review-response:passed']);
  });
});
