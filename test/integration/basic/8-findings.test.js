'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { EXTENSION_ID, folderPath, loom, readJson, settle, specPath, waitFor, writeUntil } = require('../helpers');

const SPEC = '2026-11-28+findings';
/** At planning, where planning-artifacts checks traceability.json (copied in by its own test). */
const PLANNING = '2026-11-29+planning-findings';
// Findings read `Loom(<kind>)` in the Problems panel, as other problems with loom's files `Loom(<code>)` do; a
// finding's code links to the README's checks that block a move.
const loomDiagnostics = (file) => vscode.languages.getDiagnostics(vscode.Uri.file(file)).filter((d) => d.source === 'Loom');
const isFinding = (d) => typeof d.code === 'object' && d.code.target.toString().endsWith('#which-checks-block-a-move');
const kind = (d) => (typeof d.code === 'object' ? d.code.value : d.code);

/** The 0-based line of the first line of `file` that holds `needle`. */
const lineOf = (file, needle) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(needle));

/** The code actions VS Code offers for a Problems entry, as the light bulb would. */
async function codeActions(file, diagnostic) {
  const uri = vscode.Uri.file(file);
  await vscode.workspace.openTextDocument(uri);
  const ask = () => vscode.commands.executeCommand('vscode.executeCodeActionProvider', uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
  try {
    return await ask();
  } catch (e) {
    // The JSON language client may cancel its part of the first request on a document just opened.
    if (!/Canceled/.test(e.message)) throw e;
    await new Promise((r) => setTimeout(r, 500));
    return ask();
  }
}

suite('findings', () => {
  let api;
  let dir;
  const loomDir = () => path.join(folderPath(), '.loom');
  const fixture = () => path.join(vscode.extensions.getExtension(EXTENSION_ID).extensionPath, 'test', 'fixtures', 'findings');

  suiteSetup(async () => {
    api = await loom();
    // The fixture brings its own workflow (a `findings` pipeline type; specs of other types are unreadable meanwhile, as in loom).
    fs.cpSync(path.join(fixture(), '.loom'), loomDir(), { recursive: true });
    fs.cpSync(path.join(fixture(), 'specs', SPEC), specPath(SPEC), { recursive: true });
    dir = specPath(SPEC);
    const loaded = () => {
      const spec = api.registry.entry(dir)?.spec;
      return spec && spec.stage === 'analyze-artifacts' && spec.definition.type === 'findings' && spec.definition.source === 'workflow';
    };
    // A workflow.yaml in a folder created a moment ago can escape code-server's file watcher: read it all again.
    await vscode.commands.executeCommand('loom.refresh');
    await waitFor('the findings spec with its workflow', loaded, 10000);
    await settle(api);
  });

  suiteTeardown(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(specPath(PLANNING), { recursive: true, force: true });
    fs.rmSync(loomDir(), { recursive: true, force: true });
    // Without the fixture's workflow the other specs follow the schema again (its removal can escape the watcher too).
    await vscode.commands.executeCommand('loom.refresh');
    await waitFor('the findings specs to go', () => !api.registry.entry(dir) && !api.registry.entry(specPath(PLANNING)), 10000);
    await settle(api);
  });

  test('Check Stage writes artifact-analysis.json and reports what blocks', async () => {
    const result = await vscode.commands.executeCommand('loom.checkStage', { specDir: dir });
    assert.deepStrictEqual([result.status, result.outcome], ['done', 'blocked'], JSON.stringify(result));
    assert.match(result.message, /findings: 2 blocking findings at analyze-artifacts/);
    const report = readJson(path.join(dir, 'artifact-analysis.json'));
    assert.deepStrictEqual([report.status, report.blocker_count, report.findings.map((f) => f.id)], ['blocked', 2, ['F-1', 'F-2']]);
  });

  test('a behavior no task names is an error on its line in requirements.json; the quick fix adds it to T1 and the finding goes', async () => {
    const requirements = path.join(dir, 'requirements.json');
    const d = await waitFor('the finding on requirements.json', () => loomDiagnostics(requirements).find((x) => isFinding(x) && kind(x) === 'missing'));
    assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Error);
    assert.strictEqual(d.message, "REQ-001-B02 is not in any task's behavior_ids (F-2, blocker)");
    assert.strictEqual(d.range.start.line, lineOf(requirements, '"id": "REQ-001-B02"'));

    const actions = await codeActions(requirements, d);
    const fix = actions.find((a) => a.title === "Add REQ-001-B02 to T1's behavior_ids");
    assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
    assert.ok(fix.isPreferred);
    assert.ok(!actions.some((a) => a.command && a.command.command === 'loom.overrideFinding'), 'a blocker cannot be overridden');
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    const t1 = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(dir, 'tasks', 'T1.md')));
    assert.ok(await t1.save());
    assert.match(fs.readFileSync(t1.uri.fsPath, 'utf8'), /^behavior_ids: \[REQ-001-B01, REQ-001-B02\]$/m, 'the flow list keeps its form');
    await waitFor('the finding to go', () => !loomDiagnostics(requirements).some(isFinding), 10000);
  });

  // An override is shown, never a pass: loom's run --advance re-runs runAnalyzeArtifacts, which reads no override.
  test('an error finding is overridden with a reason from the input box and shown as a warning that still blocks; an empty reason is refused', async () => {
    const t2 = path.join(dir, 'tasks', 'T2.md');
    const d = await waitFor('the plan finding on T2', () => loomDiagnostics(t2).find((x) => isFinding(x) && kind(x) === 'unrequested'));
    assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Error);
    assert.strictEqual(d.message, 'T2 has a task file but plan.md does not name T2.md (F-1)');
    const override = (await codeActions(t2, d)).find((a) => a.title === 'Override this finding…');
    assert.ok(override && override.command, 'an error finding offers the override');
    assert.strictEqual(override.command.command, 'loom.overrideFinding');
    const sidecar = path.join(dir, 'artifact-analysis.overrides.json');

    api.testHooks.prompts.answerNext('overrideReason', '   ');
    const empty = await vscode.commands.executeCommand(override.command.command, ...override.command.arguments);
    assert.strictEqual(empty.status, 'refused');
    assert.strictEqual(empty.message, 'Overriding F-1 needs a reason; nothing was recorded.');
    assert.ok(!fs.existsSync(sidecar) || readJson(sidecar).overrides.length === 0, 'nothing recorded');

    api.testHooks.prompts.answerNext('overrideReason', 'T2 is planned in the rollout document');
    const done = await vscode.commands.executeCommand(override.command.command, ...override.command.arguments);
    assert.strictEqual(done.status, 'done', JSON.stringify(done));
    assert.match(done.message, /It still blocks: loom's run --advance re-runs the analysis and reads no override, so fix the artifact\./);
    const recorded = readJson(sidecar).overrides;
    assert.deepStrictEqual(
      recorded.map((o) => [o.finding_id, o.message, o.reason, /\(Loom: Override Finding\)$/.test(o.by)]),
      [['F-1', 'T2 has a task file but plan.md does not name T2.md', 'T2 is planned in the rollout document', true]],
    );
    const report = readJson(path.join(dir, 'artifact-analysis.json'));
    assert.deepStrictEqual([report.status, report.blocker_count, report.overrides], ['blocked', 1, undefined], "loom's report, as loom's script writes it");

    const shown = await waitFor(
      'the finding to become a warning',
      () => loomDiagnostics(t2).find((x) => isFinding(x) && kind(x) === 'unrequested' && x.severity === vscode.DiagnosticSeverity.Warning),
      10000,
    );
    assert.strictEqual(
      shown.message,
      `T2 has a task file but plan.md does not name T2.md (F-1, overridden by ${recorded[0].by}: T2 is planned in the rollout document; loom's run --advance re-runs the analysis and reads no override, so it still blocks until the artifact is fixed)`,
    );
    const check = await vscode.commands.executeCommand('loom.checkStage', { specDir: dir });
    assert.deepStrictEqual([check.status, check.outcome], ['done', 'blocked'], JSON.stringify(check));
  });

  test('the stage passes once the artifact is fixed; Override Finding from the palette finds nothing left to override', async () => {
    const plan = path.join(dir, 'plan.md');
    fs.writeFileSync(plan, `${fs.readFileSync(plan, 'utf8')}\ntasks/T2.md follows tasks/T1.md.\n`);
    await settle(api);
    const result = await vscode.commands.executeCommand('loom.checkStage', { specDir: dir });
    assert.deepStrictEqual([result.status, result.outcome], ['done', 'pass'], JSON.stringify(result));
    const none = await vscode.commands.executeCommand('loom.overrideFinding', { specDir: dir });
    assert.strictEqual(none.status, 'refused');
    assert.match(none.message, /has no error finding to override/);
  });

  test('a planning-artifacts finding sits on its behavior in traceability.json; the quick fix adds the task there, keeping the layout, and the finding goes', async () => {
    const planning = specPath(PLANNING);
    fs.cpSync(path.join(fixture(), 'specs', PLANNING), planning, { recursive: true });
    await waitFor(
      'the planning spec',
      () => {
        const spec = api.registry.entry(planning)?.spec;
        return spec && spec.stage === 'planning' && spec.definition.type === 'findings';
      },
      10000,
    );
    const trace = path.join(planning, 'traceability.json');
    const before = fs.readFileSync(trace, 'utf8');
    const d = await waitFor('the finding on traceability.json', () => loomDiagnostics(trace).find((x) => isFinding(x) && kind(x) === 'missing'), 10000);
    assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Error);
    assert.strictEqual(d.message, 'REQ-001-B02 maps to no task in traceability.json (PA-1)');
    assert.strictEqual(d.range.start.line, lineOf(trace, '"REQ-001-B02"'));

    const actions = await codeActions(trace, d);
    const fix = actions.find((a) => a.title === 'Add T1 to the tasks of REQ-001-B02 in traceability.json');
    assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
    assert.ok(fix.isPreferred);
    assert.ok(!actions.some((a) => a.command && a.command.command === 'loom.overrideFinding'), 'only artifact-analysis-pass findings are overridden');
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(trace));
    assert.ok(await doc.save());
    const after = fs.readFileSync(trace, 'utf8');
    assert.strictEqual(
      after,
      before.replace('"REQ-001-B02": {\n          "tasks": [],', '"REQ-001-B02": {\n          "tasks": [\n            "T1"\n          ],'),
      'only the empty list changed, indented like the rest',
    );
    await waitFor('the finding to go', () => !loomDiagnostics(trace).some(isFinding), 10000);
  });

  // (search was advanced to detail-expansion by 3-commands, whose own detail-expansion-pass Check Stage runs.)
  test('a spec whose stage has no validators has nothing to check', async () => {
    const dir = specPath('2026-11-10+payments');
    // The watcher test left payments at code-review-response, a stage the fixture's feature pipeline
    // (synced only) does not have: the spec is unreadable meanwhile, and the actor says so.
    const unknown = await vscode.commands.executeCommand('loom.checkStage', { specDir: dir });
    assert.deepStrictEqual([unknown.status, unknown.code], ['refused', 'state-unreadable'], JSON.stringify(unknown));
    const file = path.join(dir, 'pipeline.state.json');
    const state = readJson(file);
    await writeUntil('payments back at synced', file, JSON.stringify({ ...state, current_stage: 'synced' }, null, 2), () => api.registry.entry(dir)?.spec.stage === 'synced');
    const result = await vscode.commands.executeCommand('loom.checkStage', { specDir: dir }); // synced: no validator belongs to it
    assert.deepStrictEqual([result.status, result.outcome], ['done', 'none'], JSON.stringify(result));
  });
});
