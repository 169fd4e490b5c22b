import * as vscode from 'vscode';
import type { ViewKind } from '../../shared/protocol';
import { parsePersistedViewState } from '../../shared/protocolSchema';
import { Disposable } from '../lifecycle';
import type { ComponentLog, Log } from '../log';
import type { SpecEntry, SpecRegistry } from '../specs/specRegistry';
import { panelOptions, SpecWebview, type MessageHandler } from './specWebview';

export const VIEW_TYPES: Readonly<Record<ViewKind, string>> = { dashboard: 'loom.dashboard', matrix: 'loom.matrix' };

/**
 * The dashboard and matrix panels: at most one of each per spec (opening it again reveals it),
 * restored after a window reload by a WebviewPanelSerializer from the state the page saved.
 */
export class WebviewPanels extends Disposable {
  private readonly views = new Map<string, SpecWebview>();
  private readonly log: ComponentLog;
  private handler: MessageHandler = async () => undefined;

  constructor(
    private readonly registry: SpecRegistry,
    log: Log,
    private readonly extensionUri: vscode.Uri,
  ) {
    super();
    this.log = log.component('webviews');
    for (const kind of ['dashboard', 'matrix'] as const) {
      this._register(
        vscode.window.registerWebviewPanelSerializer(VIEW_TYPES[kind], {
          deserializeWebviewPanel: (panel, state) => this.restore(kind, panel, state),
        }),
      );
    }
    this._register({ dispose: () => [...this.views.values()].forEach((v) => v.dispose()) });
  }

  /** What the pages' messages do; set once at activation (the handlers open panels themselves). */
  setMessageHandler(handler: MessageHandler): void {
    this.handler = handler;
  }

  private static key = (kind: ViewKind, dir: string) => `${kind}\0${dir}`;

  get(kind: ViewKind, dir: string): SpecWebview | undefined {
    return this.views.get(WebviewPanels.key(kind, dir));
  }

  all(): SpecWebview[] {
    return [...this.views.values()];
  }

  /** Shows the spec's dashboard or matrix, revealing the open panel if there is one. */
  open(kind: ViewKind, entry: SpecEntry): SpecWebview {
    const existing = this.get(kind, entry.dir);
    if (existing) {
      existing.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(VIEW_TYPES[kind], entry.spec.snapshot.name, vscode.ViewColumn.Active, panelOptions(this.extensionUri));
    this.log.info(`opened the ${kind} of ${entry.spec.snapshot.specDir}`);
    return this.attach(kind, panel, entry.dir);
  }

  private attach(kind: ViewKind, panel: vscode.WebviewPanel, dir: string): SpecWebview {
    const view = new SpecWebview(panel, kind, dir, this.registry, this.log, this.extensionUri, (v, m) => this.handler(v, m));
    const key = WebviewPanels.key(kind, dir);
    this.views.set(key, view);
    view.onDidDispose(() => {
      if (this.views.get(key) === view) this.views.delete(key);
    });
    return view;
  }

  /** The serializer's work: reopens a panel VS Code kept across a reload for the spec it showed. */
  async restore(kind: ViewKind, panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const saved = parsePersistedViewState(state);
    if (!saved || saved.view !== kind) {
      this.log.info(`not restoring a ${kind} panel without a valid saved state`);
      panel.dispose();
      return;
    }
    await this.registry.start();
    const entry = this.registry.entry(saved.specDir);
    if (!entry) this.log.info(`restoring the ${kind} of ${saved.specDir}, which no longer exists`);
    const dir = entry?.dir ?? saved.specDir;
    if (this.get(kind, dir)) {
      panel.dispose();
      return;
    }
    this.attach(kind, panel, dir);
  }
}
