import * as vscode from 'vscode';
import { Disposable } from './lifecycle';
import { t } from '../core/port/messages';

/**
 * Workspace trust. In an untrusted workspace Loom only reads: no state writes, no new specs, no
 * git and no language models. Commands that would write check `writable` and say why not.
 */
export class WorkspaceTrust extends Disposable {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this._onDidChange.event;

  constructor() {
    super();
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this._onDidChange.fire()));
  }

  get writable(): boolean {
    return vscode.workspace.isTrusted;
  }
}

export class UntrustedWorkspaceError extends Error {
  /** `message`: what the refused command would have written, in its own words. */
  constructor(message = t('host.general.workspaceNotTrustedSoLoom')) {
    super(message);
  }
}
