import { isAbsolute, relative, resolve } from 'node:path';
import * as vscode from 'vscode';
import { findTestLine, buildMatrixModel } from '../../core/port/views';
import { matrixToCsv, matrixToMarkdown, selectRows } from '../../shared/matrixExport';
import type { ExportMatrixMessage, OpenFileMessage, RunCommandMessage, WebviewMessage } from '../../shared/protocol';
import { notify, openSpecFile } from '../commands/createCommand';
import type { ComponentLog } from '../log';
import type { SpecEntry, SpecRegistry } from '../specs/specRegistry';
import type { MessageHandler, SpecWebview } from './specWebview';
import type { WebviewPanels } from './webviewPanels';
import { t } from '../../core/port/messages';

/**
 * What the dashboard's breaker buttons run: registered with Loom's other commands
 * (executingCommands.ts), it answers the run of the spec that waits for a choice, and says so when none does.
 */
export const BREAKER_CHOICE_COMMAND = 'loom.executing.breakerChoice';

const PALETTE_COMMANDS: Readonly<Record<Exclude<RunCommandMessage['command'], 'breakerChoice'>, string>> = {
  advance: 'loom.advance',
  approve: 'loom.approve',
  markFailed: 'loom.markFailed',
  checkStage: 'loom.checkStage',
  refineSpec: 'loom.refineSpec',
  recover: 'loom.recover',
  reapprove: 'loom.reapprove',
  showTranscripts: 'loom.showTranscripts',
  reviewChanges: 'loom.reviewChanges',
  rejectFile: 'loom.rejectFile',
  rewindTask: 'loom.rewindTask',
  verify: 'loom.verify',
  answerReview: 'loom.answerReview',
  runPipeline: 'loom.runPipeline',
  stopPipeline: 'loom.stopPipeline',
  continuePipeline: 'loom.continuePipeline',
  acceptAsAccurate: 'loom.acceptSpecAsAccurate',
  reconcileSpec: 'loom.reconcileSpec',
  showDriftDiff: 'loom.showDriftDiff',
};

/** An absolute path inside `root`, or undefined when `rel` would leave it. */
export function insideFolder(root: string, rel: string): string | undefined {
  const abs = resolve(root, rel);
  const r = relative(root, abs);
  return r === '' || r.startsWith('..') || isAbsolute(r) ? undefined : abs;
}

/**
 * What the pages' messages do. Every message names its spec by a repository-relative
 * directory; it is looked up in the panel's own workspace folder, never anywhere else.
 */
export function webviewMessageHandler(registry: SpecRegistry, panels: WebviewPanels, log: ComponentLog, memory: vscode.Memento): MessageHandler {
  const specOf = (view: SpecWebview, specDir: string): SpecEntry => {
    const folder = view.entry?.folder;
    const abs = folder ? insideFolder(folder.uri.fsPath, specDir) : undefined;
    const entry = abs ? registry.entry(abs) : undefined;
    if (!entry) throw new Error(t('host.commands.notLoomSpecDirectoryWorkspace', { dir: specDir }));
    return entry;
  };

  return async (view, message: Exclude<WebviewMessage, { type: 'ready' }>) => {
    switch (message.type) {
      case 'openFile':
        return openFile(view, message, log);
      case 'runCommand':
        return runCommand(specOf(view, message.specDir), message);
      case 'exportMatrix':
        return exportMatrix(specOf(view, message.specDir), message, log, memory);
      case 'openMatrix':
        panels.open('matrix', specOf(view, message.specDir));
        return;
    }
  };
}

async function openFile(view: SpecWebview, message: OpenFileMessage, log: ComponentLog): Promise<void> {
  const folder = view.entry?.folder;
  const abs = folder ? insideFolder(folder.uri.fsPath, message.path) : undefined;
  if (!folder || !abs) {
    log.warn(`refused to open ${message.path}: outside the workspace folder`);
    return;
  }
  const uri = vscode.Uri.joinPath(folder.uri, ...message.path.split('/').filter(Boolean));
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    // A spec's own file not written yet opens as its starter (in the spec's language), as the refusal's Create does.
    const entry = view.entry;
    const inSpec = entry ? relative(entry.dir, abs) : '';
    if (entry && inSpec && !inSpec.startsWith('..') && !isAbsolute(inSpec)) {
      openSpecFile(entry, inSpec.split('\\').join('/'));
      return;
    }
    notify('warning', t('host.webviews.doesNotExist', { path: message.path }));
    return;
  }
  if (!message.line && !message.testName) {
    await vscode.commands.executeCommand('vscode.open', uri);
    return;
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  const line = message.testName ? (findTestLine(doc.getText(), message.testName) ?? message.line) : message.line;
  const at = new vscode.Position(Math.min(Math.max((line ?? 1) - 1, 0), Math.max(doc.lineCount - 1, 0)), 0);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(at, at), preview: true });
}

async function runCommand(entry: SpecEntry, message: RunCommandMessage): Promise<void> {
  if (message.command === 'breakerChoice') {
    const commands = await vscode.commands.getCommands(true);
    if (!commands.includes(BREAKER_CHOICE_COMMAND)) {
      notify('warning', t('host.webviews.executingEngineNotRunningSpec'));
      return;
    }
    await vscode.commands.executeCommand(BREAKER_CHOICE_COMMAND, { specDir: entry.dir, taskId: message.args.taskId, choice: message.args.choice });
    return;
  }
  // The palette's command, so the page gets exactly the same checks and confirmations.
  const to = message.args && 'to' in message.args ? message.args.to : undefined;
  const taskId = message.args && 'taskId' in message.args ? message.args.taskId : undefined;
  const approvalStage = message.args && 'stage' in message.args ? message.args.stage : undefined;
  const file = message.args && 'file' in message.args ? message.args.file : undefined;
  await vscode.commands.executeCommand(PALETTE_COMMANDS[message.command], {
    specDir: entry.dir,
    ...(to ? { to } : {}),
    ...(taskId ? { taskId } : {}),
    ...(approvalStage ? { approvalStage } : {}),
    ...(file ? { file } : {}),
  });
}

/** Where the last export of this workspace went (workspaceState): the next one starts there. */
const LAST_EXPORT_FOLDER = 'loom.matrix.lastExportFolder';

async function exportMatrix(entry: SpecEntry, message: ExportMatrixMessage, log: ComponentLog, memory: vscode.Memento): Promise<void> {
  const csv = message.format === 'csv';
  const name = `${entry.spec.snapshot.name}-traceability.${csv ? 'csv' : 'md'}`;
  // The folder of the last export, else the workspace folder's root: never the spec's own folder,
  // where an export would sit among loom's files, be committed with them and be taken for one.
  const last = memory.get<string>(LAST_EXPORT_FOLDER);
  const start = last ? vscode.Uri.parse(last) : entry.folder.uri;
  const target = await vscode.window.showSaveDialog({
    title: t('host.webviews.exportTraceabilityMatrix'),
    defaultUri: vscode.Uri.joinPath(start, name),
    filters: csv ? { CSV: ['csv'] } : { Markdown: ['md'] },
  });
  if (!target) return;
  await memory.update(LAST_EXPORT_FOLDER, vscode.Uri.joinPath(target, '..').toString());
  const model = buildMatrixModel(entry.spec.snapshot);
  // A byte-order mark lets spreadsheets read non-ASCII text (loom writes Chinese) correctly.
  const text = csv ? matrixToCsv(model, message.behaviors, { bom: true }) : matrixToMarkdown(model, message.behaviors);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  const rows = selectRows(model, message.behaviors).length;
  log.info(`exported ${rows} row(s) of ${entry.spec.snapshot.specDir} to ${target.fsPath}`);
  notify('info', t('host.webviews.exportedRows', { rows, asRelativePath: vscode.workspace.asRelativePath(target) }), [
    { title: t('host.tree.open'), run: () => void vscode.commands.executeCommand('vscode.open', target) },
  ]);
}
