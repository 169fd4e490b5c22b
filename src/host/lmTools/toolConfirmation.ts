import * as vscode from 'vscode';
import type { NeedsConfirmation } from '../../core/port/answer';
import { t } from '../../core/port/messages';

/**
 * The actor's question as VS Code's tool confirmation shows it: its title, and its lines (the
 * spec, from → to, the outputs, what is checked by hand, what an approval records, what is stale
 * or still open), then what continuing means.
 */
export function toolConfirmation(a: NeedsConfirmation): vscode.LanguageModelToolConfirmationMessages {
  const lines = [...a.question.lines, t('host.lmTools.agentAskedStepContinuingRecords')];
  return { title: a.question.title, message: new vscode.MarkdownString(lines.map((l) => l.replace(/[\\`*_[\]]/g, (c) => `\\${c}`)).join('\n\n')) };
}
