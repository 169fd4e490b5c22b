import * as vscode from 'vscode';
import type { CommandContext } from '../commands/createCommand';
import { Disposable } from '../lifecycle';
import { advanceTool } from './advanceTool';
import { approveGateTool } from './approveGateTool';
import { ConfirmedSteps } from './confirmedSteps';
import { statusTool } from './statusTool';
import { tasksTool } from './tasksTool';
import { traceTool } from './traceTool';
import { validateTool } from './validateTool';

/**
 * Loom's language-model tools (`contributes.languageModelTools`), registered with `vscode.lm`.
 * The read-only ones always; the ones that move a spec only in a trusted workspace (their
 * contribution is hidden by `isWorkspaceTrusted` too), registered when trust is granted.
 */
export class LoomTools extends Disposable {
  /** Every tool by its name, registered or not yet (tests call `prepareInvocation` directly). */
  readonly tools = new Map<string, vscode.LanguageModelTool<object>>();
  private writersRegistered = false;

  constructor(ctx: CommandContext) {
    super();
    const confirmed = new ConfirmedSteps();
    const readers: [string, vscode.LanguageModelTool<object>][] = [
      ['loom_status', statusTool(ctx)],
      ['loom_trace', traceTool(ctx)],
      ['loom_tasks', tasksTool(ctx)],
      ['loom_validate', validateTool(ctx)],
    ];
    const writers: [string, vscode.LanguageModelTool<object>][] = [
      ['loom_advance', advanceTool(ctx, confirmed)],
      ['loom_approve_gate', approveGateTool(ctx, confirmed)],
    ];
    for (const [name, tool] of [...readers, ...writers]) this.tools.set(name, tool);
    for (const [name, tool] of readers) this._register(vscode.lm.registerTool(name, tool));
    const registerWriters = () => {
      if (this.writersRegistered || !ctx.trust.writable) return;
      this.writersRegistered = true;
      for (const [name, tool] of writers) this._register(vscode.lm.registerTool(name, tool));
    };
    registerWriters();
    this._register(ctx.trust.onDidChange(registerWriters));
  }
}
