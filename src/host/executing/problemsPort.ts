import * as vscode from 'vscode';
import type { Problem, ProblemsPort } from '../../core/executing/ports';

/** Diagnostics of the files unchanged this long: the language services have settled. */
const QUIET_MS = 1500;
/** The longest "done means done" waits for them; what they reported by then counts. */
const MAX_MS = 20_000;

/**
 * The Problems panel for "done means done": the task's files are opened (not shown), so the
 * language services look at them as a person who opens them would, and their error diagnostics
 * are read once no diagnostic of theirs changed for a while. Warnings do not stop a task.
 */
export class VsCodeProblems implements ProblemsPort {
  async errors(files: readonly string[], signal: AbortSignal): Promise<Map<string, Problem[]>> {
    const uris = files.map((f) => vscode.Uri.file(f));
    const watched = new Set(uris.map((u) => u.toString()));
    let last = Date.now();
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => watched.has(u.toString()))) last = Date.now();
    });
    try {
      // A file the task deleted cannot be opened: it has no diagnostics left.
      await Promise.all(uris.map((u) => Promise.resolve(vscode.workspace.openTextDocument(u)).catch(() => undefined)));
      const start = Date.now();
      last = Math.max(last, start);
      while (!signal.aborted && Date.now() - last < QUIET_MS && Date.now() - start < MAX_MS) await new Promise((r) => setTimeout(r, 250));
    } finally {
      sub.dispose();
    }
    const out = new Map<string, Problem[]>();
    for (const uri of uris) {
      const errors = vscode.languages
        .getDiagnostics(uri)
        .filter((d) => d.severity === vscode.DiagnosticSeverity.Error)
        .map((d): Problem => ({
          line: d.range.start.line + 1,
          message: d.message,
          ...(d.source ? { source: d.source } : {}),
          ...(d.code !== undefined ? { code: String(typeof d.code === 'object' ? d.code.value : d.code) } : {}),
        }));
      if (errors.length) out.set(uri.fsPath, errors);
    }
    return out;
  }
}
