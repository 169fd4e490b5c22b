import * as vscode from 'vscode';
import type { Problem, ProblemsPort } from '../../core/executing/ports';

/** Diagnostics of the files unchanged this long: the language services have settled. */
const QUIET_MS = 1500;
/** The longest "done means done" waits for them; what they reported by then counts. */
const MAX_MS = 20_000;
/** Languages whose service (VS Code's TypeScript extension) reports on every file it opens: their first report is waited for. */
const TS_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);
const TS_EXTENSION = 'vscode.typescript-language-features';

/**
 * The Problems panel for "done means done": the task's files are opened (not shown), so the
 * language services look at them as a person who opens them would, and their error diagnostics
 * are read once no diagnostic of theirs changed for a while. Warnings do not stop a task.
 */
export class VsCodeProblems implements ProblemsPort {
  async errors(files: readonly string[], signal: AbortSignal): Promise<Map<string, Problem[]>> {
    const uris = files.map((f) => vscode.Uri.file(f));
    const watched = new Set(uris.map((u) => u.toString()));
    // A language server that starts cold reports late: the files it reports on wait for its first word.
    const awaited = new Set<string>();
    let last = Date.now();
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      for (const u of e.uris) {
        const key = u.toString();
        if (!watched.has(key)) continue;
        last = Date.now();
        awaited.delete(key);
      }
    });
    try {
      const tsPresent = vscode.extensions.getExtension(TS_EXTENSION) !== undefined;
      // A file the task deleted cannot be opened: it has no diagnostics left.
      const docs = await Promise.all(uris.map((u) => Promise.resolve(vscode.workspace.openTextDocument(u)).catch(() => undefined)));
      for (const d of docs) if (d && tsPresent && TS_LANGUAGES.has(d.languageId) && vscode.languages.getDiagnostics(d.uri).length === 0) awaited.add(d.uri.toString());
      const start = Date.now();
      last = Math.max(last, start);
      const settled = () => awaited.size === 0 && Date.now() - last >= QUIET_MS;
      while (!signal.aborted && !settled() && Date.now() - start < MAX_MS) await new Promise((r) => setTimeout(r, 250));
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
