import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { Problem, ProblemsPort } from '../../core/port/executing';
import { delay } from '../events';

/** Diagnostics of the files unchanged this long: the language services have settled. */
const QUIET_MS = 1000;
/** The longest "done means done" waits for a language service that keeps reporting; what it reported by then counts. */
const MAX_MS = 20_000;
/** Languages of VS Code's TypeScript service. */
const TS_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);
const TS_EXTENSION = 'vscode.typescript-language-features';
/** The source the TypeScript extension gives its diagnostics in the Problems panel. */
const TS_SOURCE = 'ts';
/** Folders watched at most; the least recently used one is let go first. */
const MAX_WATCHED = 64;

/** One diagnostic as tsserver answers `semanticDiagnosticsSync` / `syntacticDiagnosticsSync`. */
interface TsDiagnostic {
  start: { line: number; offset: number };
  text: string;
  code?: number;
  category: string;
  source?: string;
}

/**
 * The Problems panel for "done means done": the task's files are opened (not shown), so the
 * language services look at them as a person who opens them would, and their error diagnostics
 * are read once no diagnostic of theirs changed for a while. Warnings do not stop a task.
 *
 * VS Code's TypeScript service reports on a file only while it is shown in a tab (unless the
 * user turned on its project-wide diagnostics), so a task's files, opened in the background, would
 * never get its errors: for those the service is asked directly, through the extension's
 * `typescript.tsserverRequest` command, and its answer stands for what the panel shows once the
 * file is opened (the same messages, source `ts`).
 *
 * A document once opened stays open, and VS Code reloads it from disk only when a file watcher
 * reports the change, and the workspace's own watcher did not report changes under a feature
 * worktree made while the window was open (`.worktree/…`, seen in code-server): a fix round's
 * rewrite went unseen and the first version's errors stood. The folders
 * of the files asked about are watched from then on, and a document that still differs from the
 * disk is waited for before anything is read.
 */
export class VsCodeProblems implements ProblemsPort, vscode.Disposable {
  private readonly watchers = new Map<string, vscode.Disposable>();

  dispose(): void {
    for (const w of this.watchers.values()) w.dispose();
    this.watchers.clear();
  }

  /** Watches the folder of each file, so VS Code reloads its open documents when a task rewrites them. */
  private watch(files: readonly string[]): void {
    for (const dir of new Set(files.map((f) => dirname(f)))) {
      const kept = this.watchers.get(dir);
      this.watchers.delete(dir);
      this.watchers.set(dir, kept ?? vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), '*')));
    }
    for (const [dir, w] of this.watchers) {
      if (this.watchers.size <= MAX_WATCHED) break;
      w.dispose();
      this.watchers.delete(dir);
    }
  }

  async errors(files: readonly string[], signal: AbortSignal): Promise<Map<string, Problem[]>> {
    this.watch(files);
    const uris = files.map((f) => vscode.Uri.file(f));
    const watched = new Set(uris.map((u) => u.toString()));
    let last = Date.now();
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => watched.has(u.toString()))) last = Date.now();
    });
    const fromTs = new Map<string, Problem[]>();
    try {
      // A file the task deleted cannot be opened: it has no diagnostics left.
      const docs = await Promise.all(uris.map((u) => Promise.resolve(vscode.workspace.openTextDocument(u)).catch(() => undefined)));
      await Promise.all(docs.map((d) => d && matchesDisk(d, signal)));
      if (vscode.extensions.getExtension(TS_EXTENSION)) {
        const tsDocs = docs.filter((d): d is vscode.TextDocument => d !== undefined && TS_LANGUAGES.has(d.languageId));
        await Promise.all(
          tsDocs.map(async (d) => {
            const errors = await askTypeScript(d.uri, signal);
            if (errors) fromTs.set(d.uri.toString(), errors);
          }),
        );
      }
      const start = Date.now();
      last = Math.max(last, start - QUIET_MS / 2);
      while (!signal.aborted && Date.now() - last < QUIET_MS && Date.now() - start < MAX_MS) await delay(100);
    } finally {
      sub.dispose();
    }
    const out = new Map<string, Problem[]>();
    for (const uri of uris) {
      const asked = fromTs.get(uri.toString());
      const errors = vscode.languages
        .getDiagnostics(uri)
        .filter((d) => d.severity === vscode.DiagnosticSeverity.Error && !(asked && d.source === TS_SOURCE))
        .map((d): Problem => ({
          line: d.range.start.line + 1,
          message: d.message,
          ...(d.source ? { source: d.source } : {}),
          ...(d.code !== undefined ? { code: String(typeof d.code === 'object' ? d.code.value : d.code) } : {}),
        }))
        .concat(asked ?? []);
      if (errors.length) out.set(uri.fsPath, errors);
    }
    return out;
  }
}

/** The TypeScript service's errors on an open document (syntax, then types); undefined when it could not answer. */
async function askTypeScript(uri: vscode.Uri, signal: AbortSignal): Promise<Problem[] | undefined> {
  const cancel = new vscode.CancellationTokenSource();
  const onAbort = () => cancel.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  // A service that starts cold answers in seconds; one that does not answer at all holds no task up.
  const timer = setTimeout(onAbort, MAX_MS);
  try {
    const out: Problem[] = [];
    for (const command of ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync']) {
      const response = await vscode.commands.executeCommand<{ body?: unknown } | undefined>('typescript.tsserverRequest', command, { file: uri }, undefined, cancel.token);
      if (cancel.token.isCancellationRequested || !response || !Array.isArray(response.body)) return undefined;
      for (const d of response.body as TsDiagnostic[]) {
        if (d.category !== 'error') continue;
        out.push({ line: d.start.line, message: d.text, source: d.source ?? TS_SOURCE, ...(d.code !== undefined ? { code: String(d.code) } : {}) });
      }
    }
    return out;
  } catch {
    // No service (the extension disabled, a file it does not take): the panel's own diagnostics count.
    return undefined;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    cancel.dispose();
  }
}

/**
 * Resolves once the open document holds what is on disk (VS Code reloads it when its watcher
 * reports the change), or after MAX_MS; a document with unsaved edits is the person's and is read as it is.
 */
async function matchesDisk(doc: vscode.TextDocument, signal: AbortSignal): Promise<void> {
  if (doc.isDirty || doc.uri.scheme !== 'file') return;
  const start = Date.now();
  while (!signal.aborted && Date.now() - start < MAX_MS) {
    let disk: string;
    try {
      disk = (await readFile(doc.uri.fsPath, 'utf8')).replace(/^\uFEFF/, '');
    } catch {
      return;
    }
    if (doc.isDirty || doc.getText() === disk || doc.getText() === disk.replace(/\r?\n/g, doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n')) return;
    await delay(100);
  }
}
