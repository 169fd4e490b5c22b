import * as vscode from 'vscode';
import { findingFixEdits, type FindingFix } from '../../core/port/validators';
import type { FindingDiagnostic } from '../../core/port/views';
import { isFindingEntry, type LoomDiagnostics } from '../diagnostics';
import { Disposable } from '../lifecycle';
import type { ComponentLog, Log } from '../log';
import type { SpecEntry, SpecRegistry } from '../specs/specRegistry';
import { t } from '../../core/port/messages';

function fixTitle(fix: FindingFix): string {
  if (fix.type === 'task-list') {
    return fix.op === 'add' ? t('host.findings.addS', { value: fix.value, task: fix.task, key: fix.key }) : t('host.findings.removeFromS', { value: fix.value, task: fix.task, key: fix.key });
  }
  const change = fix.change;
  switch (change.op) {
    case 'add-requirement':
      return t('host.findings.addTraceabilityJson', { requirement: change.requirement });
    case 'add-tasks':
      return t('host.findings.addTasksTraceabilityJson', { tasks: change.tasks.join(', '), behavior: change.behavior ?? change.requirement });
    case 'remove-tasks':
      return t('host.findings.removeFromTasksTraceabilityJson', { tasks: change.tasks.join(', '), behavior: change.behavior ?? change.requirement });
  }
}

/**
 * Quick fixes for the Problems entries of findings: the finding's mechanical fix (an id added to or
 * removed from a task's list, or tasks and requirements added to or removed from traceability.json,
 * edited in place by the core's `findingFixEdits`, formatting kept) and, for an error of
 * artifact-analysis-pass, "Override this finding…". The finding behind an entry is the one
 * LoomDiagnostics published on that line with that message.
 */
export class FindingCodeActions extends Disposable implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };
  private readonly log: ComponentLog;

  constructor(
    private readonly registry: SpecRegistry,
    private readonly diagnostics: LoomDiagnostics,
    log: Log,
  ) {
    super();
    this.log = log.component('quickFix');
    // Findings sit on requirements.json, traceability.json, task files and reports: any file of a spec.
    this._register(vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, this, FindingCodeActions.metadata));
  }

  async provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): Promise<vscode.CodeAction[]> {
    const entries = context.diagnostics.filter(isFindingEntry);
    if (entries.length === 0) return [];
    const entry = this.registry.entryFor(document.uri);
    if (!entry) return [];
    const published = this.diagnostics.findingsOf(entry.dir);
    const actions: vscode.CodeAction[] = [];
    for (const d of entries) {
      const found = published.find(
        (f) => f.line - 1 === d.range.start.line && f.message === d.message && vscode.Uri.joinPath(entry.folder.uri, ...f.file.split('/')).toString() === document.uri.toString(),
      );
      if (!found) continue;
      if (found.finding.fix) {
        const action = await this.fixAction(entry, found, found.finding.fix, d);
        if (action) actions.push(action);
      }
      if (found.finding.overridable) actions.push(this.overrideAction(entry, found, d));
    }
    return actions;
  }

  private async fixAction(entry: SpecEntry, found: FindingDiagnostic, fix: FindingFix, d: vscode.Diagnostic): Promise<vscode.CodeAction | undefined> {
    const uri = vscode.Uri.joinPath(entry.uri, ...fix.file.split('/'));
    let text: string;
    try {
      // The open document when there is one: its unsaved changes are what the edit applies to.
      text = (await vscode.workspace.openTextDocument(uri)).getText();
    } catch (e) {
      this.log.warn(`${entry.spec.snapshot.specDir}: no quick fix for ${found.finding.id}: ${fix.file} cannot be opened (${e instanceof Error ? e.message : String(e)})`);
      return undefined;
    }
    let edits;
    try {
      edits = findingFixEdits(`${entry.spec.snapshot.specDir}/${fix.file}`, text, fix);
    } catch (e) {
      this.log.warn(`no quick fix for ${found.finding.id}: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
    if (edits.length === 0) return undefined;
    const action = new vscode.CodeAction(fixTitle(fix), vscode.CodeActionKind.QuickFix);
    action.edit = new vscode.WorkspaceEdit();
    for (const e of edits) {
      const range = new vscode.Range(e.range.start.line - 1, e.range.start.column - 1, e.range.end.line - 1, e.range.end.column - 1);
      action.edit.replace(uri, range, e.newText);
    }
    action.diagnostics = [d];
    action.isPreferred = true;
    return action;
  }

  private overrideAction(entry: SpecEntry, found: FindingDiagnostic, d: vscode.Diagnostic): vscode.CodeAction {
    const action = new vscode.CodeAction(t('host.findings.overrideFinding'), vscode.CodeActionKind.QuickFix);
    action.command = {
      command: 'loom.overrideFinding',
      title: t('host.findings.overrideFinding'),
      arguments: [{ specDir: entry.dir, findingId: found.finding.id, message: found.finding.message }],
    };
    action.diagnostics = [d];
    return action;
  }
}
