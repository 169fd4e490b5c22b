'use strict';
/**
 * Review comments without a language model (the basic suite has none): comments work as notes
 * (add, reply, edit, resolve, reopen, delete through the comment commands),
 * refine says it needs a model; loom.review.blockOnOpenThreads refuses Advance out of an
 * interactive stage while a thread on its outputs is open, and lets it through once resolved; a
 * corrupt review-comments.json is reported by name and left untouched.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { confirmInQuickPick, loom, readJson, settle, waitFor } = require('../helpers');

const FIXTURE = path.join(__dirname, '..', '..', 'fixtures', 'authoring');

suite('review comments without a model', () => {
  let api;
  let dir;
  const file = () => path.join(dir, 'review-comments.json');
  const stage = () => readJson(path.join(dir, 'pipeline.state.json')).current_stage;
  const comment = async (line, text) => {
    const uri = vscode.Uri.file(path.join(dir, 'spec.md'));
    await vscode.workspace.openTextDocument(uri);
    const thread = api.review.controller.createCommentThread(uri, new vscode.Range(line - 1, 0, line - 1, 0), []);
    return vscode.commands.executeCommand('loom.addComment', { thread, text });
  };

  suiteSetup(async () => {
    api = await loom();
    const created = await vscode.commands.executeCommand('loom.newFeature', { name: 'reviewnotes' });
    assert.strictEqual(created.status, 'done');
    dir = created.specDir;
    fs.writeFileSync(path.join(dir, 'spec.md'), fs.readFileSync(path.join(FIXTURE, 'spec.md')));
    fs.writeFileSync(path.join(dir, 'requirements.json'), fs.readFileSync(path.join(FIXTURE, 'requirements.brainstorm.json')));
    api.registry.settleNow(dir);
    await settle(api);
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('loom').update('review.blockOnOpenThreads', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('a comment is kept as a note; refine explains that it needs a model', async () => {
    assert.strictEqual((await comment(1, 'A shorter title?')).status, 'done');
    assert.strictEqual(readJson(file()).threads.length, 1);
    const refused = await vscode.commands.executeCommand('loom.refineSpec', { specDir: dir });
    assert.strictEqual(refused.status, 'refused');
    assert.match(refused.message, /Refine needs a language model/);
  });

  test('reply, edit, reopen and delete go through the comment commands into review-comments.json', async () => {
    assert.strictEqual((await comment(5, 'Temporary note.')).status, 'done');
    const id = readJson(file()).threads.find((t) => t.comments[0].body === 'Temporary note.').id;
    const thread = () => api.review.commentThread(dir, id);
    const run = (command, arg) => vscode.commands.executeCommand(command, arg);
    assert.strictEqual((await run('loom.replyComment', { thread: thread(), text: 'Agreed.' })).status, 'done');
    const reply = () => thread().comments[1];
    assert.strictEqual((await run('loom.editComment', reply())).status, 'done');
    assert.strictEqual(thread().comments[1].mode, vscode.CommentMode.Editing);
    const editing = reply();
    editing.body = 'Agreed, with a test.';
    assert.strictEqual((await run('loom.saveComment', editing)).status, 'done');
    let stored = readJson(file()).threads.find((t) => t.id === id);
    assert.deepStrictEqual(
      stored.comments.map((c) => [c.body, Boolean(c.edited_at)]),
      [
        ['Temporary note.', false],
        ['Agreed, with a test.', true],
      ],
    );
    assert.strictEqual(reply().label, 'edited');
    assert.strictEqual((await run('loom.resolveThread', thread())).status, 'done');
    assert.strictEqual(thread().state, vscode.CommentThreadState.Resolved);
    assert.strictEqual((await run('loom.reopenThread', thread())).status, 'done');
    assert.strictEqual(readJson(file()).threads.find((t) => t.id === id).status, 'open');
    assert.strictEqual((await run('loom.deleteComment', reply())).status, 'done');
    stored = readJson(file()).threads.find((t) => t.id === id);
    assert.strictEqual(stored.comments.length, 1);
    assert.strictEqual((await run('loom.deleteThread', thread())).status, 'done');
    assert.strictEqual(
      readJson(file()).threads.some((t) => t.id === id),
      false,
    );
  });

  test('blockOnOpenThreads refuses Advance while the thread is open, and lets it through once resolved', async () => {
    await vscode.workspace.getConfiguration('loom').update('review.blockOnOpenThreads', true, vscode.ConfigurationTarget.Workspace);
    const refused = await vscode.commands.executeCommand('loom.advance', { specDir: dir, confirm: true });
    assert.strictEqual(refused.status, 'refused');
    assert.match(refused.message, /cannot leave brainstorming: 1 comment thread on its outputs is open \(loom\.review\.blockOnOpenThreads\)/);
    assert.deepStrictEqual(refused.reasons, ['spec.md:1: A shorter title?']);
    assert.strictEqual(stage(), 'brainstorming');

    const [t] = readJson(file()).threads;
    assert.strictEqual((await vscode.commands.executeCommand('loom.resolveThread', api.review.commentThread(dir, t.id))).status, 'done');
    assert.strictEqual(readJson(file()).threads[0].status, 'resolved');
    const advanced = await vscode.commands.executeCommand('loom.advance', { specDir: dir, confirm: true });
    assert.strictEqual(advanced.status, 'done', JSON.stringify(advanced));
    await waitFor('detail-expansion on disk', () => stage() === 'detail-expansion');
  });

  test('a corrupt review-comments.json is named and never overwritten', async () => {
    fs.writeFileSync(file(), '{ "version": 1, "threads": [');
    const failed = await comment(3, 'More detail.');
    assert.strictEqual(failed.status, 'failed');
    assert.ok(failed.message.includes('review-comments.json is not valid JSON'), failed.message);
    assert.strictEqual(fs.readFileSync(file(), 'utf8'), '{ "version": 1, "threads": [');
  });

  test('at the review gate the feature code takes comments, exported into review-feedback.md as code-review-response reads it', async () => {
    const root = path.dirname(path.dirname(dir));
    const gate = path.join(root, 'specs', '2026-12-01+gate');
    fs.mkdirSync(gate, { recursive: true });
    fs.writeFileSync(path.join(gate, 'spec.md'), '# Gate\n');
    // The spec as loom leaves it at review-gate (a fixture: the extension never writes this file itself).
    const at = '2026-12-01T08:00:00.000Z';
    fs.writeFileSync(
      path.join(gate, 'pipeline.state.json'),
      JSON.stringify(
        { spec_dir: 'specs/2026-12-01+gate', pipeline_type: 'feature', current_stage: 'review-gate', started_at: at, updated_at: at, current_stage_started_at: at, stage_history: [] },
        null,
        2,
      ),
    );
    const code = path.join(root, 'src', 'gate.js');
    fs.mkdirSync(path.dirname(code), { recursive: true });
    fs.writeFileSync(code, 'function gate(x) {\n  return x == null;\n}\n');
    await vscode.commands.executeCommand('loom.refresh');
    await waitFor('the gate spec at review-gate', () => api.registry.entry(gate)?.spec.stage === 'review-gate', 10000);

    const uri = vscode.Uri.file(code);
    await vscode.workspace.openTextDocument(uri);
    const thread = api.review.controller.createCommentThread(uri, new vscode.Range(1, 0, 1, 0), []);
    assert.strictEqual((await vscode.commands.executeCommand('loom.addComment', { thread, text: 'SUGGESTION: use === null and === undefined.' })).status, 'done');
    const [t] = readJson(path.join(gate, 'review-comments.json')).threads;
    assert.deepStrictEqual([t.file, t.line, t.code, t.quote], ['src/gate.js', 2, true, '  return x == null;']);

    // The verdict's quick pick: its first item is "Pass, with these points to answer".
    const exported = await confirmInQuickPick(() => vscode.commands.executeCommand('loom.exportReviewFeedback', { specDir: gate }));
    assert.strictEqual(exported.status, 'done', JSON.stringify(exported));
    const feedback = fs.readFileSync(path.join(gate, 'review-feedback.md'), 'utf8');
    assert.match(feedback, /^# Review feedback: gate\n\nReviewer: .+\n\n- `src\/gate\.js:2`: SUGGESTION: use === null and === undefined\. \(.+\)\n\nverdict: PASS\n$/);
    const again = await confirmInQuickPick(() => vscode.commands.executeCommand('loom.exportReviewFeedback', { specDir: gate }));
    assert.strictEqual(again.status, 'failed');
    assert.match(again.message, /review-feedback\.md exists already; it was left untouched/);
  });
});
