import { join } from 'node:path';
import * as vscode from 'vscode';
import { MCP_JSON_FILE, withLoomServer } from '../../core/port/agentHost';
import { readOptionalText, writeFileAtomic } from '../../core/port/files';
import { t } from '../../core/port/messages';
import { cancelled, createCommand, type CommandArgs, type CommandContext, type CommandOutcome } from './createCommand';

/**
 * Loom: Write .mcp.json: Loom's server (`loom-vscode mcp`) in the repository's .mcp.json, for the
 * agents that read it (Claude Code, the Copilot CLI, VS Code's agent plugins), written on request
 * only; the file's other servers and comments are kept.
 */
async function writeMcpJson(arg: CommandArgs): Promise<CommandOutcome> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const folder =
    (arg.folder ? folders.find((f) => f.uri.fsPath === arg.folder) : undefined) ??
    (folders.length === 1 ? folders[0] : await vscode.window.showWorkspaceFolderPick({ placeHolder: t('agentHost.mcpJson.whichFolder') }));
  if (!folder) return cancelled;
  const path = join(folder.uri.fsPath, MCP_JSON_FILE);
  const edit = withLoomServer(readOptionalText(path));
  if (edit.kind === 'unreadable') {
    void vscode.window.showErrorMessage(edit.message);
    return { status: 'refused', message: edit.message, reasons: [], code: 'unreadable-input' };
  }
  const uri = vscode.Uri.file(path).toString();
  if (edit.kind === 'unchanged') {
    void vscode.window.showInformationMessage(t('agentHost.mcpJson.unchanged', { file: MCP_JSON_FILE }));
    return { status: 'done', outcome: 'unchanged', uri };
  }
  writeFileAtomic(path, edit.text);
  void vscode.window.showInformationMessage(t('agentHost.mcpJson.written', { file: MCP_JSON_FILE }));
  return { status: 'done', outcome: 'written', uri };
}

export function registerMcpJsonCommand(ctx: CommandContext): vscode.Disposable[] {
  return [createCommand(ctx, 'loom.writeMcpJson', { spec: false, writes: true }, (a) => writeMcpJson(a))];
}
