'use strict';
/**
 * Shared helpers of the integration suites: the extension's API, waiting for the watcher, and
 * the tree read through its TreeDataProvider as plain rows, git in a test's repository.
 */
const assert = require('assert');
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const EXTENSION_ID = 'loom-vscode.loom-vscode';

/** Activates the extension (if the workspace did not already) and returns its API once loaded. */
async function loom() {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
  const api = await ext.activate();
  await api.registry.whenIdle();
  return api;
}

/** Polls `check` until it returns a truthy value; throws with `what` after `timeout` ms. */
async function waitFor(what, check, timeout = 5000) {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeout) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Writes `text` to `file` and waits for `check`, writing it again every `everyMs` until then:
 * VS Code's file watcher starts asynchronously after activation, and a write made before it is
 * running is never reported (later writes are). Throws with `what` after `timeout` ms.
 */
async function writeUntil(what, file, text, check, { everyMs = 1500, timeout = 30000 } = {}) {
  const started = Date.now();
  for (;;) {
    fs.writeFileSync(file, text);
    const wrote = Date.now();
    while (Date.now() - wrote < everyMs) {
      const value = await check();
      if (value) return value;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (Date.now() - started > timeout) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
  }
}

/**
 * Runs a command that asks for confirmation in a quick pick and accepts the pick, as a user would,
 * until the command returns. An accept that lands before the pick has its items cancels it
 * (nothing is written), and the user tries again.
 */
async function confirmInQuickPick(run) {
  for (let attempt = 1; ; attempt++) {
    let returned = false;
    const pending = Promise.resolve(run()).finally(() => (returned = true));
    while (!returned) {
      await new Promise((r) => setTimeout(r, 300));
      if (!returned) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    const result = await pending;
    if (result.status !== 'cancelled' || attempt === 5) return result;
  }
}

/**
 * Resolves once the watcher has delivered every event of the writes made so far and the registry
 * has handled them. On a loaded machine the watcher's events of an earlier test's writes came more
 * than 1.2 s after the previous change, so a quiet period alone is not enough: a barrier file is
 * written where Loom's watcher sees (and ignores) it, and once our own watcher reports it, every
 * earlier event has reached Loom's watcher too (both take VS Code's one stream of file events).
 * Then the registry must report no change for `quietMs` (its longest debounce is 1 s).
 */
async function settle(api, quietMs = 1200, timeout = 15000) {
  await watcherBarrier(timeout);
  let last = Date.now();
  const listener = api.registry.onDidChange(() => (last = Date.now()));
  try {
    const started = Date.now();
    while (Date.now() - last < quietMs) {
      if (Date.now() - started > timeout) throw new Error('the registry never settled');
      await new Promise((r) => setTimeout(r, 50));
    }
    await api.registry.whenIdle();
  } finally {
    listener.dispose();
  }
}

let barriers = 0;

/** Writes a hidden file in the spec root (not a spec: Loom ignores it) and waits for its event. */
async function watcherBarrier(timeout) {
  const root = folderPath();
  const specs = fs.existsSync(path.join(root, 'specs')) ? 'specs' : '.';
  const name = `.settle-barrier-${process.pid}-${++barriers}`;
  const file = path.join(root, specs, name);
  // A recursive pattern (`**`), like Loom's own: VS Code serves it from the workspace's one
  // recursive watcher, as it does Loom's, and starts no second watcher of its own for it.
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, `**/${name}`));
  let timer;
  try {
    const seen = new Promise((resolve, reject) => {
      watcher.onDidCreate(resolve);
      timer = setTimeout(() => reject(new Error(`the watcher never reported ${file}`)), timeout);
    });
    fs.writeFileSync(file, '');
    await seen;
  } finally {
    clearTimeout(timer);
    watcher.dispose();
    fs.rmSync(file, { force: true });
  }
}

/** One tree row: what a user sees of it. */
function row(item) {
  const label = typeof item.label === 'string' ? item.label : item.label && item.label.label;
  const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath : undefined;
  return {
    label,
    description: typeof item.description === 'string' ? item.description : undefined,
    icon: icon ? icon.id : undefined,
    color: icon && icon.color ? icon.color.id : undefined,
    contextValue: item.contextValue,
    command: item.command ? item.command.command : undefined,
    tooltip: typeof item.tooltip === 'string' ? item.tooltip : item.tooltip ? item.tooltip.value : undefined,
    collapsible: item.collapsibleState,
  };
}

/** The rows under `node` (the top level when omitted), each with its node. */
async function rows(api, node) {
  const children = await api.tree.getChildren(node);
  return Promise.all(
    children.map(async (child) => {
      const item = await api.tree.getTreeItem(child);
      // VS Code asks for some tooltips only on hover.
      const resolved = api.tree.resolveTreeItem ? await api.tree.resolveTreeItem(item, child) : item;
      return { node: child, ...row(resolved || item) };
    }),
  );
}

/** The row of a spec by the feature part of its name, searched through the groups. */
async function specRow(api, feature) {
  for (const group of await rows(api)) {
    for (const spec of await rows(api, group.node)) if (spec.label === feature) return { ...spec, group: group.label };
  }
  return undefined;
}

/** Rows under a spec's stage (tasks, artifacts). */
async function stageRows(api, feature, stage) {
  const spec = await specRow(api, feature);
  if (!spec) throw new Error(`no spec row ${feature}`);
  const stages = await rows(api, spec.node);
  const found = stages.find((s) => s.label === stage);
  if (!found) throw new Error(`no stage ${stage} under ${feature}`);
  return rows(api, found.node);
}

/** The workspace folder a suite opened (copied to a temporary directory by runTests.js). */
function folderPath(name) {
  const folders = vscode.workspace.workspaceFolders || [];
  const folder = name ? folders.find((f) => f.name === name) : folders[0];
  if (!folder) throw new Error(`no workspace folder ${name || ''}`);
  return folder.uri.fsPath;
}

const specPath = (name, folder) => path.join(folderPath(folder), 'specs', name);
const readJson = (p) => JSON.parse(fs.readFileSync(p, 'utf8'));

/** git in `cwd`, which must succeed: its output, trimmed. */
function git(cwd, ...args) {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  assert.strictEqual(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/**
 * The executing suites' start: the workspace made a git repository when run alone (LOOM_TEST_GREP;
 * otherwise the first suite made it), the spec's feature worktree created from that clean HEAD, then
 * subagent mode with parallel dispatch, so a spec's independent tasks form one parallel batch.
 * Returns the worktree's path; `parallelSubagentsOff` puts the settings back.
 */
async function parallelSubagentWorkspace(ws, specDir) {
  if (!fs.existsSync(path.join(ws, '.git'))) {
    git(ws, 'init', '-q', '-b', 'main');
    git(ws, 'add', '-A');
    git(ws, '-c', 'user.name=Loom Test', '-c', 'user.email=test@example.com', 'commit', '-qm', 'the fixture');
  }
  await loom();
  // The worktree first: it starts from a clean HEAD, and the settings below are an uncommitted change.
  const made = await vscode.commands.executeCommand('loom.createWorktree', { specDir });
  assert.strictEqual(made.status, 'done', JSON.stringify(made));
  const config = vscode.workspace.getConfiguration('loom');
  await config.update('executing.parallel', true, vscode.ConfigurationTarget.Workspace);
  await config.update('executing.mode', 'subagent', vscode.ConfigurationTarget.Workspace);
  return vscode.Uri.parse(made.uri).fsPath;
}

async function parallelSubagentsOff() {
  const config = vscode.workspace.getConfiguration('loom');
  await config.update('executing.parallel', undefined, vscode.ConfigurationTarget.Workspace);
  await config.update('executing.mode', undefined, vscode.ConfigurationTarget.Workspace);
}

module.exports = {
  EXTENSION_ID,
  loom,
  waitFor,
  writeUntil,
  confirmInQuickPick,
  settle,
  rows,
  specRow,
  stageRows,
  folderPath,
  specPath,
  readJson,
  git,
  parallelSubagentWorkspace,
  parallelSubagentsOff,
};
