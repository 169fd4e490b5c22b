'use strict';
/**
 * @loom in the real chat view: a fresh feature goes from brainstorming to approved with its files
 * drafted by /brainstorm, /expand and /plan (the scripted model, picked in the chat view, through
 * the real vscode.lm path), checked by the core, previewed, written only when the user accepts,
 * and advanced only through Loom: Advance with the user's confirmations.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, readJson, settle, specRow } = require('../helpers');
const { advanceConfirmed, approveConfirmed, authorRequests, chat } = require('./chat');

const FIXTURE = process.env.LOOM_TEST_AUTHORING_FIXTURE;
const fixture = (name) => fs.readFileSync(path.join(FIXTURE, name), 'utf8');

suite('@loom chat participant', () => {
  let api;
  let dir;
  /** New Feature's spec.md template: what the drafts replace, and only once accepted. */
  let template;
  const stage = () => readJson(path.join(dir, 'pipeline.state.json')).current_stage;

  suiteSetup(async () => {
    api = await loom();
    await vscode.workspace.getConfiguration('loom').update('confirmation', 'quickPick', vscode.ConfigurationTarget.Workspace);
    const created = await vscode.commands.executeCommand('loom.newFeature', { name: 'tags' });
    assert.strictEqual(created.status, 'done');
    dir = created.specDir;
    template = fs.readFileSync(path.join(dir, 'spec.md'), 'utf8');
    await settle(api);
    assert.ok(await specRow(api, 'tags'), 'the new feature is in the Loom view');
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('loom').update('confirmation', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('/brainstorm first explores approaches and writes nothing', async () => {
    const result = await chat(api, '@loom /brainstorm todo tags: label todos and filter the list by label');
    assert.strictEqual(result.metadata.command, 'brainstorm');
    assert.strictEqual(result.metadata.dir, dir);
    assert.strictEqual(result.metadata.pending, undefined);
    assert.match(result.metadata.reply, /Three ways to do it/);
    assert.deepStrictEqual(fs.readdirSync(dir).sort(), ['pipeline.state.json', 'progress.md', 'spec.md']);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'spec.md'), 'utf8'), template, 'the template is left as it was');
    assert.match(template, /^### REQ-001 /m);
    assert.deepStrictEqual(
      (await authorRequests()).map((r) => r.command),
      ['brainstorm'],
    );
  });

  test('/brainstorm with a chosen approach drafts the files, repairs them once, previews them and writes only on "write"', async () => {
    const result = await chat(api, '@loom /brainstorm go with approach A');
    const requests = await authorRequests();
    assert.deepStrictEqual(
      requests.map((r) => r.command),
      ['brainstorm', 'brainstorm', 'repair'],
    );
    assert.ok(requests[1].messages >= 3, 'the second turn carries the conversation so far');
    assert.deepStrictEqual(requests[1].turns, ['/brainstorm']);
    assert.ok(result.metadata.pending, 'the drafts are pending');
    const pending = api.drafts.get(dir, 'brainstorm');
    assert.deepStrictEqual(
      pending.drafts.map((d) => d.path),
      ['spec.md', 'requirements.json'],
    );
    assert.deepStrictEqual(pending.problems, []);
    assert.strictEqual(pending.drafts[0].content, fixture('spec.md'), 'the repaired spec.md');
    assert.strictEqual(fs.readFileSync(path.join(dir, 'spec.md'), 'utf8'), template, 'nothing is written before the user accepts');
    assert.ok(!fs.existsSync(path.join(dir, 'requirements.json')), 'nothing is written before the user accepts');

    const written = await chat(api, '@loom /brainstorm write');
    assert.deepStrictEqual(written.metadata.wrote, ['spec.md', 'requirements.json']);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'spec.md'), 'utf8'), fixture('spec.md'));
    assert.strictEqual(fs.readFileSync(path.join(dir, 'requirements.json'), 'utf8'), fixture('requirements.brainstorm.json'));
    const handoff = readJson(path.join(dir, 'handoffs', 'brainstorming.json'));
    assert.deepStrictEqual([handoff.stage, handoff.status, handoff.artifacts], ['brainstorming', 'done', ['spec.md', 'requirements.json']]);
    assert.strictEqual(api.drafts.get(dir, 'brainstorm'), undefined);
    assert.strictEqual(stage(), 'brainstorming', '@loom never advances the pipeline itself');
  });

  test('Loom: Approve leaves brainstorming after the user confirms; Advance never passes the human-approval gate', async () => {
    await settle(api);
    // The actor refuses Advance at a human-approval gate (loom's run --advance: "Use: loom run --approve").
    const refused = await vscode.commands.executeCommand('loom.advance', { specDir: dir });
    assert.deepStrictEqual([refused.status, refused.code], ['refused', 'human-approval-gate'], JSON.stringify(refused));
    const result = await approveConfirmed(dir);
    assert.deepStrictEqual([result.status, result.from, result.to], ['done', 'brainstorming', 'detail-expansion']);
    assert.strictEqual(readJson(path.join(dir, 'pipeline.state.json')).stage_history.at(-1).approval, 'user_confirmed');
  });

  test('/expand (the spec named in the prompt) drafts requirements.json; the Write files button writes it', async () => {
    const result = await chat(api, '@loom /expand tags');
    assert.strictEqual(result.metadata.dir, dir);
    // brainstorming is closed: its turns stay behind (loom 3's compression_confirmed, which Advance gives).
    assert.deepStrictEqual((await authorRequests()).filter((r) => r.command === 'expand')[0].turns, []);
    const pending = api.drafts.get(dir, 'expand');
    assert.deepStrictEqual([pending.drafts.map((d) => d.path), pending.problems], [['requirements.json'], []]);
    const outcome = await vscode.commands.executeCommand('loom.writeDrafts', { id: result.metadata.pending });
    assert.strictEqual(outcome.status, 'done');
    assert.strictEqual(fs.readFileSync(path.join(dir, 'requirements.json'), 'utf8'), fixture('requirements.expanded.json'));
    assert.ok(fs.existsSync(path.join(dir, 'handoffs', 'detail-expansion.json')));
    const again = await vscode.commands.executeCommand('loom.writeDrafts', { id: result.metadata.pending });
    assert.strictEqual(again.status, 'refused', 'drafts are written once');
    await settle(api);
    // loom 3 (pipeline-engine.js checkApprovalFreshness): the rewritten requirements.json makes
    // brainstorming's approval stale; Advance says so, and Approve Again renews it.
    const refused = await vscode.commands.executeCommand('loom.advance', { specDir: dir, confirm: true });
    assert.strictEqual(refused.status, 'refused');
    assert.match(JSON.stringify(refused), /brainstorming/);
    const renewed = await vscode.commands.executeCommand('loom.reapprove', { specDir: dir, confirm: true });
    assert.strictEqual(renewed.status, 'done', JSON.stringify(renewed));
    const advanced = await advanceConfirmed(dir);
    assert.deepStrictEqual([advanced.status, advanced.to], ['done', 'planning']);
  });

  test('/plan drafts plan.md, the tasks and traceability.json; after writing, the spec advances to approved', async () => {
    const result = await chat(api, '@loom /plan');
    const pending = api.drafts.get(dir, 'plan');
    assert.deepStrictEqual(
      pending.drafts.map((d) => d.path),
      ['plan.md', 'tasks/T1.md', 'tasks/T2.md', 'traceability.json'],
    );
    assert.deepStrictEqual(pending.problems, []);
    const diff = await vscode.commands.executeCommand('loom.showDraftDiff', { id: result.metadata.pending, path: 'tasks/T1.md' });
    assert.strictEqual(diff.status, 'done');
    const shown = vscode.window.visibleTextEditors.map((e) => e.document.uri.toString());
    assert.ok(
      shown.some((u) => u.startsWith('loom-draft:') && u.endsWith('/tasks/T1.md')),
      shown.join(', '),
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    const written = await chat(api, '@loom /plan looks good');
    assert.deepStrictEqual(written.metadata.wrote, ['plan.md', 'tasks/T1.md', 'tasks/T2.md', 'traceability.json']);
    await settle(api);
    const toAnalysis = await approveConfirmed(dir);
    assert.deepStrictEqual([toAnalysis.status, toAnalysis.to], ['done', 'analyze-artifacts']);
    await settle(api);
    // The analysis is the stage's own deterministic work: Loom: Check Stage writes its report and handoff.
    const check = await vscode.commands.executeCommand('loom.checkStage', { specDir: dir });
    assert.strictEqual(check.status, 'done', JSON.stringify(check));
    assert.ok(fs.existsSync(path.join(dir, 'handoffs', 'analyze-artifacts.json')));
    await settle(api);
    const toApproved = await advanceConfirmed(dir);
    assert.deepStrictEqual([toApproved.status, toApproved.from, toApproved.to], ['done', 'analyze-artifacts', 'approved']);
    const analysis = readJson(path.join(dir, 'artifact-analysis.json'));
    assert.deepStrictEqual([analysis.status, analysis.blocker_count], ['pass', 0]);
    const state = readJson(path.join(dir, 'pipeline.state.json'));
    assert.strictEqual(state.current_stage, 'approved');
    assert.deepStrictEqual(
      state.stage_history.map((h) => [h.stage, h.status]),
      [
        ['brainstorming', 'passed'],
        ['detail-expansion', 'passed'],
        ['planning', 'passed'],
        ['analyze-artifacts', 'passed'],
      ],
    );
  });

  test('with a changed file on disk, "write" refuses and names it instead of overwriting', async () => {
    const result = await chat(api, '@loom /plan redo it');
    assert.ok(result.metadata.pending);
    fs.writeFileSync(path.join(dir, 'plan.md'), '# Plan edited by hand\n');
    const refused = await chat(api, '@loom /plan write');
    assert.match(refused.errorDetails.message, /plan\.md changed since @loom drafted it; nothing was written/);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'plan.md'), 'utf8'), '# Plan edited by hand\n');
  });
});
