import * as vscode from 'vscode';
import type { NeedsConfirmation } from '../../core/port/answer';

/**
 * The actor's question as VS Code's tool confirmation shows it: its title, and its lines (the
 * spec, from → to, the outputs, what is checked by hand, what an approval records, what is stale
 * or still open), then what continuing means.
 */
export function toolConfirmation(a: NeedsConfirmation): vscode.LanguageModelToolConfirmationMessages {
  const lines = [...a.question.lines, vscode.l10n.t('The agent asked for this step; continuing records it in the stage history as confirmed by you.')];
  return { title: a.question.title, message: new vscode.MarkdownString(lines.map((l) => l.replace(/[\\`*_[\]]/g, (c) => `\\${c}`)).join('\n\n')) };
}
