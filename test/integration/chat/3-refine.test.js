'use strict';
/**
 * Review comments and @loom /refine in the real VS Code: a comment added on spec.md through the
 * comment commands is stored in review-comments.json and counted in the Loom view; /refine hands
 * it to the scripted model (picked in the chat view), whose spec.md is checked, previewed (Show
 * diff) and written only on "write"; the thread then has a reply saying what changed and is
 * resolved, the count goes, and the pipeline has not moved.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { readJson, loom, settle, specRow, waitFor } = require('../helpers');
const { authorRequests, chat } = require('./chat');

const FIXTURE = process.env.LOOM_TEST_AUTHORING_FIXTURE;
const fixture = (name) => fs.readFileSync(path.join(FIXTURE, name), 'utf8');
const REPLY_MS = 90000;

suite('review comments and @loom /refine', () => {
  let api;
  let dir;
  const comments = () => readJson(path.join(dir, 'review-comments.json'));
  const stage = () => readJson(path.join(dir, 'pipeline.state.json')).current_stage;

  suiteSetup(async () => {
    api = await loom();
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const created = await vscode.commands.executeCommand('loom.newFeature', { name: 'notes' });
    assert.strictEqual(created.status, 'done');
    dir = created.specDir;
    fs.writeFileSync(path.join(dir, 'spec.md'), fixture('spec.md'));
    fs.writeFileSync(path.join(dir, 'requirements.json'), fixture('requirements.brainstorm.json'));
    api.registry.settleNow(dir);
    await settle(api);
  });

  test('a comment on spec.md is stored with its quoted line and author, and the Loom view counts it', async () => {
    const uri = vscode.Uri.file(path.join(dir, 'spec.md'));
    await vscode.window.showTextDocument(uri);
    // What the editor hands the command when a person types in the gutter's new thread on line 14.
    const thread = api.review.controller.createCommentThread(uri, new vscode.Range(13, 0, 13, 0), []);
    const outcome = await vscode.commands.executeCommand('loom.addComment', { thread, text: 'Say that tags are compared without regard to case.' });
    assert.strictEqual(outcome.status, 'done');
    const stored = comments();
    assert.strictEqual(stored.threads.length, 1);
    const [t] = stored.threads;
    assert.deepStrictEqual([t.file, t.line, t.end_line, t.status], ['spec.md', 14, 14, 'open']);
    assert.strictEqual(t.quote, fixture('spec.md').split('\n')[13]);
    assert.strictEqual(t.comments[0].body, 'Say that tags are compared without regard to case.');
    assert.ok(t.comments[0].author.length > 0);
    assert.strictEqual(api.review.openCount(dir), 1);
    await waitFor('the count on the spec row', async () => /1 open comment thread/.test((await specRow(api, 'notes'))?.description ?? ''), 10000);
  });

  test('/refine proposes spec.md with the thread answered, previews it with Show diff, and writes nothing yet', async () => {
    const before = (await authorRequests()).filter((r) => r.command === 'refine').length;
    const drafted = () => readJson(path.join(dir, 'pipeline.state.json')).metadata?.token_usage?.requests?.drafter?.count ?? 0;
    const draftedBefore = drafted();
    const result = await chat(api, `@loom /refine notes`, REPLY_MS);
    assert.strictEqual(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
    // The turn's request is kept in the spec's ledger as a stage turn's is: it counts against loom.budget.credits.
    assert.strictEqual(drafted(), draftedBefore + 1, "the /refine request is in the spec's ledger");
    assert.strictEqual(result.metadata.command, 'refine');
    assert.ok(result.metadata.pending, 'a proposal is pending');
    assert.strictEqual((await authorRequests()).filter((r) => r.command === 'refine').length, before + 1, 'one request to the model');
    const pending = api.drafts.get(dir, 'refine');
    assert.deepStrictEqual(
      pending.drafts.map((d) => d.path),
      ['spec.md'],
    );
    assert.deepStrictEqual(pending.problems, [], "the draft passes brainstorming's checks");
    assert.ok(pending.drafts[0].content.includes('Tags are compared without regard to case.'));
    assert.strictEqual(fs.readFileSync(path.join(dir, 'spec.md'), 'utf8'), fixture('spec.md'), 'nothing is written before the user accepts');

    const diff = await vscode.commands.executeCommand('loom.showDraftDiff', { id: pending.id, path: 'spec.md' });
    assert.strictEqual(diff.status, 'done');
    await waitFor('the diff editor', () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff, 10000);
    assert.strictEqual(comments().threads[0].status, 'open');
  });

  test('a reply that is not "write" asks the model again, with the conversation so far, and replaces the proposal', async () => {
    const first = api.drafts.get(dir, 'refine').id;
    const before = (await authorRequests()).filter((r) => r.command === 'refine');
    const result = await chat(api, '@loom /refine notes keep it to one sentence', REPLY_MS);
    assert.strictEqual(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
    assert.ok(result.metadata.pending && result.metadata.pending !== first, 'a new proposal');
    const after = (await authorRequests()).filter((r) => r.command === 'refine');
    assert.strictEqual(after.length, before.length + 1);
    assert.ok(after[after.length - 1].messages > 1, 'the earlier turn went with the request');
    assert.strictEqual(fs.readFileSync(path.join(dir, 'spec.md'), 'utf8'), fixture('spec.md'), 'still nothing written');
  });

  test('"write" writes spec.md; the thread gets a reply saying what changed and is resolved; the count goes; the stage stays', async () => {
    const result = await chat(api, '@loom /refine write', REPLY_MS);
    assert.strictEqual(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
    assert.deepStrictEqual(result.metadata.wrote, ['spec.md']);
    const spec = fs.readFileSync(path.join(dir, 'spec.md'), 'utf8');
    assert.ok(spec.includes('Tags are compared without regard to case.'));
    assert.ok(!fs.existsSync(path.join(dir, 'handoffs', 'brainstorming.json')), '/refine writes no stage handoff');
    await waitFor('the thread resolved', () => comments().threads[0].status === 'resolved', 10000);
    const [t] = comments().threads;
    const reply = t.comments[t.comments.length - 1];
    assert.match(reply.author, /^Loom \(/);
    assert.match(reply.body, /^spec\.md changed, \+1 −0 lines\. added "tags are compared without regard to case\." under line 14$/);
    assert.strictEqual(api.review.openCount(dir), 0);
    await waitFor('the count gone from the spec row', async () => !/open comment thread/.test((await specRow(api, 'notes'))?.description ?? ''), 10000);
    assert.strictEqual(stage(), 'brainstorming', 'nothing advances by itself');
  });

  test("Accept on one file writes that file and answers its threads, through the Accept button's command", async () => {
    const uri = vscode.Uri.file(path.join(dir, 'spec.md'));
    await vscode.window.showTextDocument(uri);
    const thread = api.review.controller.createCommentThread(uri, new vscode.Range(5, 0, 5, 0), []);
    assert.strictEqual((await vscode.commands.executeCommand('loom.addComment', { thread, text: 'Say that an empty tag is refused.' })).status, 'done');
    const id = comments().threads.find((t) => t.status === 'open').id;
    const result = await chat(api, '@loom /refine notes', REPLY_MS);
    assert.strictEqual(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
    const pending = api.drafts.get(dir, 'refine');
    assert.deepStrictEqual(
      pending.drafts.map((d) => d.path),
      ['spec.md'],
    );
    await vscode.commands.executeCommand('loom.acceptRefinedFile', { id: pending.id, path: 'spec.md' });
    assert.ok(fs.readFileSync(path.join(dir, 'spec.md'), 'utf8').includes('An empty tag is refused.'));
    await waitFor('the thread resolved', () => comments().threads.find((t) => t.id === id).status === 'resolved', 10000);
    assert.strictEqual(api.drafts.get(dir, 'refine'), undefined, 'nothing of the proposal is left pending');
    assert.strictEqual(stage(), 'brainstorming');
  });
});
