import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { WORKFLOW_FILE } from '../core/port/vocabulary';
import type { LoomConfig } from './config';
import { Disposable } from './lifecycle';
import type { SpecRegistry } from './specs/specRegistry';
import type { WorkspaceTrust } from './trust';
import { displayLanguage, t } from '../core/port/messages';

/** The id of `contributes.mcpServerDefinitionProviders`. */
export const MCP_PROVIDER_ID = 'loom.mcpServers';

/**
 * Offers `loom-vscode mcp` to VS Code's agents, one server per workspace folder that has loom
 * files (a spec root or `.loom/workflow.yaml`), so Copilot's agent mode finds loom's tools with
 * no configuration. Only in a trusted workspace: the server writes loom's files.
 */
export class LoomMcpServers extends Disposable implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeMcpServerDefinitions = this._onDidChange.event;
  /** The folders offered last, to tell VS Code only when the set changed. */
  private offered = '';

  constructor(
    registry: SpecRegistry,
    private readonly config: LoomConfig,
    private readonly trust: WorkspaceTrust,
    private readonly extensionPath: string,
    private readonly version: string,
  ) {
    super();
    // Specs appear and folders come and go through the registry, which watches the spec roots and the workflow.
    this._register(registry.onDidChange(() => this.changed()));
    this._register(trust.onDidChange(() => this.changed()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed()));
    this.offered = this.key();
  }

  private folders(): vscode.WorkspaceFolder[] {
    if (!this.trust.writable) return [];
    const loomFiles = [...this.config.specRoots, WORKFLOW_FILE];
    return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file' && loomFiles.some((p) => existsSync(join(folder.uri.fsPath, p))));
  }

  private key(): string {
    return this.folders()
      .map((f) => f.uri.toString())
      .join('\n');
  }

  private changed(): void {
    const now = this.key();
    if (now === this.offered) return;
    this.offered = now;
    this._onDidChange.fire();
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const folders = this.folders();
    return folders.map((folder) => {
      const label = folders.length > 1 || (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? t('host.general.loom', { name: folder.name }) : 'Loom';
      // The extension host's own Node: in desktop VS Code process.execPath is Electron, which runs
      // as plain Node with ELECTRON_RUN_AS_NODE=1; code-server's Node ignores the variable.
      const server = new vscode.McpStdioServerDefinition(
        label,
        process.execPath,
        // The tools' refusals are worded in VS Code's language, whatever the extension host's LANG says.
        [join(this.extensionPath, 'dist', 'cli.js'), 'mcp', '--cwd', folder.uri.fsPath, '--lang', displayLanguage()],
        { ELECTRON_RUN_AS_NODE: '1' },
        this.version,
      );
      server.cwd = folder.uri;
      return server;
    });
  }
}
