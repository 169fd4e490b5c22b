import * as vscode from 'vscode';
import type { LoomConfig } from '../config';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import type { SpecRegistry } from '../specs/specRegistry';

/**
 * What the spec threads (Loom Review on a spec's files) and the task threads (comments on a
 * task's change) keep alike: the editor threads drawn, by spec and stored id, each thread's
 * stored one, the files already warned about, and an event naming the spec whose threads were
 * drawn again.
 */
export abstract class StoredThreads<Shown> extends Disposable {
  abstract readonly controller: vscode.CommentController;
  protected readonly shown = new Map<string, Map<string, Shown>>();
  protected readonly byThread = new WeakMap<vscode.CommentThread, Shown>();
  protected readonly warned = new Set<string>();
  protected readonly _onDidChange = this._register(new vscode.EventEmitter<string>());
  /** Fires with the spec directory whose threads were drawn again (the tree's counts follow it). */
  readonly onDidChange = this._onDidChange.event;

  constructor(
    protected readonly registry: SpecRegistry,
    protected readonly config: LoomConfig,
    protected readonly log: Log,
  ) {
    super();
  }
}

/**
 * A comment controller whose threads may start on any line of a document it takes (a spec's file,
 * the side after a task in Review Changes), with the prompt and placeholder of its reply box.
 */
export function wholeFileComments(id: string, label: string, options: vscode.CommentOptions, takes: (uri: vscode.Uri) => boolean): vscode.CommentController {
  const controller = vscode.comments.createCommentController(id, label);
  controller.options = options;
  controller.commentingRangeProvider = {
    provideCommentingRanges: (doc) => (takes(doc.uri) ? [new vscode.Range(0, 0, Math.max(0, doc.lineCount - 1), 0)] : []),
  };
  return controller;
}

/**
 * Threads stored in the specs' files are drawn again from the spec's notification (every spec at
 * a rescan, else each spec changed or removed), and all of them once the registry is ready.
 */
export function followSpecs(registry: SpecRegistry, renderAll: () => void, render: (dir: string) => unknown): vscode.Disposable {
  void registry.ready.then(renderAll);
  return registry.onDidChange((e) => (e.all ? renderAll() : [...e.changed, ...e.removed].forEach((d) => void render(d))));
}
