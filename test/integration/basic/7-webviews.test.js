'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, settle, specPath, waitFor } = require('../helpers');

const SPEC = '2026-11-20+user-login';

/** Waits for the page to say `ready` and for the host to answer with a model of `kind`. */
async function initOf(view, kind) {
  await waitFor(`the ${kind} page to say ready`, () => view.isReady, 20000);
  const init = await waitFor(`init posted to the ${kind}`, () => view.posted.find((m) => m.type === 'init'), 5000);
  assert.strictEqual(init.model.kind, kind);
  assert.strictEqual(init.model.specDir, `specs/${SPEC}`);
  return init;
}

suite('dashboard and traceability matrix webviews', () => {
  let api;
  suiteSetup(async () => {
    api = await loom();
  });

  suiteTeardown(async () => {
    if (process.env.LOOM_TEST_KEEP_WEBVIEWS === '1') {
      // Leave the dashboard in front for code-shim's SHIM_SCREENSHOT, taken when the tests end.
      const view = (await vscode.commands.executeCommand('loom.openDashboard', { specDir: specPath(SPEC) })) && api.webviews.get('dashboard', specPath(SPEC));
      await waitFor('the dashboard to render', () => view.isReady, 20000).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 1500));
      return;
    }
    for (const view of api.webviews.all()) view.dispose();
  });

  test('Open Dashboard opens one webview panel per spec, which gets init and then updates', async () => {
    const dir = specPath(SPEC);
    const result = await vscode.commands.executeCommand('loom.openDashboard', { specDir: dir });
    assert.strictEqual(result.status, 'done');
    const view = api.webviews.get('dashboard', dir);
    assert.ok(view, 'the dashboard panel is tracked');
    assert.strictEqual(view.panel.viewType, 'loom.dashboard');
    assert.match(view.panel.title, /user-login/);
    assert.strictEqual(view.panel.webview.options.enableScripts, true);
    assert.deepStrictEqual(
      view.panel.webview.options.localResourceRoots.map((u) => u.path.replace(/.*\/dist\//, 'dist/')),
      ['dist/webview'],
    );
    assert.match(view.panel.webview.html, /content="default-src &#39;none&#39;;/);
    assert.match(view.panel.webview.html, /<script nonce="[^"]+" src="[^"]*dist\/webview\/dashboard\.js"/);
    const init = await initOf(view, 'dashboard');
    assert.strictEqual(init.model.stage, 'executing');

    // Opening it again reveals the same panel.
    await vscode.commands.executeCommand('loom.openDashboard', { specDir: dir });
    assert.strictEqual(api.webviews.all().filter((v) => v.kind === 'dashboard').length, 1);

    await settle(api);
    const before = view.posted.length;
    const file = path.join(dir, 'task-states', 'T1.state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8'));
    state.retry_count = (state.retry_count || 0) + 1;
    fs.writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
    const update = await waitFor('an update after the file changed', () => view.posted.slice(before).find((m) => m.type === 'update'), 10000);
    assert.strictEqual(update.model.kind, 'dashboard');
    assert.strictEqual(update.model.specDir, `specs/${SPEC}`);
  });

  test('Show Traceability Matrix opens the matrix panel of the spec it is given', async () => {
    const dir = specPath(SPEC);
    const result = await vscode.commands.executeCommand('loom.showTraceability', { specDir: dir });
    assert.strictEqual(result.status, 'done');
    const view = api.webviews.get('matrix', dir);
    assert.ok(view, 'the matrix panel is tracked');
    assert.strictEqual(view.panel.viewType, 'loom.matrix');
    const init = await initOf(view, 'matrix');
    assert.ok(init.model.rows.some((r) => r.behavior === 'REQ-001-B01'));
  });

  test("the page's messages are validated: openFile lands on a named test, paths outside the folder are refused", async () => {
    const dir = specPath(SPEC);
    const view = api.webviews.get('matrix', dir);
    const root = vscode.workspace.workspaceFolders[0].uri.fsPath;
    fs.mkdirSync(path.join(root, 'tests'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'tests', 'login.test.ts'),
      ["import { login } from '../src/login';", '// rejects a wrong password', "describe('login', () => {", "  it('rejects a wrong password', () => {});", '});', ''].join('\n'),
    );
    await view.receive({ type: 'openFile', path: 'tests/login.test.ts', testName: 'login > rejects a wrong password' });
    const editor = await waitFor('the test file to open', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.fsPath.endsWith(path.join('tests', 'login.test.ts')) ? e : undefined;
    });
    assert.strictEqual(editor.selection.active.line, 3, 'the cursor is on the it(...) line');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    const before = vscode.window.activeTextEditor && vscode.window.activeTextEditor.document.uri.toString();
    await view.receive({ type: 'openFile', path: '../outside.txt' });
    await view.receive({ type: 'openFile', path: '/etc/passwd' });
    await view.receive({ type: 'runCommand', specDir: `specs/${SPEC}`, command: 'rm -rf' });
    await view.receive('not even an object');
    assert.strictEqual(vscode.window.activeTextEditor && vscode.window.activeTextEditor.document.uri.toString(), before, 'nothing was opened');
  });

  test("buttons run the palette's commands with the spec; breaker choices need the executing engine", async () => {
    const dir = specPath(SPEC);
    const view = api.webviews.get('matrix', dir);
    const { commands, window } = vscode;
    const original = { executeCommand: commands.executeCommand, getCommands: commands.getCommands, showWarningMessage: window.showWarningMessage };
    const calls = [];
    const warnings = [];
    let engine = false;
    commands.executeCommand = async (id, ...args) => {
      if (/^loom\.(advance|approve|markFailed|recover|executing\.breakerChoice)$/.test(id)) return void calls.push([id, ...args]);
      return original.executeCommand.call(commands, id, ...args);
    };
    commands.getCommands = async (...a) => {
      const all = (await original.getCommands.call(commands, ...a)).filter((c) => c !== 'loom.executing.breakerChoice');
      return engine ? [...all, 'loom.executing.breakerChoice'] : all;
    };
    window.showWarningMessage = async (message) => void warnings.push(message);
    try {
      await view.receive({ type: 'runCommand', specDir: `specs/${SPEC}`, command: 'advance', args: { to: 'converge' } });
      await view.receive({ type: 'runCommand', specDir: `specs/${SPEC}`, command: 'recover', args: { to: 'executing' } });
      await view.receive({ type: 'runCommand', specDir: `specs/${SPEC}`, command: 'breakerChoice', args: { taskId: 'T3', choice: 'B' } });
      engine = true;
      await view.receive({ type: 'runCommand', specDir: `specs/${SPEC}`, command: 'breakerChoice', args: { taskId: 'T3', choice: 'B' } });
    } finally {
      Object.assign(commands, { executeCommand: original.executeCommand, getCommands: original.getCommands });
      window.showWarningMessage = original.showWarningMessage;
    }
    assert.deepStrictEqual(calls, [
      ['loom.advance', { specDir: dir, to: 'converge' }],
      ['loom.recover', { specDir: dir, to: 'executing' }],
      ['loom.executing.breakerChoice', { specDir: dir, taskId: 'T3', choice: 'B' }],
    ]);
    assert.deepStrictEqual(warnings, ['The executing engine is not running for this spec.']);
  });

  test('exportMatrix asks where, starting in the workspace root (never among the spec files), then where the last export went, and writes CSV or Markdown there', async () => {
    const dir = specPath(SPEC);
    const view = api.webviews.get('matrix', dir);
    const { window } = vscode;
    const original = window.showSaveDialog;
    const offered = [];
    const root = vscode.workspace.workspaceFolders[0].uri.fsPath;
    const exports = path.join(root, 'exports');
    fs.mkdirSync(exports, { recursive: true });
    const startedIn = [];
    window.showSaveDialog = async (options) => {
      offered.push(path.basename(options.defaultUri.fsPath));
      startedIn.push(path.dirname(options.defaultUri.fsPath));
      // The user picks a folder of their own for the exports.
      return vscode.Uri.file(path.join(exports, offered[offered.length - 1]));
    };
    try {
      await view.receive({ type: 'exportMatrix', specDir: `specs/${SPEC}`, format: 'csv' });
      await view.receive({ type: 'exportMatrix', specDir: `specs/${SPEC}`, format: 'markdown', behaviors: ['REQ-001-B02'] });
    } finally {
      window.showSaveDialog = original;
    }
    assert.deepStrictEqual(offered, [`${SPEC}-traceability.csv`, `${SPEC}-traceability.md`]);
    assert.deepStrictEqual(startedIn, [root, exports], 'the workspace root first, then the folder the last export went to');
    assert.ok(!startedIn.includes(dir), "never the spec's folder, among loom's files");
    const csv = fs.readFileSync(path.join(exports, offered[0]), 'utf8');
    assert.match(csv, /^\uFEFFrequirement,behavior,/);
    assert.match(csv, /REQ-001-B01/);
    const md = fs.readFileSync(path.join(exports, offered[1]), 'utf8');
    assert.match(md, /REQ-001-B02/);
    assert.doesNotMatch(md, /REQ-001-B01/);
  });

  test('closing a panel forgets it', async () => {
    const dir = specPath(SPEC);
    const view = api.webviews.get('matrix', dir);
    view.panel.dispose();
    await waitFor('the matrix to be forgotten', () => !api.webviews.get('matrix', dir));
  });

  test('both view types have a serializer, which restores a panel from the state its page saved', async () => {
    for (const viewType of ['loom.dashboard', 'loom.matrix']) {
      assert.throws(() => vscode.window.registerWebviewPanelSerializer(viewType, { deserializeWebviewPanel: async () => undefined }), /already registered/, viewType);
    }
    const panel = vscode.window.createWebviewPanel('loom.matrix', 'restored', vscode.ViewColumn.Active, {});
    await api.webviews.restore('matrix', panel, { view: 'matrix', specDir: `specs/${SPEC}`, ui: { scrollTop: 10 } });
    const view = api.webviews.get('matrix', specPath(SPEC));
    assert.ok(view, 'the restored panel is tracked');
    assert.strictEqual(view.panel, panel);
    await initOf(view, 'matrix');

    const stray = vscode.window.createWebviewPanel('loom.dashboard', 'stray', vscode.ViewColumn.Active, {});
    // As VS Code hands a serializer a panel it has shown: closing one the workbench is still opening
    // makes it log "OverlayWebview has been disposed" (a panel being restored is always shown).
    await waitFor('the stray panel in its tab', () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === 'stray')), 10000);
    let disposed = false;
    stray.onDidDispose(() => (disposed = true));
    await api.webviews.restore('dashboard', stray, { specDir: '../outside' });
    assert.ok(disposed, 'a panel without a valid saved state is closed');
  });
});
