import * as vscode from 'vscode';
import type { Diagnostic } from '../core/port/reports';
import { evaluateSpec, evaluationProblems, type FindingDiagnostic } from '../core/port/views';
import { lazily } from '../shared/lazily';
import { Disposable, toDisposable } from './lifecycle';
import type { ComponentLog, Log } from './log';
import type { CheckedSpec, SpecEntry, SpecRegistry } from './specs/specRegistry';

const SEVERITY: Readonly<Record<Diagnostic['severity'], vscode.DiagnosticSeverity>> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** What the Problems panel names as the source of a problem with loom's files. */
export const LOOM_SOURCE = 'Loom';
const FINDING_CODE = 'finding:';

/**
 * Where a finding's code leads: the README's list of the checks that block a move. The Problems
 * panel shows a finding as `Loom(partial)`, like every other problem with loom's files
 * (`eslint(no-unused-vars)`, `ts(2304)`), its code a link; the link is also how quick fixes tell a
 * finding from the other problems, whose codes are plain strings.
 */
export const FINDING_DOCS = lazily(() => vscode.Uri.parse('https://github.com/loom-vscode/loom-vscode#which-checks-block-a-move'));

/** Whether a Problems entry (as VS Code hands it to a code action provider) is a validator's finding. */
export function isFindingEntry(d: vscode.Diagnostic): boolean {
  return d.source === LOOM_SOURCE && typeof d.code === 'object' && d.code.target.toString() === FINDING_DOCS().toString();
}

/**
 * The panel's codes, one each: a thousand specs' look publishes fifteen thousand entries, and each
 * would otherwise hold a copy of its code (`partial`, `task-state-closure`, ...).
 */
const panelCodes = new Map<string, vscode.Diagnostic['code']>();
function panelCode(code: string): vscode.Diagnostic['code'] {
  let shown = panelCodes.get(code);
  if (shown === undefined) panelCodes.set(code, (shown = code.startsWith(FINDING_CODE) ? { value: code.slice(FINDING_CODE.length), target: FINDING_DOCS() } : code));
  return shown;
}

/** The core's 1-based line and column as a VS Code position (0-based). */
export function toVsDiagnostic(d: Diagnostic): vscode.Diagnostic {
  const pos = new vscode.Position(Math.max(0, d.line - 1), Math.max(0, d.column - 1));
  const diag = new vscode.Diagnostic(new vscode.Range(pos, pos), d.message, SEVERITY[d.severity]);
  diag.source = LOOM_SOURCE;
  if (d.code) diag.code = panelCode(d.code);
  return diag;
}

/**
 * The URI of a file of the folder (`specs/x/tasks/T1.md`). A plain relative path is appended to
 * the folder's path as is: joinPath normalizes it again, and did so for every file of every spec
 * the look published (a sixth of the garbage the host made while loading a thousand specs).
 */
export function fileUri(root: vscode.Uri, file: string): vscode.Uri {
  const plain = !file.startsWith('/') && !file.includes('\\') && file.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
  return plain ? root.with({ path: `${root.path.endsWith('/') ? root.path.slice(0, -1) : root.path}/${file}` }) : vscode.Uri.joinPath(root, ...file.split('/'));
}

/**
 * Problems panel entries for every diagnostic of the core (and every stale fact), and the
 * findings of the validators of each spec's current stage, replaced per spec when that spec
 * changes; the workflow's problems are kept per workspace folder. The findings last published are
 * kept, so that quick fixes and overrides find the finding behind a Problems entry.
 */
export class LoomDiagnostics extends Disposable {
  readonly collection = this._register(vscode.languages.createDiagnosticCollection('loom'));
  /** The files each spec (or folder workflow, keyed `workflow:<root>`) last put problems on. */
  private readonly published = new Map<string, vscode.Uri[]>();
  /** The stage findings each spec last published, by spec directory. */
  private readonly findings = new Map<string, readonly FindingDiagnostic[]>();
  private readonly log: ComponentLog;
  /**
   * Changes not handed to VS Code yet: one `collection.set` per turn of the event loop for all of
   * them, not one per file (each is a message to the window; the look at a thousand specs after
   * start-up would send twelve thousand).
   */
  private batch: [vscode.Uri, vscode.Diagnostic[] | undefined][] = [];
  private flushing = false;

  constructor(
    private readonly registry: SpecRegistry,
    log: Log,
  ) {
    super();
    this.log = log.component('diagnostics');
    this._register(
      registry.onDidChange((e) => {
        // A rescan (workflow.yaml changed, Refresh) republishes everything, the workflow's problems too.
        if (e.all) return this.publishAll();
        for (const dir of e.removed) this.clear(dir);
        for (const dir of e.changed) {
          const entry = registry.entry(dir);
          if (entry) this.publish(entry);
        }
      }),
    );
    // Specs only summarized for the tree are looked at once behind the first rows, for this panel.
    this._register(registry.onDidCheck((checked) => ('evaluation' in checked ? this.apply(checked) : this.publish(checked))));
    this._register(toDisposable(() => (this.batch = [])));
    void registry.ready.then(() => this.publishAll());
  }

  private publishAll(): void {
    // A spec only summarized keeps what its one look published; the rest is published again.
    const rows = new Set(this.registry.rows().map((e) => e.dir));
    const loaded = this.registry.loadedEntries();
    for (const key of [...this.published.keys()]) if (!rows.has(key)) this.clear(key);
    for (const entry of loaded) this.publish(entry);
    this.publishWorkflows();
  }

  private publishWorkflows(): void {
    for (const folder of this.registry.folderSpecs()) {
      this.replace(`workflow:${folder.root}`, folder.folder.uri, folder.repository.workflowProblems);
    }
  }

  private publish(entry: SpecEntry): void {
    const evaluation = evaluateSpec(entry.spec, entry.staleness, (part, e) =>
      this.log.error(`${entry.spec.snapshot.specDir}: ${part === 'validators' ? `the validators of ${entry.spec.stage}` : 'diagnostics'} failed`, e),
    );
    this.apply({ dir: entry.dir, folder: entry.folder, evaluation });
  }

  private apply({ dir, folder, evaluation }: CheckedSpec): void {
    this.replace(dir, folder.uri, evaluationProblems(evaluation));
    this.findings.set(dir, evaluation.findings);
  }

  /** The stage findings of a spec as last published (none when its stage has no validators). */
  findingsOf(specDir: string): readonly FindingDiagnostic[] {
    return this.findings.get(specDir) ?? [];
  }

  private replace(key: string, root: vscode.Uri, diagnostics: readonly Diagnostic[]): void {
    this.clear(key);
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const d of diagnostics) {
      const list = byFile.get(d.file) ?? [];
      list.push(toVsDiagnostic(d));
      byFile.set(d.file, list);
    }
    const uris: vscode.Uri[] = [];
    for (const [file, list] of byFile) {
      const uri = fileUri(root, file);
      // Two keys never share a file: a spec's files are its own, the workflow is the folder's.
      this.send(uri, list);
      uris.push(uri);
    }
    this.published.set(key, uris);
  }

  private clear(key: string): void {
    for (const uri of this.published.get(key) ?? []) this.send(uri, undefined);
    this.published.delete(key);
    this.findings.delete(key);
  }

  /**
   * Queues one file's entries (undefined: none); `collection.set` with a list applies them in
   * order, a removal before what follows it. The batch goes out at the next turn of the event
   * loop: each `set` is a message to the window, which updates the panel, the editors and the
   * explorer for it, and the look hands on many specs in one turn (a thousand at a reload).
   */
  private send(uri: vscode.Uri, list: vscode.Diagnostic[] | undefined): void {
    this.batch.push([uri, list]);
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = false;
    const batch = this.batch;
    this.batch = [];
    if (batch.length && !this.isDisposed) this.collection.set(batch);
  }
}
