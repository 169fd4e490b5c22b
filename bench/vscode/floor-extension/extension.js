'use strict';
// The floor of `bench: tree-first-paint`: Loom's view, given as many rows as Loom gives it, of the
// same kind (a group, expanded, holding one row per spec: a label, a description, an icon, an id),
// from rows.json, which the benchmark writes beside this file before the window opens. It reads
// nothing of the workspace: the time to its first rows is VS Code's own, the window's start
// (its other extensions, the workspace's size) and the tree's machinery.
const vscode = require('vscode');
const bundleStartedAt = performance.now();

exports.activate = (context) => {
  const activateStartedAt = performance.now();
  /** `{ group, rows: [{ id, label, description }] }`. */
  const list = require('./rows.json');
  const tree = { firstAskedAt: undefined, firstRowsAt: undefined };
  const group = { kind: 'group' };
  const rows = list.rows.map((row) => ({ kind: 'row', ...row }));
  const provider = {
    getChildren(node) {
      if (!node) {
        tree.firstAskedAt ??= performance.now();
        return [group];
      }
      if (node !== group) return [];
      // As Loom's tree marks it (specTreeProvider.ts): VS Code asks for the rows' items right after, and paints them once this task ends.
      if (tree.firstRowsAt === undefined && rows.length) setImmediate(() => (tree.firstRowsAt ??= performance.now()));
      return rows;
    },
    getTreeItem(node) {
      if (node === group) {
        const item = new vscode.TreeItem(list.group, vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'group:in-progress';
        item.description = String(rows.length);
        return item;
      }
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = node.id;
      item.description = node.description;
      item.iconPath = new vscode.ThemeIcon('play-circle', new vscode.ThemeColor('charts.blue'));
      item.contextValue = 'loomSpec:running';
      return item;
    },
  };
  context.subscriptions.push(vscode.window.createTreeView('loom.specs', { treeDataProvider: provider }));
  return { timings: { bundleStartedAt, bundleLoadedAt, activateStartedAt, activatedAt: performance.now() }, tree };
};
exports.deactivate = () => {};
const bundleLoadedAt = performance.now();
