'use strict';
/**
 * Approve Again: the approval spec's plan.md changed after analyze-artifacts was approved, which
 * blocks advancing (earlier files of this suite rely on that). From the tree's note, with the
 * quick-pick confirmation, the gate is approved again: its history entry gets fresh fingerprints
 * in place (loom 3 checks every entry, so only that lets loom advance too), the old ones are kept
 * in superseded_approvals, the spec stays at its stage, and nothing is stale any more.
 */
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { confirmInQuickPick, loom, rows, specRow, specPath, waitFor, readJson } = require('../helpers');

const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

suite('Approve Again', () => {
  let api;
  const dir = () => specPath('2026-11-19+approval');

  suiteSetup(async () => {
    api = await loom();
    await vscode.workspace.getConfiguration('loom').update('confirmation', 'quickPick', vscode.ConfigurationTarget.Workspace);
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('loom').update('confirmation', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('the tree offers it on the spec, on its note and on the stage whose approval is stale', async () => {
    const spec = await specRow(api, 'approval');
    assert.match(spec.contextValue, /^loomSpec:running:stale:staleApproval/);
    const children = await rows(api, spec.node);
    assert.strictEqual(children[0].contextValue, 'loomNote:staleApproval');
    assert.match(children.find((c) => c.label === 'analyze-artifacts').contextValue, /:staleApproval$/);
    assert.doesNotMatch(children.find((c) => c.label === 'planning').contextValue, /staleApproval/);
    const menus = require(path.join(vscode.extensions.getExtension('loom-vscode.loom-vscode').extensionPath, 'package.json')).contributes.menus['view/item/context'].filter(
      (m) => m.command === 'loom.reapprove',
    );
    const matches = (value) => menus.some((m) => new RegExp(/viewItem =~ \/(.*)\//.exec(m.when)[1]).test(value));
    assert.ok(matches(spec.contextValue) && matches(children[0].contextValue), 'the menus match those rows');
    assert.ok(!matches('loomNote') && !matches('loomSpec:running:approve:executing:worktree'), 'and no others');
  });

  test('from the note, after the quick-pick confirmation, the gate is approved again and the spec stays where it is', async () => {
    const stateFile = path.join(dir(), 'pipeline.state.json');
    const before = readJson(stateFile);
    const note = (await rows(api, (await specRow(api, 'approval')).node))[0];
    const result = await confirmInQuickPick(() => vscode.commands.executeCommand('loom.reapprove', note.node));
    assert.deepStrictEqual([result.status, result.from, result.to], ['done', 'analyze-artifacts', 'git-worktree'], JSON.stringify(result));

    const after = readJson(stateFile);
    assert.strictEqual(after.current_stage, 'git-worktree');
    assert.strictEqual(after.stage_history.length, before.stage_history.length, 'no history entry is added');
    const index = before.stage_history.findIndex((h) => h.stage === 'analyze-artifacts' && h.approval_fingerprints);
    const entry = after.stage_history[index];
    assert.deepStrictEqual([entry.stage, entry.status, entry.approval], ['analyze-artifacts', 'passed', 'user_confirmed']);
    assert.deepStrictEqual(entry.superseded_approvals.at(-1).approval_fingerprints, before.stage_history[index].approval_fingerprints);
    assert.match(entry.superseded_approvals.at(-1).reason, /^approved again: plan\.md changed since the approval of 2026-11-23T10:00:00.000Z$/);
    assert.strictEqual(entry.approval_fingerprints['plan.md'], sha256(path.join(dir(), 'plan.md')));
    assert.ok(!('traceability.json' in entry.approval_fingerprints), 'never the ledger, as loom');

    await waitFor('the stale marks to go', async () => !/stale/.test((await specRow(api, 'approval')).description));
    assert.deepStrictEqual(api.registry.entry(dir()).spec.staleApprovals(), []);
    const diagnostics = vscode.languages.getDiagnostics(vscode.Uri.file(stateFile)).filter((d) => d.code === 'stale-approval');
    assert.deepStrictEqual(diagnostics, []);
    const advance = await vscode.commands.executeCommand('loom.advance', { specDir: dir(), confirm: true });
    assert.doesNotMatch(JSON.stringify(advance), /Re-approval needed|stale/, 'the approval no longer blocks the way on');
  });

  test('with nothing stale it says so and writes nothing', async () => {
    const stateFile = path.join(dir(), 'pipeline.state.json');
    const before = fs.readFileSync(stateFile, 'utf8');
    const result = await vscode.commands.executeCommand('loom.reapprove', { specDir: dir(), confirm: true });
    assert.strictEqual(result.status, 'refused');
    assert.match(result.message, /has no stale approval to renew/);
    assert.strictEqual(fs.readFileSync(stateFile, 'utf8'), before);
  });
});
